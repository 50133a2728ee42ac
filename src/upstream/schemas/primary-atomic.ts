import { z } from 'zod';
import { assetAmount, int, primaryChainInfo } from './primary.js';
import { xChainAssetDetails } from './primary-blocks.js';
import { indexedUtxo } from './primary-net.js';

/**
 * The X-Chain and C-Chain members of the Data API's primary-network transaction `oneOf`
 * (getTxByHash, listLatestPrimaryNetworkTransactions, listAssetTransactions): the spec's
 * XChainLinearTransaction / XChainNonLinearTransaction (told apart by `vertices`, which only the
 * pre-Cortina DAG's transactions have, and `blockHeight`, which only linear ones have) and
 * CChainExportTransaction / CChainImportTransaction (told apart by `evmInputs` / `evmOutputs`).
 */
const pageToken = z.string().optional();

export const xChainTransactionType = z.enum([
  'BaseTx',
  'CreateAssetTx',
  'OperationTx',
  'ImportTx',
  'ExportTx',
  'UNKNOWN',
]);

const xChainTxBase = z.object({
  txHash: z.string(),
  chainFormat: z.string(),
  timestamp: int,
  txType: xChainTransactionType,
  memo: z.string(),
  consumedUtxos: z.array(indexedUtxo),
  emittedUtxos: z.array(indexedUtxo),
  amountUnlocked: z.array(assetAmount),
  amountCreated: z.array(assetAmount),
  sourceChain: z.string().optional(),
  destinationChain: z.string().optional(),
  assetCreated: xChainAssetDetails.optional(),
});

export const xChainLinearTransaction = xChainTxBase.extend({
  blockHeight: int,
  blockHash: z.string(),
});
export const xChainNonLinearTransaction = xChainTxBase.extend({
  vertices: z.array(z.object({ hash: z.string(), height: int, timestamp: int })),
});
export type XChainLinearTxRaw = z.infer<typeof xChainLinearTransaction>;
export type XChainNonLinearTxRaw = z.infer<typeof xChainNonLinearTransaction>;
/** Non-linear first: a linear parse would also accept a DAG tx that happens to carry a block height. */
export const xChainTransaction = z.union([xChainNonLinearTransaction, xChainLinearTransaction]);
export type XChainTxRaw = z.infer<typeof xChainTransaction>;

const cChainAtomicBase = z.object({
  txHash: z.string(),
  blockHeight: int,
  blockHash: z.string(),
  timestamp: int,
  memo: z.string(),
  amountUnlocked: z.array(assetAmount),
  amountCreated: z.array(assetAmount),
  sourceChain: z.string(),
  destinationChain: z.string(),
  txType: z.string(),
});
const credential = z.object({
  signature: z.string().optional(),
  publicKey: z.string().optional(),
});
export const cChainExportTransaction = cChainAtomicBase.extend({
  evmInputs: z.array(
    z.object({ fromAddress: z.string(), asset: assetAmount, credentials: z.array(credential) }),
  ),
  emittedUtxos: z.array(indexedUtxo),
});
export const cChainImportTransaction = cChainAtomicBase.extend({
  evmOutputs: z.array(z.object({ toAddress: z.string(), asset: assetAmount })),
  consumedUtxos: z.array(indexedUtxo),
});
export type CChainExportTxRaw = z.infer<typeof cChainExportTransaction>;
export type CChainImportTxRaw = z.infer<typeof cChainImportTransaction>;
export const cChainAtomicTransaction = z.union([cChainExportTransaction, cChainImportTransaction]);
export type CChainAtomicTxRaw = z.infer<typeof cChainAtomicTransaction>;

export const listXChainTransactionsResponse = z.object({
  transactions: z.array(xChainTransaction),
  chainInfo: primaryChainInfo,
  nextPageToken: pageToken,
});
export const listCChainAtomicTransactionsResponse = z.object({
  transactions: z.array(cChainAtomicTransaction),
  chainInfo: primaryChainInfo,
  nextPageToken: pageToken,
});

export const isNonLinear = (tx: XChainTxRaw): tx is XChainNonLinearTxRaw => 'vertices' in tx;
export const isExport = (tx: CChainAtomicTxRaw): tx is CChainExportTxRaw => 'evmInputs' in tx;
