import type { NodeCalls } from './node-rpc-call.js';
import type { NodeRpcClient } from './node-rpc-types.js';
import * as avm from './schemas/node-avm.js';
import { emptyResult } from './schemas/node-common.js';
import * as evm from './schemas/node-evm.js';

/** The C-Chain: geth-style `/ext/bc/C/rpc`, gorilla `/ext/bc/C/avax` (`avax.`) and `/ext/bc/C/admin`. */
export function cChainMethods({
  ep,
  call,
  utxoParams,
  utxoPage,
  node,
  write,
  issueHexTx,
  profiler,
}: NodeCalls): NodeRpcClient['cChain'] {
  return {
    quantity: (method) => call(ep.cRpc, `node.evm.${method}`, method, [], evm.quantityResult),
    headQuantities: (methods) => {
      // One cache entry for the head's quantities, asked in the same tick (one JSON-RPC batch): what a
      // query shows beside the head number is what the node said at that head, never another one's.
      const parts = methods.map((m) => call(ep.cRpc, `node.evm.${m}`, m, [], evm.quantityResult));
      return {
        ...parts[0]!,
        query: { ...parts[0]!.query, rpc: methods.join('+') },
        body: [],
        // Its own key: asked for the head number alone, it must not share eth_blockNumber's entry.
        variant: 'head',
        async run(c) {
          const values = await Promise.all(parts.map((p) => p.run(c)));
          return Object.fromEntries(methods.map((m, i) => [m, values[i]!]));
        },
      };
    },
    balance: (address, block = 'latest') =>
      call(
        ep.cRpc,
        'node.evm.eth_getBalance',
        'eth_getBalance',
        [address, block],
        evm.quantityResult,
      ),
    transactionCount: (address, block = 'latest') =>
      call(
        ep.cRpc,
        'node.evm.eth_getTransactionCount',
        'eth_getTransactionCount',
        [address, block],
        evm.quantityResult,
      ),
    chainConfig: () =>
      call(ep.cRpc, 'node.evm.eth_getChainConfig', 'eth_getChainConfig', [], evm.chainConfigResult),
    syncing: () => call(ep.cRpc, 'node.evm.eth_syncing', 'eth_syncing', [], evm.syncingResult),
    netVersion: () =>
      call(ep.cRpc, 'node.evm.net_version', 'net_version', [], evm.netVersionResult),
    clientVersion: () =>
      call(
        ep.cRpc,
        'node.evm.web3_clientVersion',
        'web3_clientVersion',
        [],
        evm.clientVersionResult,
      ),
    atomicTx: (txID) =>
      call(
        ep.cAvax,
        'node.avax.getAtomicTx',
        'avax.getAtomicTx',
        { txID, encoding: 'hex' },
        evm.atomicTxResult,
      ),
    atomicTxStatus: (txID) =>
      call(
        ep.cAvax,
        'node.avax.getAtomicTxStatus',
        'avax.getAtomicTxStatus',
        { txID },
        evm.atomicTxStatusResult,
      ),
    atomicUtxos: (q, pageToken) =>
      utxoPage(
        q,
        call(
          ep.cAvax,
          'node.avax.getUTXOs',
          'avax.getUTXOs',
          utxoParams(q, pageToken),
          avm.utxoPageResult,
        ),
      ),
    issueAtomicTx: (tx) => issueHexTx(ep.cAvax, 'avax.issueTx', tx),
    vmConfig: () =>
      call(ep.cAdmin, 'node.admin', 'admin.getVMConfig', {}, evm.vmConfigResult, node),
    setLogLevel: (level) =>
      call(ep.cAdmin, 'node.admin', 'admin.setLogLevel', { level }, emptyResult, write),
    profiler: profiler(ep.cAdmin),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const NODE_RPC_C_RESOURCES = [
  'node.evm.net_version',
  'node.evm.web3_clientVersion',
  'node.evm.eth_getChainConfig',
  'node.evm.eth_baseFee',
  'node.evm.eth_maxPriorityFeePerGas',
  'node.evm.eth_gasPrice',
  'node.evm.eth_syncing',
  'node.evm.eth_getBalance',
  'node.evm.eth_getTransactionCount',
  'node.avax.getAtomicTx',
  'node.avax.getAtomicTxStatus',
  'node.avax.getUTXOs',
] as const;
