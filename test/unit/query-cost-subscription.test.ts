import type { ExecutionResult } from 'graphql';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useQueryCost } from '../../src/edge/use-query-cost.js';
import { buildSchema } from '../../src/schema/index.js';

/** A source with no events yet: next() waits; return() ends it and says so. */
function quietSource() {
  let ended = false;
  let wake: ((r: IteratorResult<ExecutionResult>) => void) | undefined;
  const it: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => it,
    next: () => new Promise((r) => (wake = r)),
    return: async () => {
      ended = true;
      wake?.({ done: true, value: undefined });
      return { done: true, value: undefined };
    },
  };
  return { it, ended: () => ended };
}

describe('a priced subscription', () => {
  const schema = buildSchema();
  const plugin = useQueryCost({ maxCost: 6_000, cost: {}, identify: () => 'client' });
  const document = parse('subscription { newBlocks(chainId: "43114") { number } }');

  it('ends its source at once when the client leaves, with no event pending', async () => {
    const hooks = (await plugin.onSubscribe?.({
      args: { schema, document, operationName: null, variableValues: {}, contextValue: {} },
      setResultAndStopExecution: () => {},
    } as never)) as { onSubscribeResult: (p: unknown) => void };
    const source = quietSource();
    let wrapped: AsyncIterableIterator<ExecutionResult> | undefined;
    hooks.onSubscribeResult({
      result: source.it,
      setResult: (r: AsyncIterableIterator<ExecutionResult>) => {
        wrapped = r;
      },
    });
    const pending = wrapped!.next();
    // Closing the stream while the transport waits for the next event (as graphql-ws and SSE do).
    await Promise.race([wrapped!.return!(), new Promise((r) => setTimeout(r, 200))]);
    expect(source.ended()).toBe(true);
    expect(await pending).toEqual({ done: true, value: undefined });
  });
});
