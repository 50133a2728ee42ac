import type { PrimaryNetworkData, XBlock } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { notFound } from './errors.js';
import { cmpNum, pageOf } from './paging.js';
import type { Route } from './router.js';

/**
 * X-Chain vertices (listLatestXChainVertices, getVertexByHash, getVertexByHeight). The world's X-Chain
 * history stands in for the pre-Cortina DAG: one vertex per X-Chain block, its parent the only parent hash.
 */
const X_IDS = [
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  'x-chain',
] as const;

function vertexJson(b: XBlock) {
  return {
    vertexHash: b.id,
    parentHashes: [b.parentId],
    vertexHeight: b.height,
    vertexIndex: b.height,
    vertexTimestamp: b.timestamp,
    txCount: b.txIds.length,
    transactions: b.txIds,
    vertexSizeBytes: 200 + b.txIds.length * 250,
  };
}

function xChain(ctx: Ctx): PrimaryNetworkData {
  const net = ctx.network();
  ctx.enumOf('blockchainId', X_IDS, ctx.params.blockchainId);
  return net;
}

function list(ctx: Ctx, byHeight: boolean) {
  const net = xChain(ctx);
  const size = ctx.pageSize();
  const height = byHeight ? ctx.int('vertexHeight', { min: 0 }) : undefined;
  const order = byHeight ? (ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc') : 'desc';
  ctx.check();
  const blocks = net.xChain.blocks;
  const filters = byHeight ? ['vertexHeight', 'sortOrder'] : [];
  const { page, next } = pageOf(
    blocks.map((_, i) => i),
    {
      desc: order === 'desc',
      size,
      after: ctx.cursor<number>(filters),
      key: (i) => i,
      cmp: cmpNum,
      filter: (i) => height === undefined || blocks[i]!.height === height,
    },
  );
  const chainInfo = { chainName: 'x-chain' as const, network: net.info.name };
  return {
    ...ctx.nextPage(filters, next),
    vertices: page.map((i) => vertexJson(blocks[i]!)),
    chainInfo,
  };
}

export const xVertexRoutes: Route<Ctx>[] = [
  {
    // getAssetDetails: created when its CreateAssetTx was accepted (the asset id is that tx's id); AVAX,
    // from genesis, takes the X-Chain's first block time. Only AVAX is fixed-cap.
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/assets/:assetId',
    handler: (ctx) => {
      const net = xChain(ctx);
      ctx.check();
      const x = net.xChain;
      const a = x.assets.find((as) => as.assetId === ctx.params.assetId);
      if (!a) throw notFound(`Asset ${ctx.params.assetId} not found`);
      const created = x.txById.get(a.assetId)?.timestamp ?? x.blocks[0]?.timestamp ?? 0;
      const { assetId, name, symbol, denomination } = a;
      const cap = symbol === 'AVAX' ? 'fixed' : 'variable';
      return {
        assetId,
        name,
        symbol,
        denomination,
        type: 'secp256k1',
        createdAtTimestamp: created,
        cap,
      };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/vertices',
    handler: (ctx) => list(ctx, false),
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/vertices:listByHeight',
    handler: (ctx) => list(ctx, true),
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/vertices/:vertexHash',
    handler: (ctx) => {
      const net = xChain(ctx);
      ctx.check();
      const b = net.xChain.blockById.get(ctx.params.vertexHash!);
      if (!b) throw notFound(`Vertex ${ctx.params.vertexHash} not found`);
      return vertexJson(b);
    },
  },
];
