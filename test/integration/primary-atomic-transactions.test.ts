import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  globalId,
  routeCalls,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/**
 * The X-Chain and C-Chain members of `PrimaryNetworkTransaction` (listLatestPrimaryNetworkTransactions,
 * getTxByHash) and an X-Chain asset's transactions (listAssetTransactions), against the simulator.
 */
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const X_PATH = '/v1/networks/mainnet/blockchains/x-chain/transactions';
const C_PATH = '/v1/networks/mainnet/blockchains/c-chain/transactions';

const LIST = `query($first: Int, $after: String, $chain: PrimaryChain!, $addresses: [String!],
  $txTypes: [PrimaryNetworkTxType!], $start: Int, $end: Int, $order: SortOrder, $l1: String) {
  network(name: "mainnet") {
    transactions(blockchain: $chain, first: $first, after: $after, addresses: $addresses, txTypes: $txTypes,
      startTimestamp: $start, endTimestamp: $end, sortOrder: $order, l1ValidationId: $l1) {
      chainInfo { chainName network }
      pageInfo { hasNextPage endCursor }
      edges { node {
        __typename
        ... on IndexedPrimaryTransaction { txHash timestamp }
        ... on IndexedXChainTransaction { txType chainFormat emittedUtxos { addresses } }
        ... on CChainIndexedAtomicTransaction { blockHeight blockHash }
      } }
    }
  }
}`;

const page = (vars: Record<string, unknown>) => async (after: string | null) => {
  const r = await gw.query(LIST, { after, ...vars });
  expect(r.errors).toBeUndefined();
  return r.data!.network.transactions;
};
const xTypename = (tx: any) =>
  'vertices' in tx ? 'XChainNonLinearTransaction' : 'XChainLinearTransaction';
const cTypename = (tx: any) =>
  'evmInputs' in tx ? 'CChainExportTransaction' : 'CChainImportTransaction';

