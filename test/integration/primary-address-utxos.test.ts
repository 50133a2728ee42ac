import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { quietAddress } from '@avalanche-gateway/simulator/world/subnets.js';
import { describe, expect, it } from 'vitest';
import type { CachePolicy } from '../../src/cache/policy.js';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  globalId,
  iso,
  orNull,
  type Query,
  routeCalls,
  settle,
  upstreamGet,
} from './primary-support.js';

/**
 * Network.utxos (getUtxosByAddresses, and getUtxosByAddressesV2 when the addresses do not fit a
 * URL), Network.lastActivity (GET and V2 POST), Network.addressChainIds and Network.avaxSupply,
 * against the simulator's own answers. The simulator refuses parameters the spec does not declare,
 * so every filter here reaches it under its spec name and format or the walk fails.
 */
const UTXOS_GET = 'data-api GET /v1/networks/:network/blockchains/:blockchainId/utxos';
const UTXOS_POST = 'data-api POST /v1/networks/:network/blockchains/:blockchainId/utxos';
const ACTIVITY_GET =
  'data-api GET /v1/networks/:network/blockchains/:blockchainId/lastActivityTimestampByAddresses';
const ACTIVITY_POST =
  'data-api POST /v1/networks/:network/blockchains/:blockchainId/lastActivityTimestampByAddresses';

let sim: RunningSimulator;
let gw: TestGateway;
/**
 * The world does not move in these tests, so head-class answers (UTXO pages, activity) are kept
 * fresh for a minute here: exact call counts must not depend on how long a loaded machine takes
 * between two pages (their 2 s life and its expiry are the cache suites' subject, not this file's).
 */
const steadyHead = (p: CachePolicy): CachePolicy => ({
  ...p,
  ttlFor: (resource, opts) =>
    p.classOf(resource) === 'head'
      ? { ...p.ttlFor(resource, opts), ttlMs: 60_000 }
      : p.ttlFor(resource, opts),
});
useSimAndGateway({ redis: true, gateway: { wrapPolicy: steadyHead } }, (s, g) => {
  sim = s;
  gw = g;
});

