import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { getIntrospectionQuery, Kind, parse, print, type TypeNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildPersistedManifest } from '../../src/edge/persisted.js';
import { buildSchema } from '../../src/schema/index.js';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';

/**
 * Issue 12, item 2 (in compute units since issue 33): a query is priced before it runs, reported in `extensions.cost`,
 * and refused over MAX_QUERY_COST with 0 upstream calls; every operation the project ships still passes.
 */
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const times = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join(' ');
const FAN_OUTS: Record<string, string> = {
  'aliases of block': `{ ${times(1000, (i) => `a${i}: block(chainId: "43114", id: "${70_000_000 - i}") { number }`)} }`,
  '_entities with 1000 blocks': `{ _entities(representations: [${times(1000, (i) => `{__typename: "Block", chainId: "43114", number: "${70_000_000 - i}"},`)}]) { __typename } }`,
  'blocks × transactions': `{ chain(id: "43114") { blocks(first: 500) { edges { node { transactions(first: 1) { edges { node { hash } } } } } } } }`,
  'chains × blocks × transactions': `{ chains { blocks(first: 500) { edges { node { transactions(first: 1) { edges { node { hash } } } } } } } }`,
};

describe('the four fan-outs of issue 12', () => {
  for (const [name, query] of Object.entries(FAN_OUTS)) {
    it(`${name}: refused as QUERY_TOO_COMPLEX with 0 upstream calls`, async () => {
      const r = await gw.query(query);
      expect(r.data ?? null).toBeNull();
      expect(r.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'QUERY_TOO_COMPLEX',
      });
      expect(sim.stats().total).toBe(0);
    });
  }

  it('with the document limits raised, the cost model alone refuses them, naming the estimate', async () => {
    const lax = createTestGateway(sim, { env: { MAX_TOKENS: '100000', MAX_ALIASES: '5000' } });
    for (const query of Object.values(FAN_OUTS)) {
      const r = await lax.query(query);
      expect(r.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'QUERY_TOO_COMPLEX',
        limit: 6_000,
      });
      expect(Number(r.errors?.[0]?.extensions?.cost)).toBeGreaterThan(6_000);
      expect((r.extensions as { cost: { estimatedCU: number } }).cost.estimatedCU).toBeGreaterThan(
        6_000,
      );
    }
    expect(sim.stats().total).toBe(0);
    await lax.close();
  });

  it('reports the estimate of an accepted query in extensions.cost, an upper bound of its calls', async () => {
    const r = await gw.query(
      `{ chain(id: "43114") { blocks(first: 3) { edges { node { number parent { number } } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const cost = (r.extensions as { cost: { estimatedCU: number; limit: number } }).cost;
    // CUs: the chain 1, one page of blocks 10, each block's parent 10.
    expect(cost).toMatchObject({ estimatedCU: 1 + 10 + 3 * 10, limit: 6_000 });
    expect(sim.stats().total).toBeLessThanOrEqual(cost.estimatedCU);
  });

  it('one document priced again for other variables: estimates are kept per document and variables', async () => {
    const q = `query($n: Int, $m: Int) { chain(id: "43114") { blocks(first: $n) { edges { node {
      transactions(first: $m) { edges { node { hash } } } } } } } }`;
    const costOf = async (variables: Record<string, number>) =>
      ((await gw.query(q, variables)).extensions as { cost: { estimatedCU: number } }).cost
        .estimatedCU;
    const two = await costOf({ n: 2, m: 1 });
    // Three more blocks, each with its transactions page (20 CU): 60 CU more.
    expect(await costOf({ n: 5, m: 1 })).toBe(two + 3 * 20);
    expect(await costOf({ n: 2, m: 1 })).toBe(two);
    const big = await gw.query(q, { n: 400, m: 1 });
    expect(big.errors?.[0]?.extensions).toMatchObject({ reason: 'QUERY_TOO_COMPLEX' });
  });

  it('estimates are keyed by the variables the price reads: other ids share one, a new first is priced anew', async () => {
    const q = `query($id: String!, $m: Int) { block(chainId: "43114", id: $id) { number
      transactions(first: $m) { edges { node { hash } } } } }`;
    const costOf = async (variables: Record<string, unknown>) =>
      ((await gw.query(q, variables)).extensions as { cost: { estimatedCU: number } }).cost
        .estimatedCU;
    const one = await costOf({ id: '1', m: 1 });
    expect(await costOf({ id: '2', m: 1 })).toBe(one);
    expect(await costOf({ id: '3', m: 1 })).toBe(one);
    // 150 transactions span two upstream pages of 100: one page (20 CU) more, whatever the id.
    expect(await costOf({ id: '3', m: 150 })).toBe(one + 20);
    expect(await costOf({ id: '4', m: 150 })).toBe(one + 20);
    // Absent and null are different values (a default may apply to one and not the other).
    expect(await costOf({ id: '4' })).toBe(await costOf({ id: '5', m: null }));
    expect(await costOf({ id: '5', m: 1 })).toBe(one);
  });
});

describe('every operation in schema/operations/ passes the limits', () => {
  const schema = buildSchema();
  /** A value for each required variable, by type (what it names need not exist: only the limits are under test). */
  const valueFor = (type: TypeNode, name: string): unknown => {
    if (type.kind === Kind.NON_NULL_TYPE) return valueFor(type.type, name);
    if (type.kind === Kind.LIST_TYPE) return [valueFor(type.type, name)];
    const t = schema.getType(type.name.value) as
      | { getValues?: () => { value: unknown }[] }
      | undefined;
    if (t?.getValues) return t.getValues()[0]!.value;
    if (type.name.value === 'Int') return 5;
    if (/address/i.test(name)) return `0x${'ab'.repeat(20)}`;
    if (/hash/i.test(name)) return `0x${'cd'.repeat(32)}`;
    if (/network/i.test(name)) return 'mainnet';
    return type.name.value === 'BigDecimal' ? '1' : '43114';
  };

  const documents = Object.values(buildPersistedManifest());
  it(`all ${documents.length} of them`, async () => {
    for (const text of documents) {
      const doc = parse(text);
      const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
      const variables: Record<string, unknown> = {};
      for (const v of op.kind === Kind.OPERATION_DEFINITION ? (op.variableDefinitions ?? []) : []) {
        if (v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue)
          variables[v.variable.name.value] = valueFor(v.type, v.variable.name.value);
      }
      const r = await gw.query(print(doc), variables);
      const refused = (r.errors ?? []).filter(
        (e) =>
          e.extensions?.reason === 'QUERY_TOO_COMPLEX' || e.extensions?.code === 'RATE_LIMITED',
      );
      expect(
        refused,
        `${op.kind === Kind.OPERATION_DEFINITION ? op.name?.value : ''}: ${JSON.stringify(refused)}`,
      ).toEqual([]);
      expect(codes(r).every((c) => typeof c === 'string' && c !== 'INTERNAL')).toBe(true);
    }
  }, 120_000);

  it('and the standard introspection query (GraphiQL, codegen, routers) passes too, outside production', async () => {
    const r = await gw.query(
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }),
    );
    expect(r.errors).toBeUndefined();
    expect((r.data as { __schema: { types: unknown[] } }).__schema.types.length).toBeGreaterThan(
      100,
    );
  });
});

describe('introspection is inside the limits', () => {
  it('1000 aliases of __schema { types { name fields { name args { name } } } } are refused quickly, RSS growing less than 50 MB', async () => {
    const lax = createTestGateway(sim, { env: { MAX_TOKENS: '100000', MAX_ALIASES: '5000' } });
    const bomb = `{ ${times(1000, (i) => `s${i}: __schema { types { name fields { name args { name } } } }`)} }`;
    for (const g of [gw, lax]) {
      global.gc?.();
      const rss = process.memoryUsage().rss;
      const started = performance.now();
      const r = await g.query(bomb);
      const ms = performance.now() - started;
      expect(r.data ?? null).toBeNull();
      expect(r.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'QUERY_TOO_COMPLEX',
      });
      expect(ms).toBeLessThan(1_000);
      expect(process.memoryUsage().rss - rss).toBeLessThan(50 * 1024 * 1024);
    }
    await lax.close();
  });

  it('ofType nested 200 deep is refused, and 3000-level nesting is a coded error, not a stack overflow', async () => {
    const ofType = await gw.query(
      `{ __type(name: "Block") { ${'ofType { '.repeat(200)} name ${'} '.repeat(200)} } }`,
    );
    expect(ofType.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'QUERY_TOO_COMPLEX',
    });
    const ofType25 = await gw.query(
      `{ __type(name: "Block") { ${'ofType { '.repeat(25)} name ${'} '.repeat(25)} } }`,
    );
    expect(ofType25.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'QUERY_TOO_COMPLEX',
      limit: 'depth',
    });
    for (const depth of [3000, 1500, 30_000]) {
      const r = await gw.query(
        `{ ${'block(chainId: "43114", id: "1") { parent { '.repeat(1)}${'parent { '.repeat(depth)} number ${'} '.repeat(depth + 2)} }`,
      );
      expect(r.errors?.[0]?.extensions, String(depth)).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'QUERY_TOO_COMPLEX',
      });
    }
    expect(sim.stats().total).toBe(0);
  });
});
