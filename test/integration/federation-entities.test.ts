import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * `_entities` with any mix of representations answers with an error per bad item and never leaves a
 * promise behind. Before the guard, an unknown `__typename` after an already-started `resolveReference`
 * made @apollo/subgraph throw for the whole list and drop that promise: its rejection went unhandled and
 * the process exited, from one GET with no body and no header.
 */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});
// The gateway's loads and writes done, then one turn of the event loop: a rejection nobody handled is
// reported once the microtasks have run.
const settle = async () => {
  await gw.settled();
  await new Promise((r) => setImmediate(r));
};

const getEntities = async (reps: string) => {
  const query = `{ _entities(representations: [${reps}]) { __typename ... on Block { number } } }`;
  const res = await gw.yoga.fetch(
    `http://gateway.test/graphql?query=${encodeURIComponent(query)}`,
    { headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } },
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: { _entities: unknown[] };
      errors?: { path?: unknown[]; extensions?: { code?: string } }[];
    },
  };
};

describe('_entities with hostile representations', () => {
  it('a malformed key then an unknown typename: one coded error each, nothing unhandled, the process lives', async () => {
    const { status, body } = await getEntities(
      `{__typename: "Block", chainId: "${C}", number: "x"}, {__typename: "Nope"}`,
    );
    await settle();
    expect(status).toBe(200);
    expect(body.data?._entities).toEqual([null, null]);
    expect(codes(body as never).sort()).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(body.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        ['_entities', 0],
        ['_entities', 1],
      ]),
    );
    expect(unhandled).toEqual([]);
    expect(sim.stats().total).toBe(0);
  });

  it('an upstream 404 then an unknown typename: NOT_FOUND and BAD_USER_INPUT, nothing unhandled', async () => {
    const { status, body } = await getEntities(
      `{__typename: "Block", chainId: "${C}", number: "999999999"}, {__typename: "Nope"}`,
    );
    await settle();
    expect(status).toBe(200);
    expect(body.data?._entities).toEqual([null, null]);
    expect(codes(body as never).sort()).toEqual(['BAD_USER_INPUT', 'NOT_FOUND']);
    expect(unhandled).toEqual([]);
  });

  it('valid entities still resolve beside bad ones, at their own index', async () => {
    const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 });
    const n = String(blocks[0].blockNumber);
    const { body } = await getEntities(
      `{__typename: "Query"}, {__typename: "Block", chainId: "${C}", number: "${n}"}, {__typename: "Block"}, {__typename: "Block", chainId: "${C}", number: "${n}"}`,
    );
    await settle();
    expect(body.data?._entities).toEqual([
      null,
      { __typename: 'Block', number: n },
      null,
      { __typename: 'Block', number: n },
    ]);
    expect(body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual(
      expect.arrayContaining([
        [['_entities', 0], 'BAD_USER_INPUT'],
        [['_entities', 2], 'BAD_USER_INPUT'],
      ]),
    );
    expect(unhandled).toEqual([]);
  });

  it('a representation that is not an object is refused by the _Any scalar or the guard, with a code', async () => {
    const { body } = await getEntities(`"Block", 42, {__typename: 7}`);
    await settle();
    expect(body.errors?.length).toBeGreaterThan(0);
    for (const e of body.errors ?? []) expect(e.extensions?.code).toBe('BAD_USER_INPUT');
    expect(unhandled).toEqual([]);
  });
});
