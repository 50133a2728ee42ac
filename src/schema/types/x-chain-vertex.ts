import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { XVertexFilter } from '../../upstream/data-api-primary.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import type {
  XChainAssetDetailsRaw,
  XChainVertexRaw,
} from '../../upstream/schemas/primary-blocks.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { pageTypes, resolveTokenConnection } from '../connection.js';
import { exposed, ref } from '../expose.js';
import { inNetwork, loadOneInNetwork, type NetworkLoad } from '../node-load.js';
import { parseCb58Id } from '../primary-inputs.js';
import { NetworkNameEnum, NetworkRef, SortOrderEnum } from './network.js';
import { PrimaryAssetTypeEnum } from './primary-asset.js';

/**
 * X-Chain vertices (the pre-Cortina DAG) from the Data API: listLatestXChainVertices, getVertexByHash,
 * getVertexByHeight, as `Network.xChainVertices`, `Network.xChainVertex` and `Network.xChainVerticesAtHeight`.
 * Global id: `XChainVertex:<network>:<vertex hash>`.
 */
export type XChainVertex = XChainVertexRaw & { network: GatewayNetwork };

export const XChainVertexRef = builder.objectRef<XChainVertex>('XChainVertex');

export const loadVertex: NetworkLoad<XChainVertex> = inNetwork((ctx, network, vertexHash) =>
  ctx.loaders.primary.xVertex.load({ network, vertexHash }),
);

builder.node(XChainVertexRef, {
  description: 'A vertex of the X-Chain DAG (before Cortina made the X-Chain linear).',
  id: { resolve: (v) => `${v.network}:${v.vertexHash}` },
  loadOne: loadOneInNetwork('vertex hash', loadVertex),
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The primary network of this vertex.'),
      vertexHash: ['String', 'Vertex id (CB58).'],
      parentHashes: ['[String]', 'Ids (CB58) of its parent vertices.'],
    }),
    parents: t.field({
      type: [XChainVertexRef],
      nullable: true,
      description: 'Its parent vertices, each loaded by hash (cached).',
      resolve: (v, _args, ctx) =>
        Promise.all(v.parentHashes.map((h) => loadVertex(ctx, v.network, h))),
    }),
    ...exposed(t, {
      vertexHeight: ['Int', 'Height in the DAG.'],
      vertexIndex: ['Int', 'Index of the vertex in acceptance order.'],
      vertexTimestamp: ['Timestamp+Iso', 'Acceptance time, Unix seconds.'],
      txCount: ['Int', 'Number of transactions in the vertex.'],
    }),
    txHashes: t.exposeStringList('transactions', {
      description: 'Ids (CB58) of its transactions.',
    }),
    vertexSizeBytes: t.exposeInt('vertexSizeBytes', {
      description: 'Size of the vertex in bytes.',
    }),
  }),
});

function verticesConnection(
  network: GatewayNetwork,
  filter: XVertexFilter,
  args: { first?: number | null; after?: string | null },
  ctx: GatewayContext,
) {
  return resolveTokenConnection<XChainVertex>(args, ctx.connections, {
    pages: ctx.loaders.primary.xVerticesPage
      .list({ network, ...filter })
      .mapItems((v) => ({ ...v, network })),
    pageSize: PRIMARY_PAGE_SIZE.xChainVertices,
    itemKey: (v) => v.vertexHash,
  });
}

builder.objectFields(NetworkRef, (t) => ({
  xChainVertex: t.field({
    type: XChainVertexRef,
    nullable: true,
    description: 'One X-Chain vertex by hash (Data API getVertexByHash).',
    args: { vertexHash: t.arg.string({ required: true, description: 'Vertex id (CB58).' }) },
    resolve: (network, args, ctx) =>
      loadVertex(ctx, network.name, parseCb58Id(args.vertexHash, 'vertexHash', 'vertex hash')),
  }),
  xChainVertices: t.connection(
    {
      type: XChainVertexRef,
      nullable: true,
      description: 'The latest X-Chain vertices, newest first (Data API listLatestXChainVertices).',
      resolve: (network, args, ctx) => verticesConnection(network.name, {}, args, ctx),
    },
    ...pageTypes('XChainVertex', 'X-Chain vertices', 'An X-Chain vertex'),
  ),
  xChainVerticesAtHeight: t.connection(
    {
      type: XChainVertexRef,
      nullable: true,
      description: 'X-Chain vertices at one DAG height (Data API getVertexByHeight).',
      args: argTable(t.arg, {
        vertexHeight: ['Int!', 'The height (≥ 0).'],
        sortOrder: [SortOrderEnum, 'By time. Default: newest first.'],
      }),
      resolve: (network, args, ctx) => {
        if (!Number.isSafeInteger(args.vertexHeight) || args.vertexHeight < 0) {
          throw badInput('vertexHeight', 'vertexHeight must be a whole number, 0 or more');
        }
        const filter = { vertexHeight: args.vertexHeight, sortOrder: args.sortOrder ?? undefined };
        return verticesConnection(network.name, filter, args, ctx);
      },
    },
    {
      name: 'XChainVertexAtHeightConnection',
      description: 'A page of X-Chain vertices at one height.',
    },
    { name: 'XChainVertexAtHeightEdge', description: 'An X-Chain vertex and its cursor.' },
  ),
}));

type AssetDetails = XChainAssetDetailsRaw & { network: GatewayNetwork };

const AssetCapEnum = builder.enumType('XChainAssetCap', {
  description: 'Whether more of an asset can be minted.',
  values: {
    FIXED: { value: 'fixed', description: 'Its supply was fixed at creation.' },
    VARIABLE: { value: 'variable', description: 'Minters can issue more.' },
  } as const,
});

export const AssetDetailsRef = builder.objectRef<AssetDetails>('XChainAssetDetails').implement({
  description: 'An X-Chain asset as the Data API describes it (getAssetDetails).',
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The primary network of this asset.'),
      assetId: ['String', 'Asset id (CB58): the id of the tx that created it.'],
      name: ['String', 'Name of the asset.'],
      symbol: ['String', 'Symbol of the asset (at most 4 characters).'],
      denomination: ['Int', 'Decimal places of its smallest unit.'],
      type: ref(PrimaryAssetTypeEnum, 'Fungible (SECP256K1) or NFT.'),
    }),
    createdAtTimestamp: t.expose('createdAtTimestamp', {
      type: 'Timestamp',
      description: 'Creation time, Unix s.',
    }),
    cap: t.expose('cap', { type: AssetCapEnum, description: 'Fixed or variable supply.' }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  xChainAssetDetails: t.field({
    type: AssetDetailsRef,
    nullable: true,
    description: 'One X-Chain asset by id (Data API getAssetDetails).',
    args: { assetId: t.arg.string({ required: true, description: 'Asset id (CB58).' }) },
    resolve: async (network, args, ctx) => {
      const assetId = parseCb58Id(args.assetId, 'assetId', 'asset id');
      return {
        ...(await ctx.loaders.primary.xAssetDetails.load({ network: network.name, assetId })),
        network: network.name,
      };
    },
  }),
}));