async function upstream(
  method: 'GET' | 'POST',
  path: string,
  query: Query,
  addresses: string[],
): Promise<any> {
  if (method === 'GET')
    return upstreamGet(sim.dataApiUrl, path, { ...query, addresses: addresses.join(',') });
  const u = new URL(sim.dataApiUrl + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  const res = await fetch(u, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ addresses: addresses.join(',') }),
  });
  if (res.status !== 200) throw new Error(`sim POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Every UTXO of the upstream list, following its tokens (the reference the gateway walk is compared
 * with).
 */
async function upstreamUtxos(
  method: 'GET' | 'POST',
  chain: string,
  addresses: string[],
  query: Query,
  pageSize: number,
): Promise<any[]> {
  const out: any[] = [];
  let pageToken: string | undefined;
  do {
    const page = await upstream(
      method,
      `/v1/networks/mainnet/blockchains/${chain}/utxos`,
      { ...query, pageSize, pageToken },
      addresses,
    );
    out.push(...page.utxos);
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return out;
}

const UTXO_FIELDS = `__typename
  ... on PChainUtxo { utxoId txHash amount blockNumber consumingTxHash utxoType staked }
  ... on PrimaryNetworkUtxo {
    utxoId creationTxHash outputIndex timestamp timestampIso locktime
    asset { assetId amount } createdOnChainId
  }`;
const utxoOf = (u: any) =>
  'creationTxHash' in u
    ? {
        __typename: 'PrimaryNetworkUtxo',
        utxoId: u.utxoId,
        creationTxHash: u.creationTxHash,
        outputIndex: u.outputIndex,
        timestamp: u.timestamp,
        timestampIso: iso(u.timestamp),
        locktime: u.locktime,
        asset: { assetId: u.asset.assetId, amount: u.asset.amount },
        createdOnChainId: u.createdOnChainId,
      }
    : {
        __typename: 'PChainUtxo',
        utxoId: u.utxoId,
        txHash: u.txHash,
        amount: u.amount,
        blockNumber: u.blockNumber,
        consumingTxHash: orNull(u.consumingTxHash),
        utxoType: u.utxoType,
        staked: orNull(u.staked),
      };

const UTXOS = `query($chain: PrimaryChain!, $addrs: [String!]!, $first: Int, $after: String,
  $assetId: String, $min: String, $spent: Boolean, $sortBy: UtxoSortBy, $order: SortOrder) {
  network(name: "mainnet") { utxos(blockchain: $chain, addresses: $addrs, first: $first,
  after: $after, assetId: $assetId, minUtxoAmount: $min, includeSpent: $spent, sortBy: $sortBy,
  sortOrder: $order) {
  edges { node { ${UTXO_FIELDS} } } pageInfo { hasNextPage endCursor } } } }`;

async function gatewayUtxos(vars: Record<string, unknown>, first: number): Promise<any[]> {
  const nodes: any[] = [];
  let after: string | null = null;
  for (let n = 0; n < 100; n++) {
    const r = await gw.query(UTXOS, { ...vars, first, after });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const c = r.data!.network.utxos;
    nodes.push(...c.edges.map((e: any) => e.node));
    if (!c.pageInfo.hasNextPage) return nodes;
    after = c.pageInfo.endCursor;
  }
  throw new Error('did not end');
}

describe('Network.utxos', () => {
  it('walks P-Chain UTXOs of 30 addresses, every filter: the upstream sequence', async () => {
    const addrs = sim.world.primary.mainnet.pAddresses.slice(0, 30);
    const query = {
      includeSpent: true,
      sortBy: 'amount',
      sortOrder: 'desc',
      minUtxoAmount: '1000',
    };
    const expected = await upstreamUtxos('GET', 'p-chain', [...addrs].sort(), query, 100);
    expect(expected.length).toBeGreaterThan(200);
    expect(expected.some((u) => u.consumingTxHash)).toBe(true);
    sim.reset();
    const got = await gatewayUtxos(
      {
        chain: 'P_CHAIN',
        addrs: addrs.map((a) => `P-${a}`),
        spent: true,
        sortBy: 'AMOUNT',
        order: 'DESC',
        min: '1000',
      },
      70,
    );
    expect(got).toEqual(expected.map(utxoOf));
    expect(routeCalls(sim)).toEqual({ [UTXOS_GET]: Math.ceil(expected.length / 100) });
    // Without includeSpent the spent ones are gone (the filter reached the upstream).
    const unspent = await gatewayUtxos(
      { chain: 'P_CHAIN', addrs, sortBy: 'AMOUNT', order: 'DESC', min: '1000' },
      500,
    );
    expect(unspent).toEqual(expected.filter((u) => !u.consumingTxHash).map(utxoOf));
  });

  it('walks X-Chain UTXOs of one asset, equal to the upstream', async () => {
    const x = sim.world.primary.mainnet.xChain;
    const addrs = x.addresses.slice(0, 40);
    const assetId = x.utxosByAddress.get(addrs[0]!)![0]!.assetId;
    const expected = await upstreamUtxos(
      'GET',
      'x-chain',
      [...addrs].sort(),
      { assetId, sortOrder: 'asc' },
      100,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(expected.map((u) => u.asset.assetId))).toEqual(new Set([assetId]));
    const got = await gatewayUtxos(
      { chain: 'X_CHAIN', addrs: addrs.map((a) => `X-${a}`), assetId, order: 'ASC' },
      30,
    );
    expect(got).toEqual(expected.map(utxoOf));
  });

  it('sends 200 addresses (too long for a URL) by the V2 POST, cached by body', async () => {
    const addrs = sim.world.primary.mainnet.pAddresses.slice(0, 200);
    const expected = await upstreamUtxos(
      'POST',
      'p-chain',
      [...addrs].sort(),
      { includeSpent: true },
      1024,
    );
    expect(expected.length).toBeGreaterThan(1024); // several upstream pages
    sim.reset();
    const vars = { chain: 'P_CHAIN', addrs, spent: true };
    const cold = await gatewayUtxos(vars, 500);
    expect(cold).toEqual(expected.map(utxoOf));
    expect(routeCalls(sim)).toEqual({ [UTXOS_POST]: Math.ceil(expected.length / 1024) });
    await settle(gw);
    sim.reset();
    expect(await gatewayUtxos(vars, 500)).toEqual(cold);
    expect(routeCalls(sim)).toEqual({});
    // Another body (one address fewer) is another question.
    await gw.query(UTXOS, { ...vars, addrs: addrs.slice(1), first: 1 });
    expect(routeCalls(sim)).toEqual({ [UTXOS_POST]: 1 });
  });

  it('refuses bad filter values before any upstream call', async () => {
    const a = sim.world.primary.mainnet.pAddresses[0]!;
    const fujiAddr = sim.world.primary.fuji.pAddresses[0]!;
    const run = (vars: Record<string, unknown>) =>
      gw.query(UTXOS, { chain: 'P_CHAIN', addrs: [a], first: 5, ...vars });
    expectBadInput(await run({ addrs: ['avax1notanaddress'] }), 'addresses');
    expectBadInput(
      await run({ addrs: [`${a.slice(0, -1)}${a.endsWith('q') ? 'p' : 'q'}`] }),
      'addresses',
    ); // checksum
    expectBadInput(await run({ addrs: [fujiAddr] }), 'addresses'); // another network's address
    expectBadInput(
      await run({ addrs: ['0x1234567890123456789012345678901234567890'] }),
      'addresses',
    );
    expectBadInput(await run({ addrs: [] }), 'addresses');
    expectBadInput(await run({ addrs: Array.from({ length: 257 }, () => a) }), 'addresses');
    expectBadInput(await run({ min: '-1' }), 'minUtxoAmount');
    expectBadInput(await run({ min: '1.5' }), 'minUtxoAmount');
    // assetId is for the X-Chain only
    expectBadInput(await run({ assetId: sim.world.networks.mainnet.avaxAssetId }), 'assetId');
    expectBadInput(await run({ chain: 'X_CHAIN', assetId: 'nope' }), 'assetId');
    expectBadInput(await run({ after: 'garbage' }), 'after');
    // An unknown blockchain: a variable of the wrong type.
    expect(codes(await run({ chain: 'Q_CHAIN' }))).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await gw.query(
          `{ network(name: "mainnet") { utxos(blockchain: p_chain, addresses: ["${a}"]) { edges {
            cursor } } } }`,
        ),
      ),
    ).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(routeCalls(sim)).toEqual({});
  });
});

describe('Network.lastActivity, addressChainIds and avaxSupply', () => {
  it('last activity: GET for a few, V2 POST for many, as upstream; null for none', async () => {
    const few = sim.world.primary.mainnet.pAddresses.slice(0, 3);
    const many = sim.world.primary.mainnet.pAddresses.slice(0, 150);
    const path = '/v1/networks/mainnet/blockchains/p-chain/lastActivityTimestampByAddresses';
    const q = `query($a: [String!]!, $c: PrimaryChain!) { network(name: "mainnet") {
      lastActivity(blockchain: $c, addresses: $a) {
      timestamp timestampIso blockNumber txHash utxoId isConsumed chain } } }`;
    const of = (x: any) => ({
      timestamp: x.timestamp,
      timestampIso: iso(x.timestamp),
      blockNumber: x.blockNumber,
      txHash: x.txHash,
      utxoId: x.utxoId,
      isConsumed: x.isConsumed,
      chain: 'P_CHAIN',
    });
    const e1 = await upstream('GET', path, {}, [...few].sort());
    const e2 = await upstream('POST', path, {}, [...many].sort());
    sim.reset();
    expect((await gw.query(q, { a: few, c: 'P_CHAIN' })).data!.network.lastActivity).toEqual(
      of(e1),
    );
    expect((await gw.query(q, { a: many, c: 'P_CHAIN' })).data!.network.lastActivity).toEqual(
      of(e2),
    );
    expect(routeCalls(sim)).toEqual({ [ACTIVITY_GET]: 1, [ACTIVITY_POST]: 1 });
    const quiet = await gw.query(q, { a: [quietAddress('avax', 'nobody-at-all')], c: 'X_CHAIN' });
    expect(quiet.errors).toBeUndefined();
    expect(quiet.data!.network.lastActivity).toBeNull();
    sim.reset();
    expectBadInput(await gw.query(q, { a: ['X-fuji1abc'], c: 'X_CHAIN' }), 'addresses');
    expect(routeCalls(sim)).toEqual({});
  });

  it('chain ids of addresses, equal to upstream', async () => {
    const n = sim.world.primary.mainnet;
    const addrs = [n.pAddresses[0]!, n.xChain.addresses[5]!, quietAddress('avax', 'nobody')];
    const expected = await upstreamGet(
      sim.dataApiUrl,
      '/v1/networks/mainnet/addresses:listChainIds',
      { addresses: [...addrs].sort().join(',') },
    );
    const chainName: Record<string, string> = {
      [n.info.pChainId]: 'P_CHAIN',
      [n.info.xChainId]: 'X_CHAIN',
      [n.info.cChainId]: 'C_CHAIN',
    };
    const r = await gw.query(
      `query($a: [String!]!) { network(name: "mainnet") { addressChainIds(addresses: $a) { address
        blockchainIds chains } } }`,
      { a: addrs },
    );
    expect(r.data!.network.addressChainIds).toEqual(
      expected.addresses.map((x: any) => ({
        ...x,
        chains: x.blockchainIds.map((id: string) => chainName[id]),
      })),
    );
    expect(r.data!.network.addressChainIds.some((x: any) => x.blockchainIds.length >= 2)).toBe(
      true,
    );
  });

  it('the AVAX supply on mainnet (a node), NOT_FOUND on fuji; cached: 0 calls warm', async () => {
    const expected = await upstreamGet(sim.dataApiUrl, '/v1/avax/supply');
    sim.reset();
    const q = `{ network(name: "mainnet") { avaxSupply { id circulatingSupply totalSupply
      totalPBurned totalCBurned totalXBurned totalStaked
      totalLocked totalRewards genesisUnlock l1ValidatorFees lastUpdated } } }`;
    const r = await gw.query(q);
    expect(r.data!.network.avaxSupply).toEqual({
      id: globalId('AvaxSupply', 'mainnet'),
      ...expected,
    });
    await settle(gw);
    expect(
      (
        await gw.query(`query($id: ID!) { node(id: $id) { ... on AvaxSupply { totalStaked } } }`, {
          id: globalId('AvaxSupply', 'mainnet'),
        })
      ).data!.node,
    ).toEqual({ totalStaked: expected.totalStaked });
    expect(routeCalls(sim)).toEqual({ 'data-api GET /v1/avax/supply': 1 });
    expect(
      codes(await gw.query('{ network(name: "fuji") { avaxSupply { totalSupply } } }')),
    ).toEqual(['NOT_FOUND']);
    expect(routeCalls(sim)).toEqual({ 'data-api GET /v1/avax/supply': 1 });
  });
});
