import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { expectBadInput, routeCalls, upstreamGet, upstreamWalk, walk } from './primary-support.js';

/** Network.blocks / block / blocksProposedBy and Validator.proposedBlocks (P-Chain blocks of the Data API). */
const BLOCKS = '/v1/networks/mainnet/blockchains/p-chain/blocks';
const LIST_ROUTE = 'data-api GET /v1/networks/:network/blockchains/:blockchainId/blocks';

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const FIELDS =
  'id blockNumber blockHash parentHash blockTimestamp blockType txCount txHashes blockSizeBytes';
const LIST = `query($first: Int, $after: String, $chain: PrimaryChain!, $start: Int, $end: Int) {
  network(name: "mainnet") { blocks(blockchain: $chain, first: $first, after: $after, startTimestamp: $start, endTimestamp: $end) {
    pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} proposerDetails { proposerNodeId } } } } }
}`;
const shape = (b: any) => ({
  blockNumber: b.blockNumber,
  blockHash: b.blockHash,
  parentHash: b.parentHash,
  blockTimestamp: b.blockTimestamp,
  blockType: b.blockType,
  txCount: b.txCount,
  txHashes: b.txHashes ?? b.transactions,
  blockSizeBytes: b.blockSizeBytes,
  proposerNodeId: b.proposerDetails?.proposerNodeId ?? null,
});
const node = (e: any) => shape(e.node);
const page = (vars: Record<string, unknown>) => async (after: string | null) => {
  const r = await gw.query(LIST, { chain: 'P_CHAIN', after, ...vars });
  expect(r.errors).toBeUndefined();
  return r.data!.network.blocks;
};

describe('Network.blocks', () => {
  it('walks several upstream pages equal to the simulator, then 0 calls warm', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, BLOCKS, 'blocks');
    expect(expected.length).toBeGreaterThan(200);
    sim.reset();
    const edges = await walk(page({ first: 80 }));
    expect(edges.map(node)).toEqual(expected.map(shape));
    expect(sim.stats().byRoute[LIST_ROUTE]).toBe(Math.ceil(expected.length / 100));
    sim.reset();
    await walk(page({ first: 80 }));
    expect(sim.stats().total).toBe(0);
  });

  it('filters by time as the upstream does', async () => {
    const first = await upstreamGet(sim.dataApiUrl, BLOCKS, { pageSize: 100 });
    const t = first.blocks[60].blockTimestamp as number;
    const expected = await upstreamWalk(sim.dataApiUrl, BLOCKS, 'blocks', {
      startTimestamp: t - 30 * 86_400,
      endTimestamp: t,
    });
    expect(expected.length).toBeGreaterThan(0);
    const edges = await walk(page({ first: 100, start: t - 30 * 86_400, end: t }));
    expect(edges.map(node)).toEqual(expected.map(shape));
  });

  it('refuses bad input before any upstream call', async () => {
    sim.reset();
    expectBadInput(
      await gw.query(LIST, { chain: 'P_CHAIN', first: 5, start: -5 }),
      'startTimestamp',
    );
    expectBadInput(
      await gw.query(LIST, { chain: 'P_CHAIN', first: 5, start: 9, end: 3 }),
      'endTimestamp',
    );
    expectBadInput(await gw.query(LIST, { chain: 'X_CHAIN', first: 5 }), 'blockchain');
    expect((await gw.query(LIST, { chain: 'Z_CHAIN', first: 5 })).errors?.length).toBe(1);
    expect(routeCalls(sim)).toEqual({});
  });
});

const ONE = `query($id: String!) { network(name: "mainnet") { block(blockchain: P_CHAIN, blockId: $id) {
  ${FIELDS} proposerDetails { proposerNodeId } transactions { txHash blockHash } } } }`;

describe('Network.block', () => {
  it('answers a block as the upstream does, links its transactions, and is cached', async () => {
    const list = await upstreamGet(sim.dataApiUrl, BLOCKS, { pageSize: 5 });
    const hash = list.blocks[2].blockHash as string;
    const expected = await upstreamGet(sim.dataApiUrl, `${BLOCKS}/${hash}`);
    sim.reset();
    const r = await gw.query(ONE, { id: hash });
    expect(r.errors).toBeUndefined();
    const b = r.data!.network.block;
    expect(shape(b)).toEqual(shape(expected));
    expect(b.transactions.map((t: any) => t.txHash)).toEqual(expected.transactions);
    expect(b.transactions.every((t: any) => t.blockHash === hash)).toBe(true);
    sim.reset();
    await gw.query(ONE, { id: hash });
    expect(sim.stats().total).toBe(0);
  });

  it('refuses a malformed block id with 0 upstream calls', async () => {
    sim.reset();
    expectBadInput(await gw.query(ONE, { id: '12345' }), 'blockId');
    expect(routeCalls(sim)).toEqual({});
  });
});

describe('blocks by proposer', () => {
  it('Network.blocksProposedBy equals the upstream by-node list; bad node ids are refused', async () => {
    const all = await upstreamGet(sim.dataApiUrl, BLOCKS, { pageSize: 1 });
    const nodeId = all.blocks[0].proposerDetails.proposerNodeId as string;
    const path = `/v1/networks/mainnet/blockchains/p-chain/nodes/${nodeId}/blocks`;
    const expected = await upstreamWalk(sim.dataApiUrl, path, 'blocks');
    expect(expected.length).toBeGreaterThan(0);
    const q = `query($n: String!, $after: String) { network(name: "mainnet") { blocksProposedBy(nodeId: $n, first: 3, after: $after) {
      pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} proposerDetails { proposerNodeId } } } } } }`;
    const edges = await walk(async (after) => {
      const r = await gw.query(q, { n: nodeId, after });
      expect(r.errors).toBeUndefined();
      return r.data!.network.blocksProposedBy;
    });
    expect(edges.map(node)).toEqual(expected.map(shape));
    sim.reset();
    expectBadInput(await gw.query(q, { n: 'NodeID-nope' }), 'nodeId');
    expect(routeCalls(sim)).toEqual({});
  });
});

describe('Validator.proposedBlocks', () => {
  it('lists the blocks a validator proposed, the same as the by-node route', async () => {
    const all = await upstreamGet(sim.dataApiUrl, BLOCKS, { pageSize: 1 });
    const nodeId = all.blocks[0].proposerDetails.proposerNodeId as string;
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/networks/mainnet/blockchains/p-chain/nodes/${nodeId}/blocks`,
      'blocks',
    );
    const q = `query($n: String!) { network(name: "mainnet") { validators(nodeId: $n, first: 1) { edges { node {
      nodeId proposedBlocks(first: 100) { edges { node { blockHash } } } } } } } }`;
    const r = await gw.query(q, { n: nodeId });
    expect(r.errors).toBeUndefined();
    const v = r.data!.network.validators.edges[0].node;
    expect(v.nodeId).toBe(nodeId);
    expect(v.proposedBlocks.edges.map((e: any) => e.node.blockHash)).toEqual(
      expected.slice(0, 100).map((b: any) => b.blockHash),
    );
  });
});
