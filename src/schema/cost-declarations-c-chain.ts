import { type CostDeclaration, callsEach, data, paged, rpc, rpcCall } from './cost-helpers.js';

/** The C-Chain's node fields (`cChain { … }`): JSON-RPC calls, a few with the Data API (src/schema/cost-declarations.ts). */
export const C_CHAIN_DECLARATIONS: Record<string, CostDeclaration> = {
  'CChain.atomicTransaction': rpcCall('avax.getAtomicTx'),
  'CChain.atomicUtxos': paged(rpc('avax.getUTXOs')),
  'CChain.balance': rpcCall('eth_getBalance'),
  'CChain.baseFee': rpcCall('eth_baseFee'),
  'CChain.blockNumber': rpcCall('eth_blockNumber'),
  // The node's chain id names the chain whose information is read.
  'CChain.chain': callsEach(data('getChainInfo'), rpc('eth_chainId')),
  'CChain.chainConfig': rpcCall('eth_getChainConfig'),
  'CChain.chainId': rpcCall('eth_chainId'),
  'CChain.clientVersion': rpcCall('web3_clientVersion'),
  'CChain.gasPrice': rpcCall('eth_gasPrice'),
  'CChain.isSyncing': rpcCall('eth_syncing'),
  // The node's chain id and head number, then that block from the Data API (or, not indexed yet, its header).
  'CChain.latestBlock': callsEach(
    rpc('eth_chainId'),
    rpc('eth_blockNumber'),
    data('getBlock'),
    rpc('eth_getBlockByNumber'),
  ),
  'CChain.maxPriorityFeePerGas': rpcCall('eth_maxPriorityFeePerGas'),
  'CChain.netVersion': rpcCall('net_version'),
  'CChain.syncProgress': rpcCall('eth_syncing'),
  'CChain.transactionCount': rpcCall('eth_getTransactionCount'),
  'CChain.vmConfig': rpcCall('admin.getVMConfig'),
};
