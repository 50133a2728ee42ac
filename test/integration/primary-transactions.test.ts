import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/edge/cost.js';
import { buildSchema } from '../../src/schema/index.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { expectBadInput, routeCalls, upstreamGet, upstreamWalk, walk } from './primary-support.js';

/** Network.transactions / Network.transaction (listLatestPrimaryNetworkTransactions, getTxByHash). */
const LIST_PATH = '/v1/networks/mainnet/blockchains/p-chain/transactions';

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const LIST = `query($first: Int, $after: String, $chain: PrimaryChain!, $addresses: [String!], $txTypes: [PrimaryNetworkTxType!],
  $start: Int, $end: Int, $order: SortOrder) {
  network(name: "mainnet") {
    transactions(blockchain: $chain, first: $first, after: $after, addresses: $addresses, txTypes: $txTypes,
      startTimestamp: $start, endTimestamp: $end, sortOrder: $order) {
      chainInfo { chainName network }
      pageInfo { hasNextPage endCursor }
      edges { node { __typename ... on StakingTransaction { txHash txType blockTimestamp blockNumber } } }
    }
  }
}`;

const page = (vars: Record<string, unknown>) => async (after: string | null) => {
  const r = await gw.query(LIST, { chain: 'P_CHAIN', after, ...vars });
  expect(r.errors).toBeUndefined();
  return r.data!.network.transactions;
};
const shape = (t: any) => ({
  txHash: t.txHash,
  txType: t.txType,
  blockTimestamp: t.blockTimestamp,
  blockNumber: t.blockNumber,
});

describe('Network.transactions (P-Chain)', () => {
  it('walks several upstream pages, equal to walking the simulator directly', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, LIST_PATH, 'transactions');
    expect(expected.length).toBeGreaterThan(200);
    sim.reset();
    const edges = await walk(page({ first: 70 }));
    expect(edges.map((e: any) => e.node.__typename)).toEqual(
      expected.map(() => 'StakingTransaction'),
    );
    expect(edges.map((e: any) => shape(e.node))).toEqual(expected.map(shape));
    // Pages of 100 upstream, read once each: ⌈n / 100⌉ calls.
    expect(
      sim.stats().byRoute[
        `data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions`
      ],
    ).toBe(Math.ceil(expected.length / 100));
    // Warm: the same walk costs no upstream call.
    sim.reset();
    const again = await walk(page({ first: 70 }));
    expect(again.length).toBe(edges.length);
    expect(sim.stats().total).toBe(0);
  });

  it('passes every filter through as the spec names it (txTypes repeated, oldest first)', async () => {
    const owner = sim.world.fixtures.pChainAddress;
    const query = {
      addresses: owner,
      txTypes: ['AddPermissionlessDelegatorTx', 'AddDelegatorTx'],
      sortOrder: 'asc',
    };
    const expected = await upstreamWalk(sim.dataApiUrl, LIST_PATH, 'transactions', query);
    expect(expected.length).toBeGreaterThan(0);
    sim.reset();
    const vars = {
      first: 50,
      addresses: [`P-${owner}`],
      txTypes: ['AddPermissionlessDelegatorTx', 'AddDelegatorTx'],
      order: 'ASC',
    };
    const edges = await walk(page(vars));
    expect(edges.map((e: any) => shape(e.node))).toEqual(expected.map(shape));
    const first = await upstreamGet(sim.dataApiUrl, LIST_PATH, { pageSize: 100 });
    const mid = first.transactions[50].blockTimestamp as number;
    const bounded = await upstreamWalk(sim.dataApiUrl, LIST_PATH, 'transactions', {
      startTimestamp: mid,
      endTimestamp: mid + 86_400,
    });
    sim.reset();
    const got = await walk(page({ first: 100, start: mid, end: mid + 86_400 }));
    expect(got.map((e: any) => shape(e.node))).toEqual(bounded.map(shape));
  });

  it('refuses bad input before any upstream call', async () => {
    sim.reset();
    expectBadInput(
      await gw.query(LIST, { chain: 'P_CHAIN', first: 5, start: -1 }),
      'startTimestamp',
    );
    expectBadInput(
      await gw.query(LIST, { chain: 'P_CHAIN', first: 5, start: 20, end: 10 }),
      'endTimestamp',
    );
    expectBadInput(
      await gw.query(LIST, { chain: 'P_CHAIN', first: 5, addresses: ['avax1nope'] }),
      'addresses',
    );
    // The X-Chain is served (primary-atomic-transactions.test.ts): its bad filters are refused the same way.
    expectBadInput(
      await gw.query(LIST, { chain: 'X_CHAIN', first: 5, start: 20, end: 10 }),
      'endTimestamp',
    );
    const unknownType = await gw.query(LIST, { chain: 'P_CHAIN', first: 5, txTypes: ['MintTx'] });
    expect(unknownType.errors?.length).toBe(1);
    const unknownChain = await gw.query(LIST, { chain: 'Q_CHAIN', first: 5 });
    expect(unknownChain.errors?.length).toBe(1);
    expect(routeCalls(sim)).toEqual({});
  });

  it('is priced by the cost model: 100 CU per upstream page of 100', () => {
    const doc = parse(
      '{ network(name: "mainnet") { transactions(blockchain: P_CHAIN, first: 250) { edges { node { __typename } } } } }',
    );
    expect(estimateCost(buildSchema(), doc, null, {}).cu).toBe(3 * 100);
  });
});

const ONE = `query($chain: PrimaryChain!, $hash: String!) {
  network(name: "mainnet") { transaction(blockchain: $chain, txHash: $hash) {
    __typename ... on StakingTransaction { id txHash txType blockTimestamp blockNumber } } }
}`;

describe('Network.transaction (getTxByHash)', () => {
  it('answers a P-Chain transaction as the upstream does, then from cache', async () => {
    const tx = sim.world.primary.mainnet.stakingTxs[3]!;
    const expected = await upstreamGet(
      sim.dataApiUrl,
      `/v1/networks/mainnet/blockchains/p-chain/transactions/${tx.txHash}`,
    );
    sim.reset();
    const r = await gw.query(ONE, { chain: 'P_CHAIN', hash: tx.txHash });
    expect(r.errors).toBeUndefined();
    expect(r.data!.network.transaction).toMatchObject({
      __typename: 'StakingTransaction',
      ...shape(expected),
    });
    expect(sim.stats().total).toBe(1);
    sim.reset();
    await gw.query(ONE, { chain: 'P_CHAIN', hash: tx.txHash });
    expect(sim.stats().total).toBe(0);
  });

  it('refuses a malformed hash with 0 upstream calls; a hash of another chain is NOT_FOUND there', async () => {
    sim.reset();
    expectBadInput(await gw.query(ONE, { chain: 'P_CHAIN', hash: 'not-a-hash' }), 'txHash');
    expect(routeCalls(sim)).toEqual({});
    const elsewhere = await gw.query(ONE, {
      chain: 'C_CHAIN',
      hash: sim.world.primary.mainnet.stakingTxs[0]!.txHash,
    });
    expect(elsewhere.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(elsewhere.data?.network.transaction).toBeNull();
  });
});
