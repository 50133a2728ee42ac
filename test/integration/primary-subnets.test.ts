import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { SIM_L1 } from '@avalanche-gateway/simulator/world/index.js';
import { describe, expect, it } from 'vitest';
import {
  AddressActivityDocument,
  AddressUtxosDocument,
  AvaxSupplyDocument,
  BlockchainsDocument,
  SubnetDetailDocument,
  SubnetsDocument,
} from '../__generated__/graphql.js';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  globalId,
  iso,
  orNull,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/**
 * Network.subnets / Network.blockchains / Network.subnet / Network.blockchain and the links between
 * them (Subnet.blockchains, Subnet.l1Validators, Blockchain.subnet, Blockchain.chain), against the
 * simulator's own answers: every walk equals the upstream's own sequence, filters pass as the spec
 * names them, bad ids are refused with no call, nested lists cost 1 + distinct cold and 0 warm.
 */
const SUBNETS = 'data-api GET /v1/networks/:network/subnets';
const SUBNET = 'data-api GET /v1/networks/:network/subnets/:subnetId';
const BLOCKCHAINS = 'data-api GET /v1/networks/:network/blockchains';
const BLOCKCHAIN = 'data-api GET /v1/networks/:network/blockchains/:blockchainId';

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const BLOCKCHAIN_FIELDS =
  'id network blockchainId name vmId subnetId createBlockNumber createBlockTimestamp ' +
  'createBlockTimestampIso evmChainId';
const blockchainOf = (b: any, network = 'mainnet') => ({
  id: globalId('Blockchain', `${network}:${b.blockchainId}`),
  network,
  blockchainId: b.blockchainId,
  name: b.blockchainName,
  vmId: b.vmId,
  subnetId: b.subnetId,
  createBlockNumber: b.createBlockNumber,
  createBlockTimestamp: b.createBlockTimestamp,
  createBlockTimestampIso: iso(b.createBlockTimestamp),
  evmChainId: b.evmChainId === undefined ? null : String(b.evmChainId),
});
const SUBNET_FIELDS = `id network subnetId isL1 createBlockIndex createBlockTimestamp ownership {
  addresses threshold locktime }
  l1ConversionTransactionHash l1ValidatorManager { blockchainId contractAddress } blockchains {
    ${BLOCKCHAIN_FIELDS} }`;
const subnetOf = (s: any, network = 'mainnet') => ({
  id: globalId('Subnet', `${network}:${s.subnetId}`),
  network,
  subnetId: s.subnetId,
  isL1: s.isL1,
  createBlockIndex: s.createBlockIndex,
  createBlockTimestamp: s.createBlockTimestamp,
  ownership: s.subnetOwnershipInfo,
  l1ConversionTransactionHash: orNull(s.l1ConversionTransactionHash),
  l1ValidatorManager: orNull(s.l1ValidatorManagerDetails),
  blockchains: s.blockchains.map((b: any) => blockchainOf(b, network)),
});

async function gql(query: string, variables?: Record<string, unknown>) {
  const r = await gw.query(query, variables);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as any;
}

