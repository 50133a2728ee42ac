import type { GatewayContext } from '../../context.js';
import { gqlError } from '../../errors.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import {
  type CChainExportTxRaw,
  type CChainImportTxRaw,
  isNonLinear,
  type XChainLinearTxRaw,
  type XChainNonLinearTxRaw,
  type XChainTxRaw,
} from '../../upstream/schemas/primary-atomic.js';
import { builder } from '../builder.js';
import { carries } from '../builder-types.js';
import { conventionalValues } from '../enum-docs.js';
import { exposed, ref, refList } from '../expose.js';
import { parseNetworkScopedId } from '../primary-inputs.js';
import { NetworkNameEnum } from './network.js';
import { AssetAmountRef } from './primary-asset.js';
import { IndexedUtxoRef } from './primary-utxo.js';
import { AssetDetailsRef, loadVertex, XChainVertexRef } from './x-chain-vertex.js';

/**
 * The X-Chain and C-Chain members of `PrimaryNetworkTransaction`, in the Data API's own shapes:
 * X-Chain transactions of the linear chain (since Cortina: in a block) and of the earlier DAG (in
 * vertices), and the C-Chain's atomic exports and imports (AVAX moving between the C-Chain's EVM
 * accounts and the X/P-Chain's UTXOs). Accepted transactions are final: cached for long.
 * Global ids: `<Type>:<network>:<tx hash>`.
 */
export type Net = { network: GatewayNetwork };
export type XChainLinearTx = XChainLinearTxRaw & Net;
export type XChainNonLinearTx = XChainNonLinearTxRaw & Net;
export type CChainExportTx = CChainExportTxRaw & Net;
export type CChainImportTx = CChainImportTxRaw & Net;
export type XChainTx = XChainLinearTx | XChainNonLinearTx;
export type CChainAtomicTx = CChainExportTx | CChainImportTx;

/** The C-Chain's EVM chain id on each primary network: where its atomic txs' blocks and accounts live. */
export const C_CHAIN_EVM_ID: Record<GatewayNetwork, string> = { mainnet: '43114', fuji: '43113' };

export const withNetwork = <T extends object>(tx: T, network: GatewayNetwork): T & Net => ({
  ...tx,
  network,
});

export const XChainTransactionTypeEnum = builder.enumType('XChainTransactionType', {
  description:
    'Kind of an X-Chain transaction, named as the Data API names it (like `PrimaryNetworkTxType`).',
  values: conventionalValues({
    BaseTx: { value: 'BaseTx', description: 'A transfer between X-Chain addresses.' },
    CreateAssetTx: { value: 'CreateAssetTx', description: 'Creates a new asset.' },
    OPERATION_TX: {
      value: 'OperationTx',
      description: 'Mints or transfers NFTs or variable-cap assets.',
    },
    ImportTx: { value: 'ImportTx', description: 'Imports AVAX from the P-Chain or the C-Chain.' },
    ExportTx: { value: 'ExportTx', description: 'Exports AVAX to the P-Chain or the C-Chain.' },
    UNKNOWN: { value: 'UNKNOWN', description: 'A kind the indexer does not name.' },
  } as const),
});

type AnyTx = XChainTx | CChainAtomicTx;

/** The fields every one of the four shapes has. */
export const IndexedPrimaryTransactionRef = builder.interfaceRef<AnyTx>(
  'IndexedPrimaryTransaction',
);
IndexedPrimaryTransactionRef.implement({
  description:
    'A primary-network transaction as the Data API indexes it (X-Chain, or a C-Chain atomic one).',
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The primary network of this transaction.'),
      txHash: ['String', 'Transaction id (CB58).'],
      timestamp: ['Timestamp+Iso', 'When it was accepted, Unix seconds.'],
      memo: ['String', 'Memo bytes, 0x-prefixed hex (often empty).'],
      amountUnlocked: refList(AssetAmountRef, 'Per asset, the amounts its inputs unlocked.'),
      amountCreated: refList(AssetAmountRef, 'Per asset, the amounts its outputs created.'),
    }),
  }),
});

