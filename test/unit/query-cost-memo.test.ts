import { parse } from 'graphql';
import { describe, expect, it, vi } from 'vitest';

/** How many times the cost model ran (the plugin's memo is what is under test). */
const runs = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../src/edge/cost.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/edge/cost.js')>();
  return {
    ...m,
    estimateCoerced: (...a: Parameters<typeof m.estimateCoerced>) => {
      runs.n++;
      return m.estimateCoerced(...a);
    },
  };
});

const { useQueryCost } = await import('../../src/edge/use-query-cost.js');
const { buildSchema } = await import('../../src/schema/index.js');

describe('query cost estimates are kept by the coerced values of the variables the price reads', () => {
  const schema = buildSchema();
  const plugin = useQueryCost({ maxCost: 6_000, cost: {}, identify: () => 'client' });
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
    return cost as { estimatedCU: number };
  };

  it('runs the model once for several ids, again for a new first, and every time for unkeyable values', async () => {
    runs.n = 0;
    const a = await price({ id: '1', m: 1 });
    expect(await price({ id: '2', m: 1 })).toEqual(a);
    expect(await price({ id: '3', m: 1 })).toEqual(a);
    expect(runs.n).toBe(1);
    const b = await price({ id: '3', m: 150 });
    expect(b.estimatedCU).toBe(a.estimatedCU + 20);
    expect(await price({ id: '4', m: 150 })).toEqual(b);
    expect(runs.n).toBe(2);
    // An absent variable is not a null one.
    await price({ id: '4' });
    await price({ id: '4', m: null });
    expect(runs.n).toBe(4);
    // Variables the price does not read are not part of the key, whatever their size.
    await price({ id: 'x'.repeat(10_000), m: 1 });
    expect(runs.n).toBe(4);
  });

  it('an operation that read no variable the first time is priced again for new sizes (issue 32, item 2)', async () => {
    const doc = parse(`query($n: Int) { chain(id: "43114") { blocks(first: $n) { edges { node {
      transactions(first: 1) { edges { node { hash } } } } } } } }`);
    const run = async (variableValues: Record<string, unknown> | undefined) => {
      const stop = vi.fn();
      await plugin.onExecute?.({
        args: { schema, document: doc, operationName: null, variableValues, contextValue: {} },
        setResultAndStopExecution: stop,
      } as never);
      return stop;
    };
    expect(await run(undefined)).not.toHaveBeenCalled();
    expect(await run({ n: 500 })).toHaveBeenCalled();
  });

  it('a connection resumed from a cursor costs one upstream page more; the key holds whether, not which, cursor', async () => {
    const doc =
      parse(`query($after: String) { address(chainId: "43114", address: "0x${'a'.repeat(40)}") {
      deployedContracts(first: 7, after: $after) { edges { node { address } } } } }`);
    const { createCostMemo } = await import('../../src/edge/cost-memo.js');
    const memo = createCostMemo({});
    const cu = (after: string | null) => {
      const p = memo(schema, doc, null, { after });
      expect(p.ok).toBe(true);
      return (p as { cu: number }).cu;
    };
    runs.n = 0;
    const fresh = cu(null);
    const resumed = cu('Y3Vyc29yLTE');
    // listContractDeployments is Medium (20 CU): the cursor may stand inside an upstream page.
    expect(resumed - fresh).toBe(20);
    expect(cu('Y3Vyc29yLTI')).toBe(resumed);
    expect(cu(null)).toBe(fresh);
    expect(runs.n).toBe(2);
  });

  it('values too large to keep as a key (over 4 kB as JSON) are priced every time', async () => {
    const doc = parse(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`);
    const ids = Array.from({ length: 200 }, (_, i) => `id-${i}-${'x'.repeat(20)}`);
    runs.n = 0;
    for (let i = 0; i < 2; i++)
      await plugin.onExecute?.({
        args: {
          schema,
          document: doc,
          operationName: null,
          variableValues: { ids },
          contextValue: {},
        },
        setResultAndStopExecution: vi.fn(),
      } as never);
    expect(runs.n).toBe(2);
  });

  it('kept estimates are bounded in bytes across documents, not by a count per document', async () => {
    const { createCostMemo } = await import('../../src/edge/cost-memo.js');
    const memo = createCostMemo({}, 64 << 10);
    // 40 documents, each with one 3 kB key (the priced list): 120 kB in all, past the 64 kB bound.
    const docs = Array.from({ length: 40 }, (_, i) =>
      parse(`query($ids: [ID!]!) { n${i}: nodes(ids: $ids) { id } }`),
    );
    const ids = (i: number) => ({ ids: [`${i}-${'x'.repeat(3_000)}`] });
    runs.n = 0;
    for (const [i, d] of docs.entries()) memo(schema, d, null, ids(i));
    expect(runs.n).toBe(40);
    memo(schema, docs[39]!, null, ids(39));
    expect(runs.n).toBe(40); // the newest is kept
    memo(schema, docs[0]!, null, ids(0));
    expect(runs.n).toBe(41); // the oldest was let go
  });
});
