import type { z } from 'zod';
import type { NodeCalls } from './node-rpc-call.js';
import type { NodeRpcClient } from './node-rpc-types.js';
import * as avm from './schemas/node-avm.js';

/** The X-Chain (`/ext/bc/X`, the node's `avm.` methods). */
export function xChainMethods({
  ep,
  call,
  map,
  utxoParams,
  utxoPage,
  issueHexTx,
}: NodeCalls): NodeRpcClient['xChain'] {
  /** A block by its id or its height, in the encoding asked. */
  const blockOf = <S extends z.ZodType>(
    ref: { id: string } | { height: string },
    encoding: 'hex' | 'json',
    schema: S,
  ) =>
    'id' in ref
      ? call(ep.x, 'node.avm.getBlock', 'avm.getBlock', { blockID: ref.id, encoding }, schema)
      : call(
          ep.x,
          'node.avm.getBlockByHeight',
          'avm.getBlockByHeight',
          { height: ref.height, encoding },
          schema,
        );
  return {
    height: () =>
      map(call(ep.x, 'node.avm.getHeight', 'avm.getHeight', {}, avm.heightResult), (r) => r.height),
    blockHex: (ref) => map(blockOf(ref, 'hex', avm.hexBlockResult), (r) => r.block),
    blockJson: (ref) => map(blockOf(ref, 'json', avm.jsonBlockResult), (r) => r.block),
    txHex: (txID) =>
      map(
        call(ep.x, 'node.avm.getTx', 'avm.getTx', { txID, encoding: 'hex' }, avm.hexTxResult),
        (r) => r.tx,
      ),
    txJson: (txID) =>
      map(
        call(ep.x, 'node.avm.getTx', 'avm.getTx', { txID, encoding: 'json' }, avm.jsonTxResult),
        (r) => r.tx,
      ),
    txStatus: (txID) =>
      map(
        call(ep.x, 'node.avm.getTxStatus', 'avm.getTxStatus', { txID }, avm.txStatusResult),
        (r) => r.status,
      ),
    fees: () => call(ep.x, 'node.avm.getTxFee', 'avm.getTxFee', {}, avm.avmTxFeeResult),
    utxos: (q, pageToken) =>
      utxoPage(
        q,
        call(
          ep.x,
          'node.avm.getUTXOs',
          'avm.getUTXOs',
          utxoParams(q, pageToken),
          avm.utxoPageResult,
        ),
      ),
    assetDescription: (assetID) =>
      call(
        ep.x,
        'node.avm.getAssetDescription',
        'avm.getAssetDescription',
        { assetID },
        avm.assetDescriptionResult,
      ),
    balance: (address, assetID) =>
      call(ep.x, 'node.avm.getBalance', 'avm.getBalance', { address, assetID }, avm.balanceResult),
    allBalances: (address) =>
      map(
        call(
          ep.x,
          'node.avm.getAllBalances',
          'avm.getAllBalances',
          { address },
          avm.allBalancesResult,
        ),
        (r) => r.balances,
      ),
    issueTx: (tx) => issueHexTx(ep.x, 'avm.issueTx', tx),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const NODE_RPC_X_RESOURCES = [
  'node.avm.getHeight',
  'node.avm.getTxFee',
  'node.avm.getTxStatus',
  'node.avm.getUTXOs',
  'node.avm.getBalance',
  'node.avm.getAllBalances',
  'node.avm.getBlock',
  'node.avm.getBlockByHeight',
  'node.avm.getTx',
  'node.avm.getAssetDescription',
  'node.issueTx',
] as const;