export const IndexedXChainTransactionRef = builder.interfaceRef<XChainTx>(
  'IndexedXChainTransaction',
);
IndexedXChainTransactionRef.implement({
  description: 'An X-Chain transaction as the Data API indexes it (linear or DAG era).',
  interfaces: [IndexedPrimaryTransactionRef],
  fields: (t) => ({
    chainFormat: t.exposeString('chainFormat', {
      description: 'How the X-Chain ordered it when accepted: in a block, or in the earlier DAG.',
    }),
    ...exposed(t, {
      txType: ref(XChainTransactionTypeEnum, 'Its kind.'),
      consumedUtxos: refList(IndexedUtxoRef, 'UTXOs it spent.'),
      emittedUtxos: refList(IndexedUtxoRef, 'UTXOs it created.'),
      sourceChain: ['String?', 'For an import: the chain (id) the AVAX came from.'],
      destinationChain: ['String?', 'For an export: the chain (id) the AVAX went to.'],
    }),
    assetCreated: t.field({
      type: AssetDetailsRef,
      nullable: true,
      description: 'For a CreateAssetTx: the asset it created.',
      resolve: (tx) => (tx.assetCreated ? { ...tx.assetCreated, network: tx.network } : null),
    }),
  }),
});

export const XChainLinearTransactionRef =
  builder.objectRef<XChainLinearTx>('XChainLinearTransaction');
export const XChainNonLinearTransactionRef = builder.objectRef<XChainNonLinearTx>(
  'XChainNonLinearTransaction',
);
export const CChainExportTransactionRef =
  builder.objectRef<CChainExportTx>('CChainExportTransaction');
export const CChainImportTransactionRef =
  builder.objectRef<CChainImportTx>('CChainImportTransaction');

/** An X-Chain transaction by hash; the right member by its shape. */
export async function loadXChainTx(
  network: GatewayNetwork,
  txHash: string,
  ctx: GatewayContext,
): Promise<XChainTx> {
  return withNetwork(await ctx.loaders.primaryTxs.xChainTx.load({ network, txHash }), network);
}
export async function loadCChainTx(
  network: GatewayNetwork,
  txHash: string,
  ctx: GatewayContext,
): Promise<CChainAtomicTx> {
  return withNetwork(await ctx.loaders.primaryTxs.cChainTx.load({ network, txHash }), network);
}

/** Refetch by global id: the member must be the type the id names. */
export function refetch<T>(
  kind: string,
  load: (network: GatewayNetwork, txHash: string, ctx: GatewayContext) => Promise<unknown>,
  is: (tx: never) => boolean,
) {
  return (ids: string[], ctx: GatewayContext): Promise<T>[] =>
    ids.map(async (id) => {
      const { network, id: txHash } = parseNetworkScopedId(id, 'transaction hash');
      const tx = await load(network, txHash, ctx);
      if (!is(tx as never)) throw gqlError('NOT_FOUND', `${txHash} is not a ${kind}`);
      return tx as T;
    });
}

builder.node(XChainLinearTransactionRef, {
  description: 'An X-Chain transaction accepted in a block (the linear X-Chain, since Cortina).',
  id: { resolve: (tx) => `${tx.network}:${tx.txHash}` },
  loadMany: refetch<XChainLinearTx>(
    'linear X-Chain transaction',
    loadXChainTx,
    (tx: XChainTxRaw) => !isNonLinear(tx),
  ),
  isTypeOf: (v) => carries('chainFormat')(v) && !carries('vertices')(v),
  interfaces: [IndexedPrimaryTransactionRef, IndexedXChainTransactionRef],
  fields: (t) =>
    exposed(t, {
      blockHeight: ['Int', 'Height of its X-Chain block.'],
      blockHash: ['String', 'Id (CB58) of its X-Chain block.'],
    }),
});

builder.node(XChainNonLinearTransactionRef, {
  description: 'An X-Chain transaction of the DAG era (before Cortina), accepted in vertices.',
  id: { resolve: (tx) => `${tx.network}:${tx.txHash}` },
  loadMany: refetch<XChainNonLinearTx>(
    'DAG-era X-Chain transaction',
    loadXChainTx,
    (tx: XChainTxRaw) => isNonLinear(tx),
  ),
  isTypeOf: carries('vertices'),
  interfaces: [IndexedPrimaryTransactionRef, IndexedXChainTransactionRef],
  fields: (t) => ({
    vertexHashes: t.stringList({
      description: 'Ids (CB58) of the vertices it was accepted in.',
      resolve: (tx) => tx.vertices.map((v) => v.hash),
    }),
    vertices: t.field({
      type: [XChainVertexRef],
      description: 'The vertices it was accepted in, each loaded by hash (final, cached).',
      resolve: (tx, _args, ctx) =>
        Promise.all(tx.vertices.map((v) => loadVertex(ctx, tx.network, v.hash))),
    }),
  }),
});