describe('Network.subnets and Network.blockchains', () => {
  it('walks every subnet over several pages: the upstream sequence, both orders', async () => {
    for (const [order, sortOrder] of [
      [undefined, undefined],
      ['ASC', 'asc'],
    ] as const) {
      const expected = await upstreamWalk(
        sim.dataApiUrl,
        '/v1/networks/mainnet/subnets',
        'subnets',
        { sortOrder },
      );
      expect(expected.length).toBeGreaterThan(200); // three upstream pages of 100
      sim.reset();
      const got = await walk(
        async (after) =>
          (
            await gql(
              `query($after: String, $order: SortOrder) { network(name: "mainnet") { subnets(first:
                70, after: $after, sortOrder: $order) {
          edges { node { ${SUBNET_FIELDS} } } pageInfo { hasNextPage endCursor } } } }`,
              { after, order },
            )
          ).network.subnets,
      );
      expect(got.map((e: any) => e.node)).toEqual(expected.map((s) => subnetOf(s)));
      // Each upstream page read once (cursors re-read a cached page), at the route's fixed size.
      expect(routeCalls(sim)).toEqual({ [SUBNETS]: Math.ceil(expected.length / 100) });
    }
  });

  it('walk every blockchain, equal to the upstream sequence; fuji is its own list', async () => {
    for (const network of ['mainnet', 'fuji'] as const) {
      const expected = await upstreamWalk(
        sim.dataApiUrl,
        `/v1/networks/${network}/blockchains`,
        'blockchains',
        { sortOrder: 'asc' },
      );
      expect(expected.length).toBeGreaterThan(100);
      const got = await walk(
        async (after) =>
          (
            await gql(
              `query($after: String, $n: String!) { network(name: $n) { blockchains(first: 45,
                after: $after, sortOrder: ASC) {
          edges { node { ${BLOCKCHAIN_FIELDS} } } pageInfo { hasNextPage endCursor } } } }`,
              { after, n: network },
            )
          ).network.blockchains,
      );
      expect(got.map((e: any) => e.node)).toEqual(expected.map((b) => blockchainOf(b, network)));
    }
  });

  it('subnets+blockchains: 1 call; blockchains+subnet: 1 + distinct cold, 0 warm', async () => {
    const q1 = `{ network(name: "fuji") { subnets(first: 100) { edges { node { subnetId blockchains
      { blockchainId } } } } } }`;
    const withChains = await gql(q1);
    expect(withChains.network.subnets.edges.some((e: any) => e.node.blockchains.length > 1)).toBe(
      true,
    );
    expect(routeCalls(sim)).toEqual({ [SUBNETS]: 1 });

    sim.reset();
    const q2 = `{ network(name: "mainnet") { blockchains(first: 40) { edges { node { blockchainId
      subnetId
      subnet { subnetId isL1 blockchains { blockchainId } } } } } } }`;
    const raw = await gw.query(q2);
    const cold = raw.data as any;
    const edges = cold.network.blockchains.edges.map((e: any) => e.node);
    const distinct = new Set(edges.map((b: any) => b.subnetId)).size;
    expect(distinct).toBeGreaterThan(10);
    expect(routeCalls(sim)).toEqual({ [BLOCKCHAINS]: 1, [SUBNET]: distinct });
    // Priced before it ran as an upper bound (CUs): one page (listBlockchains) plus one subnet per
    // blockchain (getSubnetById), each Medium: 20.
    expect((raw.extensions as any).cost.estimatedCU).toBe(20 + 40 * 20);
    for (const b of edges) {
      expect(b.subnet.subnetId).toBe(b.subnetId);
      // Linked both ways.
      expect(b.subnet.blockchains.map((x: any) => x.blockchainId)).toContain(b.blockchainId);
    }
    await settle(gw);
    sim.reset();
    expect(await gql(q2)).toEqual(cold);
    expect(routeCalls(sim)).toEqual({});
  });

  it('links a blockchain to its EVM Chain by evmChainId, none without one', async () => {
    const mainnet = sim.world.networks.mainnet;
    const q = `query($id: String!) { network(name: "mainnet") { blockchain(blockchainId: $id) {
      name evmChainId chain { chainId name } } } }`;
    const c = await gql(q, { id: mainnet.cChainId });
    expect(c.network.blockchain).toEqual({
      name: 'C-Chain',
      evmChainId: '43114',
      chain: {
        chainId: '43114',
        name: (await upstreamGet(sim.dataApiUrl, '/v1/chains/43114')).chainName,
      },
    });
    const l1 = await gql(q, { id: SIM_L1.blockchainId });
    expect(l1.network.blockchain.chain.chainId).toBe(SIM_L1.chainId);
    const x = await gql(q, { id: mainnet.xChainId });
    expect(x.network.blockchain).toEqual({ name: 'X-Chain', evmChainId: null, chain: null });
  });

  it('one subnet by id, its blockchains and L1 validators, as upstream', async () => {
    const s = await upstreamGet(sim.dataApiUrl, `/v1/networks/mainnet/subnets/${SIM_L1.subnetId}`);
    const validators = await upstreamWalk(
      sim.dataApiUrl,
      '/v1/networks/mainnet/l1Validators',
      'validators',
      { subnetId: SIM_L1.subnetId, includeInactiveL1Validators: true },
    );
    expect(validators.length).toBeGreaterThan(30);
    sim.reset();
    const r = await gql(
      `query($id: String!) { network(name: "mainnet") { subnet(subnetId: $id) { ${SUBNET_FIELDS}
      l1Validators(first: 500, includeInactive: true) { edges { node { validationId subnetId } }
        pageInfo { hasNextPage } } } } }`,
      { id: SIM_L1.subnetId },
    );
    const { l1Validators, ...subnet } = r.network.subnet;
    expect(subnet).toEqual(subnetOf(s));
    expect(subnet.isL1).toBe(true);
    expect(l1Validators.edges.map((e: any) => e.node.validationId)).toEqual(
      validators.map((v) => v.validationId),
    );
    expect(new Set(l1Validators.edges.map((e: any) => e.node.subnetId))).toEqual(
      new Set([SIM_L1.subnetId]),
    );
    // The subnet may already be cached (an earlier test read it through Blockchain.subnet).
    const { [SUBNET]: subnetCalls = 0, ...rest } = routeCalls(sim);
    expect(subnetCalls).toBeLessThanOrEqual(1);
    expect(rest).toEqual({ 'data-api GET /v1/networks/:network/l1Validators': 1 });
  });

  it('refetches subnets and blockchains by Relay id and by federation key', async () => {
    const bid = sim.world.networks.fuji.xChainId;
    const subnetId = sim.world.networks.fuji.primarySubnetId;
    const r = await gql(
      `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Subnet { subnetId } ... on Blockchain {
        blockchainId name } } }`,
      { ids: [globalId('Subnet', `fuji:${subnetId}`), globalId('Blockchain', `fuji:${bid}`)] },
    );
    expect(r.nodes).toEqual([
      { id: globalId('Subnet', `fuji:${subnetId}`), subnetId },
      { id: globalId('Blockchain', `fuji:${bid}`), blockchainId: bid, name: 'X-Chain' },
    ]);
    const e = await gql(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Subnet { subnetId isL1 } ...
        on Blockchain { blockchainId } } }`,
      {
        r: [
          { __typename: 'Subnet', network: 'mainnet', subnetId: SIM_L1.subnetId },
          { __typename: 'Blockchain', network: 'testnet', blockchainId: bid },
        ],
      },
    );
    expect(e._entities).toEqual([{ subnetId: SIM_L1.subnetId, isL1: true }, { blockchainId: bid }]);
  });

  it('refuses malformed ids with 0 calls; an unknown well-formed id is NOT_FOUND', async () => {
    const bad = 'emqqb2fe16R7kJU1DzRE7akX6f3HMvQkSBnRA7thDC55X8Rhh'; // checksum broken
    expectBadInput(
      await gw.query(`{ network(name: "mainnet") { subnet(subnetId: "${bad}") { subnetId } } }`),
      'subnetId',
    );
    expectBadInput(
      await gw.query(`{ network(name: "mainnet") { subnet(subnetId: "not-an-id") { subnetId } } }`),
      'subnetId',
    );
    expectBadInput(
      await gw.query(
        `{ network(name: "mainnet") { blockchain(blockchainId: "p-chain") { name } } }`,
      ),
      'blockchainId',
    );
    expectBadInput(
      await gw.query(
        `{ network(name: "mainnet") { blockchain(blockchainId: "${bad}") { name } } }`,
      ),
      'blockchainId',
    );
    expectBadInput(
      await gw.query(
        `{ network(name: "mainnet") { subnets(first: 5, after: "garbage") { edges { cursor } } } }`,
      ),
      'after',
    );
    const r = await gw.query(
      `{ network(name: "mainnet") { subnets(first: 5, sortOrder: UP) { edges { cursor } } } }`,
    );
    expect(codes(r)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(routeCalls(sim)).toEqual({});
    // A cursor of the descending list is refused by the ascending one.
    const first = await gql(
      `{ network(name: "mainnet") { subnets(first: 2) { pageInfo { endCursor } } } }`,
    );
    sim.reset();
    expectBadInput(
      await gw.query(
        `query($a: String) { network(name: "mainnet") { subnets(first: 2, after: $a, sortOrder:
          ASC) { edges { cursor } } } }`,
        { a: first.network.subnets.pageInfo.endCursor },
      ),
      'after',
    );
    expect(routeCalls(sim)).toEqual({});
    const unknown = await gw.query(
      `{ network(name: "mainnet") { subnet(subnetId: "${SIM_L1.blockchainId}") { subnetId } } }`,
    );
    expect(codes(unknown)).toEqual(['NOT_FOUND']);
    expect(routeCalls(sim)).toEqual({ [SUBNET]: 1 });
    sim.reset();
    const unknownChain = await gw.query(
      `{ network(name: "mainnet") { blockchain(blockchainId: "${SIM_L1.subnetId}") { name } } }`,
    );
    expect(codes(unknownChain)).toEqual(['NOT_FOUND']);
    expect(routeCalls(sim)).toEqual({ [BLOCKCHAIN]: 1 });
  });

  it('the operations of schema/operations/primary-net.graphql answer without errors', async () => {
    const n = sim.world.primary.mainnet;
    const results = [
      await gw.exec(SubnetsDocument, { network: 'mainnet', first: 3, sortOrder: 'ASC' }),
      await gw.exec(SubnetDetailDocument, {
        network: 'mainnet',
        subnetId: SIM_L1.subnetId,
        first: 2,
      }),
      await gw.exec(BlockchainsDocument, { network: 'fuji', first: 3 }),
      await gw.exec(AddressUtxosDocument, {
        network: 'mainnet',
        blockchain: 'P_CHAIN',
        addresses: n.pAddresses.slice(0, 3),
        first: 3,
        includeSpent: true,
      }),
      await gw.exec(AddressActivityDocument, {
        network: 'mainnet',
        blockchain: 'X_CHAIN',
        addresses: n.xChain.addresses.slice(0, 2),
      }),
      await gw.exec(AvaxSupplyDocument, {}),
    ];
    for (const r of results) expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect((results[1]!.data as any).network.subnet.blockchains[0].chain.chainId).toBe(
      SIM_L1.chainId,
    );
  });
});
