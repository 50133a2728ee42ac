import { parse } from 'graphql';
import { describe, expect, it, vi } from 'vitest';

/** How many times the cost model ran (the plugin's memo is what is under test). */
const runs = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../src/edge/cost.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/edge/cost.js')>();
  return {
    ...m,
    estimateCost: (...a: Parameters<typeof m.estimateCost>) => {
      runs.n++;
      return m.estimateCost(...a);
    },
  };
});

const { useQueryCost } = await import('../../src/edge/use-query-cost.js');
const { buildSchema } = await import('../../src/schema/index.js');

describe('query cost estimates are kept by the variables the estimate reads', () => {
  const schema = buildSchema();
  const plugin = useQueryCost({ maxCost: 300, cost: {}, identify: () => 'client' });
  const document = parse(`query($id: String!, $m: Int) { block(chainId: "43114", id: $id) {
    number transactions(first: $m) { edges { node { hash } } } } }`);
  const price = async (variableValues: Record<string, unknown>) => {
    const stop = vi.fn();
    const hooks = (await plugin.onExecute?.({
      args: { schema, document, operationName: null, variableValues, contextValue: {} },
      setResultAndStopExecution: stop,
    } as never)) as { onExecuteDone?: (p: unknown) => void } | undefined;
    let cost: unknown;
    hooks?.onExecuteDone?.({
      result: { data: {} },
      setResult: (r: { extensions: { cost: unknown } }) => {
        cost = r.extensions.cost;
      },
    });
    expect(stop).not.toHaveBeenCalled();
    return cost as { estimatedCalls: number };
  };

  it('runs the model once for several ids, again for a new first, and every time for unkeyable values', async () => {
    runs.n = 0;
    const a = await price({ id: '1', m: 1 });
    expect(await price({ id: '2', m: 1 })).toEqual(a);
    expect(await price({ id: '3', m: 1 })).toEqual(a);
    expect(runs.n).toBe(1);
    const b = await price({ id: '3', m: 150 });
    expect(b.estimatedCalls).toBe(a.estimatedCalls + 1);
    expect(await price({ id: '4', m: 150 })).toEqual(b);
    expect(runs.n).toBe(2);
    // An absent variable is not a null one.
    await price({ id: '4' });
    await price({ id: '4', m: null });
    expect(runs.n).toBe(4);
    // A value too large to keep as a key (over 4 kB as JSON) is priced every time.
    await price({ id: '5', m: 1, unused: 'x'.repeat(10) });
    expect(runs.n).toBe(4);
    const big = Array.from({ length: 2_000 }, (_, i) => i);
    await price({ id: '5', m: big });
    await price({ id: '5', m: big });
    expect(runs.n).toBe(6);
  });
});