describe('Network.transactions on the X-Chain and the C-Chain', () => {
  it('walks several upstream X-Chain pages, equal to walking the simulator directly', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, X_PATH, 'transactions');
    expect(expected.length).toBeGreaterThan(250);
    sim.reset();
    const edges = await walk(page({ chain: 'X_CHAIN', first: 90 }));
    expect(edges.map((e: any) => [e.node.__typename, e.node.txHash])).toEqual(
      expected.map((t) => [xTypename(t), t.txHash]),
    );
    // Both eras appear, and the gateway fetched each upstream page (100 items) once.
    expect(new Set(edges.map((e: any) => e.node.__typename)).size).toBe(2);
    expect(routeCalls(sim)).toEqual({
      'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions': Math.ceil(
        expected.length / 100,
      ),
    });
  });

  it('passes every filter as the route names it, and answers what the upstream answers', async () => {
    const all = await upstreamWalk(sim.dataApiUrl, X_PATH, 'transactions', { sortOrder: 'asc' });
    const owner = all[5].emittedUtxos[0].addresses[0] as string;
    const start = all[10].timestamp as number;
    const end = all[200].timestamp as number;
    const query = {
      addresses: `X-${owner}`,
      txTypes: ['BaseTx', 'ImportTx'],
      startTimestamp: start,
      endTimestamp: end,
      sortOrder: 'asc',
    };
    const expected = await upstreamWalk(sim.dataApiUrl, X_PATH, 'transactions', query);
    expect(expected.length).toBeGreaterThan(0);
    const edges = await walk(
      page({
        chain: 'X_CHAIN',
        first: 50,
        addresses: [`X-${owner}`],
        txTypes: ['ImportTx', 'BaseTx'],
        start,
        end,
        order: 'ASC',
      }),
    );
    expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((t) => t.txHash));
    for (const e of edges as any[]) {
      expect(['BaseTx', 'ImportTx']).toContain(e.node.txType);
      expect(e.node.timestamp).toBeGreaterThanOrEqual(start);
      expect(e.node.timestamp).toBeLessThanOrEqual(end);
      expect(e.node.emittedUtxos.flatMap((u: any) => u.addresses)).toContain(owner);
    }
    // The filter changes the answer: without it there are more.
    expect(all.length).toBeGreaterThan(expected.length);
  });

  it('lists C-Chain atomic exports and imports, each linked to its EVM block', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, C_PATH, 'transactions');
    sim.reset();
    const r = await gw.query(
      `{ network(name: "mainnet") { transactions(blockchain: C_CHAIN, first: 100) {
        chainInfo { chainName }
        edges { node { __typename ... on CChainIndexedAtomicTransaction { txHash blockHeight
          block { number hash }
          sourceChain destinationChain } } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const edges = r.data!.network.transactions.edges;
    expect(r.data!.network.transactions.chainInfo.chainName).toBe('C_CHAIN');
    expect(edges.map((e: any) => [e.node.__typename, e.node.txHash])).toEqual(
      expected.map((t) => [cTypename(t), t.txHash]),
    );
    expect(new Set(edges.map((e: any) => e.node.__typename)).size).toBe(2);
    for (const e of edges as any[]) {
      const block = sim.world.chain('43114')!.block(Number(e.node.blockHeight))!;
      expect(e.node.block).toEqual({ number: String(block.number), hash: block.hash });
    }
    // One list call, then one block call per distinct block (1 + distinct).
    const blocks = new Set(edges.map((e: any) => e.node.blockHeight)).size;
    expect(sim.stats().total).toBe(1 + blocks);
  });

  it('refuses bad filters before any upstream call', async () => {
    sim.reset();
    expectBadInput(
      await gw.query(LIST, {
        chain: 'X_CHAIN',
        first: 5,
        l1: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
      }),
      'l1ValidationId',
    );
    expectBadInput(
      await gw.query(LIST, { chain: 'C_CHAIN', first: 5, start: 30, end: 20 }),
      'endTimestamp',
    );
    expectBadInput(
      await gw.query(LIST, { chain: 'X_CHAIN', first: 5, addresses: ['X-avax1nope'] }),
      'addresses',
    );
    const unknownType = await gw.query(LIST, { chain: 'C_CHAIN', first: 5, txTypes: ['MintTx'] });
    expect(unknownType.errors?.length).toBe(1);
    expect(routeCalls(sim)).toEqual({});
  });
});

const ONE = `query($chain: PrimaryChain!, $hash: String!) {
  network(name: "mainnet") { transaction(blockchain: $chain, txHash: $hash) {
    __typename
    ... on IndexedPrimaryTransaction { txHash timestamp amountCreated { assetId amount } }
    ... on XChainLinearTransaction { id blockHeight blockHash }
    ... on XChainNonLinearTransaction { id vertices { vertexHash vertexHeight } }
    ... on CChainExportTransaction { id evmInputs { fromAddress account { address chainId } } }
    ... on CChainImportTransaction { id evmOutputs { toAddress account { address chainId } } }
  } }
}`;

describe('Network.transaction and node(id) on the X-Chain and the C-Chain', () => {
  it('answers each member as the upstream does, refetchable by its global id', async () => {
    const x = await upstreamWalk(sim.dataApiUrl, X_PATH, 'transactions');
    const c = (await upstreamGet(sim.dataApiUrl, C_PATH, { pageSize: 100 })).transactions;
    const picks: [string, any][] = [
      ['X_CHAIN', x[0]],
      ['X_CHAIN', x.at(-1)],
      ['C_CHAIN', c.find((t: any) => 'evmInputs' in t)],
      ['C_CHAIN', c.find((t: any) => 'evmOutputs' in t)],
    ];
    const seen = new Set<string>();
    for (const [chain, tx] of picks) {
      const r = await gw.query(ONE, { chain, hash: tx.txHash });
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      const got = r.data!.network.transaction;
      const typename = chain === 'X_CHAIN' ? xTypename(tx) : cTypename(tx);
      seen.add(typename);
      expect(got).toMatchObject({
        __typename: typename,
        txHash: tx.txHash,
        timestamp: tx.timestamp,
        amountCreated: tx.amountCreated.map((a: any) => ({ assetId: a.assetId, amount: a.amount })),
        id: globalId(typename, `mainnet:${tx.txHash}`),
      });
      if (typename === 'XChainLinearTransaction')
        expect(got).toMatchObject({ blockHeight: tx.blockHeight, blockHash: tx.blockHash });
      if (typename === 'XChainNonLinearTransaction')
        expect(got.vertices.map((v: any) => v.vertexHash)).toEqual(
          tx.vertices.map((v: any) => v.hash),
        );
      if (typename === 'CChainExportTransaction')
        expect(got.evmInputs[0].account).toEqual({
          address: tx.evmInputs[0].fromAddress.toLowerCase(),
          chainId: '43114',
        });
      if (typename === 'CChainImportTransaction')
        expect(got.evmOutputs[0].account).toEqual({
          address: tx.evmOutputs[0].toAddress.toLowerCase(),
          chainId: '43114',
        });
      const node = await gw.query(
        `query($id: ID!) { node(id: $id) { __typename ... on IndexedPrimaryTransaction { txHash } } }`,
        { id: got.id },
      );
      expect(node.errors).toBeUndefined();
      expect(node.data!.node).toEqual({ __typename: typename, txHash: tx.txHash });
    }
    expect(seen.size).toBe(4);
  });

  it('a global id naming the wrong member, or an unknown hash, is an error of its own', async () => {
    const x = (await upstreamGet(sim.dataApiUrl, X_PATH, { pageSize: 1 })).transactions[0];
    const wrong = await gw.query(`query($id: ID!) { node(id: $id) { id } }`, {
      id: globalId('XChainNonLinearTransaction', `mainnet:${x.txHash}`),
    });
    expect(wrong.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    const unknown = await gw.query(ONE, {
      chain: 'X_CHAIN',
      hash: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    });
    expect(unknown.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
  });
});

describe('XChainAssetDetails.transactions (listAssetTransactions)', () => {
  const ASSET = `query($asset: String!, $first: Int, $after: String, $txTypes: [PrimaryNetworkTxType!]) {
    network(name: "mainnet") { xChainAssetDetails(assetId: $asset) { symbol
      transactions(first: $first, after: $after, txTypes: $txTypes) {
        pageInfo { hasNextPage endCursor }
        edges { node { __typename ... on IndexedXChainTransaction { txHash txType amountCreated { assetId } } } }
      } } }
  }`;

  it('walks the asset’s transactions as the upstream pages them, with its filters', async () => {
    const x = sim.world.primary.mainnet.xChain;
    const asset = x.assets[1]!.assetId;
    const path = `/v1/networks/mainnet/blockchains/x-chain/assets/${asset}/transactions`;
    const expected = await upstreamWalk(sim.dataApiUrl, path, 'transactions', {
      txTypes: ['BaseTx'],
    });
    expect(expected.length).toBeGreaterThan(3);
    const edges = await walk(async (after) => {
      const r = await gw.query(ASSET, { asset, first: 3, after, txTypes: ['BaseTx'] });
      expect(r.errors).toBeUndefined();
      return r.data!.network.xChainAssetDetails.transactions;
    });
    expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((t) => t.txHash));
    for (const e of edges as any[]) {
      expect(e.node.txType).toBe('BaseTx');
      expect(e.node.amountCreated.map((a: any) => a.assetId)).toContain(asset);
    }
  });

  it('refuses a reversed time range before any upstream call', async () => {
    sim.reset();
    const r = await gw.query(
      `{ network(name: "mainnet") { xChainAssetDetails(assetId: "${sim.world.primary.mainnet.info.avaxAssetId}") {
        transactions(first: 2, startTimestamp: 50, endTimestamp: 40) { edges { cursor } } } } }`,
    );
    expect(r.errors?.map((e) => e.extensions?.code)).toContain('BAD_USER_INPUT');
    expect(routeCalls(sim)).toEqual({
      'data-api GET /v1/networks/:network/blockchains/:blockchainId/assets/:assetId': 1,
    });
  });
});
