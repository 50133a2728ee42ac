import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/edge/cost.js';
import { buildSchema } from '../../src/schema/index.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';

/**
 * Issue 32, items 1, 2 and 4 and the cost lows: the estimate is made on the variables as execution
 * coerces them (an operation's own defaults set sizes too), kept only under what cannot vary, and an
 * upper bound of the calls every shape makes (an L1 validator by key tries two networks; a P-Chain
 * block's transactions load one by one; every mutation reaches an upstream).
 */
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({}, (s, g) => {
  sim = s;
  gw = g;
});
const schema = buildSchema();

const BLOCKS = (def: string) =>
  `query Q($n: Int${def}) { chain(id: "43114") { blocks(first: $n) { edges { node {
    transactions(first: 1) { edges { node { hash } } } } } } } }`;
const blockId = (i: number) => Buffer.from(`Block:43114:${70_000_000 - i}`).toString('base64url');
const ids = (n: number) => Array.from({ length: n }, (_, i) => blockId(i));
const reps = (n: number, typename = 'Block') =>
  Array.from({ length: n }, (_, i) => ({
    __typename: typename,
    chainId: '43114',
    number: String(70_000_000 - i),
  }));
const literal = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(literal).join(', ')}]`
    : typeof v === 'object' && v !== null
      ? `{${Object.entries(v)
          .map(([k, x]) => `${k}: ${literal(x)}`)
          .join(', ')}}`
      : JSON.stringify(v);

const tooComplex = (r: { data?: unknown; errors?: readonly { extensions?: unknown }[] }) => {
  expect(r.data ?? null).toBeNull();
  expect(r.errors?.[0]?.extensions).toMatchObject({
    code: 'BAD_USER_INPUT',
    reason: 'QUERY_TOO_COMPLEX',
  });
  expect(sim.stats().total).toBe(0);
};

describe('a variable default sets the size, and is priced', () => {
  it('$n: Int = 500 with no variables is refused like {n: 500}, with 0 calls', async () => {
    tooComplex(await gw.query(BLOCKS(' = 500')));
    tooComplex(await gw.query(BLOCKS(''), { n: 500 }));
  });

  it('$ids: [ID!]! = [400 ids] on nodes, and $r: [_Any!]! = [reps] on _entities', async () => {
    tooComplex(
      await gw.query(`query($ids: [ID!]! = ${literal(ids(400))}) { nodes(ids: $ids) { id } }`),
    );
    const entities = (n: number, typename?: string) =>
      `query($r: [_Any!]! = ${literal(reps(n, typename))}) { _entities(representations: $r) { __typename } }`;
    // An L1 validator's look-up is 40 CU (two listL1Validators, Medium), a block's 10.
    tooComplex(await gw.query(entities(151, 'L1Validator')));
    const r = await gw.query(entities(20));
    expect((r.extensions as { cost: { estimatedCU: number } }).cost.estimatedCU).toBe(20 * 10);
    expect(sim.stats().total).toBeGreaterThan(1);
    expect(sim.stats().total).toBeLessThanOrEqual(20);
  });

  it('under @defer and @stream the default is priced too', async () => {
    const deferred = `query Q($n: Int = 500) { chain(id: "43114") { ... @defer { blocks(first: $n) {
      edges { node { transactions(first: 1) { edges { node { hash } } } } } } } } }`;
    const streamed = `query Q($n: Int = 500) { chain(id: "43114") { blocks(first: $n) {
      edges @stream(initialCount: 1) { node { transactions(first: 1) { edges { node { hash } } } } } } } }`;
    for (const query of [deferred, streamed]) {
      const res = await gw.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query }),
      });
      expect(await res.text()).toContain('QUERY_TOO_COMPLEX');
      expect(sim.stats().total).toBe(0);
    }
  });

  it('a single value given for a list variable counts as a list of one (coerced, not refused)', () => {
    const q = parse(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`);
    expect(estimateCost(schema, q, undefined, { ids: blockId(0) }).cu).toBe(200);
    expect(estimateCost(schema, q, undefined, { ids: ids(3) }).cu).toBe(3 * 200);
  });
});

describe('the estimate is kept only under what cannot vary', () => {
  it('a first request without variables does not fix the price of a later {n: 500}', async () => {
    const q = BLOCKS('');
    const first = await gw.query(q);
    expect(first.errors).toBeUndefined();
    sim.reset();
    tooComplex(await gw.query(q, { n: 500 }));
    const nodes = `query($ids: [ID!]! = ["${blockId(0)}"]) { nodes(ids: $ids) { id } }`;
    await gw.query(nodes);
    sim.reset();
    tooComplex(await gw.query(nodes, { ids: ids(400) }));
  });
});

describe('every shape is priced at least at the calls it makes', () => {
  it('_entities of L1 validators: two look-ups each (mainnet, then Fuji)', async () => {
    const q = (n: number) =>
      `{ _entities(representations: ${literal(
        Array.from({ length: n }, (_, i) => ({
          __typename: 'L1Validator',
          validationId: `2${String(i).padStart(20, 'x')}`,
        })),
      )}) { __typename } }`;
    // Two look-ups of listL1Validators (Medium, 20 CU each) per representation.
    expect(estimateCost(schema, parse(q(290)), undefined, {}).cu).toBe(290 * 40);
    const r = await gw.query(q(3));
    const cost = (r.extensions as { cost: { estimatedCU: number } }).cost;
    expect(cost.estimatedCU).toBe(3 * 40);
    expect(sim.stats().total * 20).toBeLessThanOrEqual(cost.estimatedCU);
  });

  it("a P-Chain block's transactions are one call each", () => {
    const one = estimateCost(
      schema,
      parse(`{ node(id: "x") { ... on PChainBlock { blockHeight } } }`),
      undefined,
      {},
    ).cu;
    const withTxs = estimateCost(
      schema,
      parse(`{ node(id: "x") { ... on PChainBlock { transactions { txHash } } } }`),
      undefined,
      {},
    ).cu;
    // One look-up by hash (getTxByHash, Medium: 20 CU) for each of the assumed 10 transactions.
    expect(withTxs - one).toBeGreaterThanOrEqual(10 * 20);
  });

  it('an admin mutation with a non-null payload is not free', () => {
    const q = parse(`mutation { nodeAdminStartCpuProfiler { success } }`);
    expect(estimateCost(schema, q, undefined, {}).cu).toBeGreaterThanOrEqual(1);
  });
});

describe('every answer reports its cost', () => {
  it('each part of a @defer answer carries extensions.cost', async () => {
    const res = await gw.yoga.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({
        query: `{ chain(id: "43114") { chainId ... @defer { blocks(first: 2) { edges { node { number } } } } } }`,
      }),
    });
    const parts = (await res.text())
      .split(/\r\n---/)
      .map((c) => c.slice(c.indexOf('\r\n\r\n') + 4).trim())
      .filter((b) => b.startsWith('{'))
      .map((b) => JSON.parse(b) as { extensions?: { cost?: { estimatedCU: number } } });
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const p of parts) expect(p.extensions?.cost?.estimatedCU).toBe(1 + 10);
  });
});
