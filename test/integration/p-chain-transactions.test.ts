import { parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { createTestGateway, type TestGateway } from '../support/gateway.js';
import { flushRedisDb, redisDb, startTestSimulator } from '../support/sim.js';
import { expectBadInput, routeCalls, settle, upstreamWalk, walk, type Query } from './primary-support.js';

/** Network.pChainTransactions (listLatestPrimaryNetworkTransactions, P-Chain) against the simulator's own answers. */
const ROUTE = 'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions';
const PATH = '/v1/networks/mainnet/blockchains/p-chain/transactions';

const LIST = parse(`
  query PChainTxs($first: Int, $after: String, $addresses: [String!], $l1ValidationId: String,
      $txTypes: [PrimaryNetworkTxType!], $startTimestamp: Int, $endTimestamp: Int, $sortOrder: SortOrder) {
    network(name: "mainnet") {
      pChainTransactions(first: $first, after: $after, addresses: $addresses, l1ValidationId: $l1ValidationId,
          txTypes: $txTypes, startTimestamp: $startTimestamp, endTimestamp: $endTimestamp, sortOrder: $sortOrder) {
        edges { node { txHash txType blockTimestamp nodeId } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }`) as any;

const WITH_VALIDATORS = parse(`
  query PChainTxValidators($first: Int, $sortOrder: SortOrder) {
    network(name: "mainnet") {
      pChainTransactions(first: $first, sortOrder: $sortOrder) { edges { node { txHash nodeId validator { nodeId txHash } } } }
    }
  }`) as any;

let sim: RunningSimulator;
let gw: TestGateway;
let owner: string;
const redisUrl = redisDb(inject('redisUrl'), 73);

beforeAll(async () => {
  sim = await startTestSimulator();
  owner = sim.world.fixtures.pChainAddress;
  await flushRedisDb(redisUrl);
  gw = createTestGateway(sim, { redisUrl });
  await gw.ready();
});
afterAll(async () => {
  await gw.close();
  await sim.close();
});
beforeEach(() => sim.reset());

const shape = (t: any) => ({ txHash: t.txHash, txType: t.txType, blockTimestamp: t.blockTimestamp, nodeId: t.nodeId ?? null });

async function gatewayWalk(vars: Record<string, unknown>, first: number) {
  const edges = await walk(async (after) => {
    const r = await gw.exec(LIST, { first, after, ...vars });
    expect(r.errors).toBeUndefined();
    return (r.data as any).network.pChainTransactions;
  });
  return edges.map((e: any) => e.node);
}

describe('Network.pChainTransactions', () => {
  it('walks several upstream pages in exactly the upstream’s own sequence', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, PATH, 'transactions');
    expect(expected.length).toBeGreaterThan(250);
    sim.reset();
    const got = await gatewayWalk({}, 70);
    expect(got).toEqual(expected.map(shape));
    expect(routeCalls(sim)[ROUTE]).toBe(Math.ceil(expected.length / 100));
  });

  const cases: [string, Record<string, unknown>, () => Query][] = [
    ['addresses', { addresses: [] }, () => ({ addresses: owner })],
    ['txTypes (repeated)', { txTypes: ['AddPermissionlessDelegatorTx', 'AddValidatorTx'] },
      () => ({ txTypes: ['AddPermissionlessDelegatorTx', 'AddValidatorTx'] })],
    ['time range ascending', { startTimestamp: 0, endTimestamp: 0, sortOrder: 'ASC' }, () => ({})],
    ['l1ValidationId', { l1ValidationId: '11111111111111111111111111111111LpoYY' },
      () => ({ l1ValidationId: '11111111111111111111111111111111LpoYY' })],
  ];
  for (const [name, vars, query] of cases) {
    it(`passes ${name} as the spec names and serialises it, with the upstream’s answer`, async () => {
      const all = await upstreamWalk(sim.dataApiUrl, PATH, 'transactions', { sortOrder: 'asc' });
      const mid = all[Math.floor(all.length / 3)]!.blockTimestamp;
      const hi = all[Math.floor((2 * all.length) / 3)]!.blockTimestamp;
      let v = { ...vars };
      let q = query();
      if ('addresses' in v) v = { addresses: [`P-${owner}`] };
      if ('startTimestamp' in v) {
        v = { ...v, startTimestamp: mid, endTimestamp: hi };
        q = { startTimestamp: mid, endTimestamp: hi, sortOrder: 'asc' };
      }
      const expected = await upstreamWalk(sim.dataApiUrl, PATH, 'transactions', q);
      sim.reset();
      const got = await gatewayWalk(v, 40);
      expect(got).toEqual(expected.map(shape));
      if (name !== 'l1ValidationId') expect(got.length).toBeGreaterThan(0);
      expect(routeCalls(sim)[ROUTE]).toBe(Math.max(1, Math.ceil(expected.length / 100)));
    });
  }

  const bad: [string, Record<string, unknown>][] = [
    ['addresses', { addresses: ['avax1notanaddress'] }],
    ['addresses', { addresses: ['0x0000000000000000000000000000000000000000'] }],
    ['l1ValidationId', { l1ValidationId: 'not-cb58!' }],
    ['startTimestamp', { startTimestamp: -1 }],
    ['endTimestamp', { startTimestamp: 200, endTimestamp: 100 }],
  ];
  for (const [arg, vars] of bad) {
    it(`refuses a bad ${arg} (${JSON.stringify(vars)}) before any upstream call`, async () => {
      const r = await gw.exec(LIST, { first: 5, ...vars });
      expectBadInput(r as any, arg);
      expect(routeCalls(sim)).toEqual({});
    });
  }

  it('refuses an unknown tx type and a broken cursor before any upstream call', async () => {
    const r1 = await gw.exec(LIST, { first: 5, txTypes: ['NotATx'] });
    expect(r1.errors?.length).toBeGreaterThan(0);
    const r2 = await gw.exec(LIST, { first: 5, after: 'garbage' });
    expect(r2.errors?.[0]?.extensions?.code).toBeDefined();
    expect(routeCalls(sim)).toEqual({});
  });

  it('20 transactions with their validators cost 1 + distinct validator pages cold, 0 warm', async () => {
    const r = await gw.exec(WITH_VALIDATORS, { first: 20, sortOrder: 'ASC' });
    expect(r.errors).toBeUndefined();
    const edges = (r.data as any).network.pChainTransactions.edges;
    expect(edges).toHaveLength(20);
    const nodes = new Set(edges.map((e: any) => e.node.nodeId));
    expect(nodes.size).toBeGreaterThan(1);
    // A list key no earlier test read: cold.
    const calls = routeCalls(sim);
    expect(calls[ROUTE]).toBe(1);
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    expect(total).toBe(1 + nodes.size);
    await settle();
    sim.reset();
    const warm = await gw.exec(WITH_VALIDATORS, { first: 20, sortOrder: 'ASC' });
    expect(warm.data).toEqual(r.data);
    expect(routeCalls(sim)).toEqual({});
  });
});
