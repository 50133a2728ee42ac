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

/** Network.xChainVertices / xChainVertex / xChainVerticesAtHeight (X-Chain DAG vertices of the Data API). */
const VERTICES = '/v1/networks/mainnet/blockchains/x-chain/vertices';
const LIST_ROUTE = 'data-api GET /v1/networks/:network/blockchains/:blockchainId/vertices';

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const FIELDS =
  'vertexHash parentHashes vertexHeight vertexIndex vertexTimestamp txCount txHashes vertexSizeBytes';
const shape = (v: any) => ({
  vertexHash: v.vertexHash,
  parentHashes: v.parentHashes,
  vertexHeight: v.vertexHeight,
  vertexIndex: v.vertexIndex,
  vertexTimestamp: v.vertexTimestamp,
  txCount: v.txCount,
  txHashes: v.txHashes ?? v.transactions,
  vertexSizeBytes: v.vertexSizeBytes,
});
const LIST = `query($first: Int, $after: String) { network(name: "mainnet") { xChainVertices(first: $first, after: $after) {
  pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} } } } } }`;
const AT = `query($h: Int!, $order: SortOrder, $after: String) { network(name: "mainnet") {
  xChainVerticesAtHeight(vertexHeight: $h, sortOrder: $order, first: 10, after: $after) {
  pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} } } } } }`;
const ONE = `query($hash: String!) { network(name: "mainnet") { xChainVertex(vertexHash: $hash) {
  id ${FIELDS} parents { vertexHash } } } }`;

describe('X-Chain vertices', () => {
  it('walks the latest vertices across upstream pages equal to the simulator, then 0 calls warm', async () => {
    const expected = await upstreamWalk(sim.dataApiUrl, VERTICES, 'vertices');
    expect(expected.length).toBeGreaterThan(100);
    sim.reset();
    const list = async (after: string | null) => {
      const r = await gw.query(LIST, { first: 60, after });
      expect(r.errors).toBeUndefined();
      return r.data!.network.xChainVertices;
    };
    const edges = await walk(list);
    expect(edges.map((e: any) => shape(e.node))).toEqual(expected.map(shape));
    expect(sim.stats().byRoute[LIST_ROUTE]).toBe(Math.ceil(expected.length / 100));
    sim.reset();
    await walk(list);
    expect(sim.stats().total).toBe(0);
  });

  it('answers a vertex by hash with its parents, and vertices by height, as the upstream does', async () => {
    const latest = await upstreamGet(sim.dataApiUrl, VERTICES, { pageSize: 5 });
    const v = latest.vertices[1];
    const r = await gw.query(ONE, { hash: v.vertexHash });
    expect(r.errors).toBeUndefined();
    const got = r.data!.network.xChainVertex;
    expect(shape(got)).toEqual(shape(v));
    expect(got.id).toBe(globalId('XChainVertex', `mainnet:${v.vertexHash}`));
    expect(got.parents.map((p: any) => p.vertexHash)).toEqual(v.parentHashes);
    sim.reset();
    await gw.query(ONE, { hash: v.vertexHash });
    expect(sim.stats().total).toBe(0);
    const byHeight = await upstreamWalk(sim.dataApiUrl, `${VERTICES}:listByHeight`, 'vertices', {
      vertexHeight: v.vertexHeight,
      sortOrder: 'asc',
    });
    expect(byHeight.length).toBeGreaterThan(0);
    const h = await gw.query(AT, { h: v.vertexHeight, order: 'ASC' });
    expect(h.errors).toBeUndefined();
    expect(h.data!.network.xChainVerticesAtHeight.edges.map((e: any) => shape(e.node))).toEqual(
      byHeight.map(shape),
    );
  });

  it('refuses bad input with 0 upstream calls', async () => {
    sim.reset();
    expectBadInput(await gw.query(ONE, { hash: 'zzz' }), 'vertexHash');
    expectBadInput(await gw.query(AT, { h: -1 }), 'vertexHeight');
    expect((await gw.query(AT, { h: 1, order: 'SIDEWAYS' })).errors?.length).toBe(1);
    expect(routeCalls(sim)).toEqual({});
  });
});

const ASSET = `query($id: String!) { network(name: "fuji") { xChainAssetDetails(assetId: $id) {
  assetId name symbol denomination type createdAtTimestamp cap } } }`;

describe('Network.xChainAssetDetails (getAssetDetails)', () => {
  it('answers every asset as the upstream does, cached after', async () => {
    const assets = sim.world.primary.fuji.xChain.assets;
    expect(assets.length).toBeGreaterThan(1);
    for (const a of assets) {
      const expected = await upstreamGet(
        sim.dataApiUrl,
        `/v1/networks/fuji/blockchains/x-chain/assets/${a.assetId}`,
      );
      const r = await gw.query(ASSET, { id: a.assetId });
      expect(r.errors).toBeUndefined();
      const upper = {
        ...expected,
        type: expected.type.toUpperCase(),
        cap: expected.cap.toUpperCase(),
      };
      expect(r.data!.network.xChainAssetDetails).toEqual(upper);
    }
    sim.reset();
    await gw.query(ASSET, { id: assets[0]!.assetId });
    expect(sim.stats().total).toBe(0);
  });

  it('refuses a malformed asset id with 0 upstream calls', async () => {
    sim.reset();
    expectBadInput(await gw.query(ASSET, { id: 'AVAX' }), 'assetId');
    expect(routeCalls(sim)).toEqual({});
  });
});
