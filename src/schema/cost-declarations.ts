import { C_CHAIN_DECLARATIONS } from './cost-declarations-c-chain.js';
import {
  ASSET_DESCRIPTION,
  CHAIN_INFO_LOAD,
  LOAD_DECLARATIONS,
} from './cost-declarations-loads.js';
import {
  after,
  type CostDeclaration,
  calls,
  callsEach,
  DELEGATORS,
  data,
  eachItem,
  free,
  loadsParent,
  metrics,
  onEach,
  paged,
  perElement,
  pinnedRead,
  REWARDS,
  rpc,
  rpcCall,
  VALIDATORS,
} from './cost-helpers.js';

/**
 * What each field that reaches an upstream costs, in the upstream's compute units (CUs): the price, in
 * the one price table (src/upstream/compute-units.ts), of the Data API route (operationId), Metrics API
 * route or JSON-RPC method its loader calls. One line per field, `Type.field`, or per field that an
 * interface's implementations share (`onEach`); the tests fail on a field that reaches an upstream
 * without one, and on a printed weight that is not its route's price.
 */

/** An entity looked up by a global id: the dearest look-up one can name (an EvmLog's, its block's logs). */
export const ENTITY_LOOKUP = rpc('eth_getLogs');
/** An L1 validator by its validation id: mainnet, then Fuji. */
export const L1_VALIDATOR_LOOKUP = data('listL1Validators', 2);
/** Items a plain list of loaded items is assumed to hold. */
const ASSUMED_ITEMS = 10;

const block = calls(data('getBlock'));
const transaction = calls(data('getTransaction'));
const chainInfo = calls(data('getChainInfo'));
const contract = calls(data('getContractMetadata'));
const stakingTransaction = calls(data('getTxByHash'));
const validator = calls(data('getSingleValidatorDetails'));
const proposedBlocks = paged(data('listPrimaryNetworkBlocksByNodeId'));
const icmMessage = calls(data('getIcmMessage'));
const evmMetric = paged(metrics('getEvmChainMetrics'));
/** L1 validator fee series (`/v2/validators`, `/v2/validation`…): routes the Metrics page omits. */
const l1FeeMetrics = paged(metrics('GET /v2/validators'));

export const COST_DECLARATIONS: Record<string, CostDeclaration> = {
  // Entry points.
  'Query._entities': perElement(ENTITY_LOOKUP),
  'Query.node': calls(ENTITY_LOOKUP),
  'Query.nodes': perElement(ENTITY_LOOKUP),
  'Query.address': free(),
  'Query.block': block,
  // Both answer chains with their info: the info's fields need no call of their own.
  'Query.chain': { ...chainInfo, carries: [CHAIN_INFO_LOAD] },
  'Query.chains': { ...calls(data('supportedChains')), carries: [CHAIN_INFO_LOAD] },
  'Query.evmState': pinnedRead,
  'Query.icmMessage': icmMessage,
  'Query.icmMessages': paged(data('listIcmMessages')),
  'Query.latestBlocks': paged(data('listLatestBlocksAllChains')),
  'Query.latestTransactions': paged(data('listLatestTransactionsAllChains')),
  'Query.network': free(),
  'Query.networkNode': free(),
  'Query.networkNodes': free(),
  'Query.transaction': transaction,
  'Subscription.newBlocks': block,
  'Subscription.newTransactions': transaction,
  'Subscription.icmMessageStatus': icmMessage,
  // Live activity: the chain's source is shared by every subscriber; each event's links are the reads.
  'Subscription.addressActivity': rpcCall('eth_getBlockByNumber'),
  'Subscription.icmMessage': icmMessage,
  'AddressActivityEvent.block': block,
  'AddressActivityEvent.transaction': transaction,
  'IcmMessageUpdate.message': icmMessage,
  // Mutations: signature aggregation and the node's admin and issue methods.
  'Mutation.aggregateSignatures': calls(data('aggregateSignatures')),
  'Mutation.cChainAdminLockProfile': rpcCall('admin.lockProfile'),
  'Mutation.cChainAdminMemoryProfile': rpcCall('admin.memoryProfile'),
  'Mutation.cChainAdminSetLogLevel': rpcCall('admin.setLogLevel'),
  'Mutation.cChainAdminStartCpuProfiler': rpcCall('admin.startCPUProfiler'),
  'Mutation.cChainAdminStopCpuProfiler': rpcCall('admin.stopCPUProfiler'),
  'Mutation.cChainIssueAtomicTx': rpcCall('avax.issueTx'),
  'Mutation.nodeAdminAlias': rpcCall('admin.alias'),
  'Mutation.nodeAdminAliasChain': rpcCall('admin.aliasChain'),
  'Mutation.nodeAdminLoadVms': rpcCall('admin.loadVMs'),
  'Mutation.nodeAdminLockProfile': rpcCall('admin.lockProfile'),
  'Mutation.nodeAdminMemoryProfile': rpcCall('admin.memoryProfile'),
  'Mutation.nodeAdminSetLoggerLevel': rpcCall('admin.setLoggerLevel'),
  'Mutation.nodeAdminStartCpuProfiler': rpcCall('admin.startCPUProfiler'),
  'Mutation.nodeAdminStopCpuProfiler': rpcCall('admin.stopCPUProfiler'),
  'Mutation.xChainIssueTx': rpcCall('avm.issueTx'),
  // EVM chains, blocks, transactions.
  'Chain.blocks': paged(data('getLatestBlocks')),
  'Chain.transactions': paged(data('listLatestTransactions')),
  'Block.chain': chainInfo,
  'Block.parent': block,
  'Block.transactions': paged(data('getTransactionsForBlock')),
  // Pinned by the block's own hash: the EVM endpoint's chain id is checked before the first read.
  'Block.state': rpcCall('eth_chainId'),
  'Transaction.block': block,
  // A transaction from a list carries the list form: these read the full one (get-transaction), once
  // per transaction whichever of them are selected (`loadsParent`).
  ...Object.fromEntries(
    [
      'input',
      'baseFeePerGas',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
      'networkToken',
      'icmMessageInfo',
      'erc20Transfers',
      'erc721Transfers',
      'erc1155Transfers',
      'internalTransactions',
    ].map((f) => [`Transaction.${f}`, loadsParent(data('getTransaction'))]),
  ),
  // Its current price is read apart (a head-class entry of the same route, src/upstream/data-api.ts).
  'TransactionNetworkToken.currentPrice': transaction,
  // Its block's logs (eth_getLogs by block hash), one read per block, of about ASSUMED_ITEMS logs.
  'Transaction.logs': { ...rpcCall('eth_getLogs'), listSize: { assumedSize: ASSUMED_ITEMS } },
  ...onEach(['InternalTransaction', 'Erc20Transfer', 'Erc721Transfer', 'Erc1155Transfer'], {
    block,
    transaction,
  }),
  'ContractDeployment.transaction': transaction,
  'MetricsChain.chain': chainInfo,
  'Blockchain.chain': chainInfo,
  'Blockchain.subnet': calls(data('getSubnetById')),
  // Addresses and contracts.
  'Address.balance': calls(data('getNativeBalance')),
  'Address.chains': calls(data('listAddressChains')),
  'Address.collectibleBalances': paged(data('listCollectibleBalances')),
  'Address.deployedContracts': paged(data('listContractDeployments')),
  'Address.erc20Balances': paged(data('listErc20Balances')),
  'Address.erc20Transfers': paged(data('listErc20Transactions')),
  'Address.erc721Balances': paged(data('listErc721Balances')),
  'Address.erc721Transfers': paged(data('listErc721Transactions')),
  'Address.erc1155Balances': paged(data('listErc1155Balances')),
  'Address.erc1155Transfers': paged(data('listErc1155Transactions')),
  'Address.icmMessages': paged(data('listIcmMessagesByAddress')),
  'Address.internalTransactions': paged(data('listInternalTransactions')),
  'Address.nativeTransactions': paged(data('listNativeTransactions')),
  'Address.transactions': paged(data('listTransactions')),
  'Address.state': pinnedRead,
  ...onEach(['Address', 'Erc20Balance', 'Erc721Balance', 'Erc1155Balance'], { contract }),
  ...onEach(['Erc20Contract', 'Erc721Contract', 'Erc1155Contract', 'UnknownContract'], {
    deploymentTransaction: calls(data('getDeploymentTransaction')),
    transfers: paged(data('listTransfers')),
  }),
  ...onEach(['Erc721Contract', 'Erc1155Contract'], {
    token: calls(data('getTokenDetails')),
    tokens: paged(data('listTokens')),
  }),
  // EVM state over the node's JSON-RPC.
  'EvmState.blockHash': rpcCall('eth_getBlockByNumber'),
  'EvmState.feeHistory': rpcCall('eth_feeHistory'),
  'EvmState.logs': paged(rpc('eth_getLogs')),
  'EvmState.stateRoot': rpcCall('eth_getBlockByNumber'),
  'EvmState.timestamp': rpcCall('eth_getBlockByNumber'),
  'EvmAccountState.balance': rpcCall('eth_getBalance'),
  'EvmAccountState.call': rpcCall('eth_call'),
  'EvmAccountState.code': rpcCall('eth_getCode'),
  'EvmAccountState.estimateGas': rpcCall('eth_estimateGas'),
  'EvmAccountState.nonce': rpcCall('eth_getTransactionCount'),
  'EvmAccountState.proof': rpcCall('eth_getProof'),
  'EvmAccountState.storage': rpcCall('eth_getStorageAt'),
  'Erc20Reads.balanceOf': rpcCall('eth_call'),
  'Erc20Reads.decimals': rpcCall('eth_call'),
  'Erc20Reads.symbol': rpcCall('eth_call'),
  // Chain metrics (Metrics API, on its own scale).
  'ChainMetrics.avgTps': evmMetric,
  'ChainMetrics.info': calls(metrics('getChain')),
  'ChainMetrics.rollingWindow': calls(metrics('getEvmChainRollingWindowMetrics')),
  'ChainMetrics.series': evmMetric,
  // Interchain messages.
  ...onEach(['DeliveredIcmMessage', 'DeliveredSourceNotIndexedIcmMessage', 'PendingIcmMessage'], {
    destinationChain: chainInfo,
    sourceChain: chainInfo,
  }),
  'IcmDestinationTransaction.transaction': transaction,
  'IcmSourceTransaction.transaction': transaction,
  // The primary network.
  'Network.addressChainIds': calls(data('getChainIdsForAddresses')),
  'Network.aggregatedSignatures': calls(data('getAggregatedSignatures')),
  'Network.avaxSupply': calls(data('getAvaxSupply')),
  'Network.balances': calls(data('getBalancesByAddresses')),
  'Network.block': calls(data('getBlockById')),
  'Network.blockchain': calls(data('getBlockchainById')),
  'Network.blockchains': paged(data('listBlockchains')),
  'Network.blocks': paged(data('listLatestPrimaryNetworkBlocks')),
  'Network.blocksProposedBy': proposedBlocks,
  'Network.delegators': paged(data('listDelegators')),
  'Network.details': calls(data('getNetworkDetails')),
  'Network.historicalRewards': paged(data('listHistoricalPrimaryNetworkRewards')),
  'Network.icmMetrics': paged(metrics('getICMTimeseries')),
  'Network.icmSummary': calls(metrics('getICMSummary')),
  'Network.l1ValidatorFeeMetrics': l1FeeMetrics,
  'Network.l1Validators': paged(data('listL1Validators')),
  'Network.lastActivity': calls(
    data('GET /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses'),
  ),
  'Network.metricsChains': paged(metrics('listChains')),
  'Network.pendingRewards': after(
    paged(data('listPendingPrimaryNetworkRewards')),
    data('listValidators'),
  ),
  'Network.stakingMetrics': paged(metrics('getStakingMetrics')),
  'Network.stakingTransactions': paged(data('listActivePrimaryNetworkStakingTransactions')),
  'Network.subnet': calls(data('getSubnetById')),
  'Network.subnets': paged(data('listSubnets')),
  'Network.transaction': calls(data('getTxByHash')),
  'Network.transactions': paged(data('listLatestPrimaryNetworkTransactions')),
  'Network.utxos': paged(data('getUtxosByAddresses')),
  'Network.validators': paged(data('listValidators')),
  'Network.xChainAssetDetails': calls(data('getAssetDetails')),
  'Network.xChainVertex': calls(data('getVertexByHash')),
  'Network.xChainVertices': paged(data('listLatestXChainVertices')),
  'Network.xChainVerticesAtHeight': paged(data('getVertexByHeight')),
  'XChainVertex.parents': eachItem(data('getVertexByHash'), ASSUMED_ITEMS),
  'XChainNonLinearTransaction.vertices': eachItem(data('getVertexByHash'), ASSUMED_ITEMS),
  'PChainBlock.transactions': eachItem(data('getTxByHash'), ASSUMED_ITEMS),
  'Subnet.feeMetrics': l1FeeMetrics,
  'Subnet.l1Validators': paged(data('listL1Validators')),
  'Subnet.validators': paged(data('listValidators')),
  'L1Validator.feeMetrics': l1FeeMetrics,
  'L1Validator.nodeFeeMetrics': l1FeeMetrics,
  'L1ValidatorTxDetails.l1Validator': calls(L1_VALIDATOR_LOOKUP),
  'Utxo.asset': ASSET_DESCRIPTION,
  // A reference (the node and the tx id): the transaction's own fields pay for what they load.
  'Utxo.transaction': free(),
  ...onEach([...DELEGATORS, ...REWARDS], { stakingTransaction, validator }),
  ...onEach(VALIDATORS, {
    // Network.delegators(nodeIds: [its node]).
    delegators: paged(data('listDelegators')),
    stakingTransaction,
    networkNode: rpcCall('platform.getCurrentValidators'),
    proposedBlocks,
  }),
  'HistoricalReward.rewardTransaction': stakingTransaction,
  'StakingTransaction.validator': validator,
  // The configured node (JSON-RPC: `info.*`, `platform.*`, `admin.*`, the C- and X-Chain APIs).
  'NetworkNode.acps': rpcCall('info.acps'),
  'NetworkNode.admin': free(),
  'NetworkNode.blockchainId': rpcCall('info.getBlockchainID'),
  'NetworkNode.featureExtensions': rpcCall('platform.getFeatureExtensions'),
  'NetworkNode.ip': rpcCall('info.getNodeIP'),
  'NetworkNode.isBootstrapped': rpcCall('info.isBootstrapped'),
  // The node's series, after its id (info.getNodeID).
  'NetworkNode.l1FeeMetrics': after(l1FeeMetrics, rpc('info.getNodeID')),
  'NetworkNode.network': rpcCall('info.getNetworkID'),
  'NetworkNode.networkId': rpcCall('info.getNetworkID'),
  'NetworkNode.networkName': rpcCall('info.getNetworkName'),
  'NetworkNode.nodeId': rpcCall('info.getNodeID'),
  'NetworkNode.peers': paged(rpc('info.peers')),
  'NetworkNode.proofOfPossession': rpcCall('info.getNodeID'),
  'NetworkNode.txFee': rpcCall('info.getTxFee'),
  'NetworkNode.upgrades': rpcCall('info.upgrades'),
  'NetworkNode.uptime': rpcCall('info.uptime'),
  'NetworkNode.validators': paged(rpc('platform.getCurrentValidators')),
  'NetworkNode.version': rpcCall('info.getNodeVersion'),
  'NetworkNode.vms': rpcCall('info.getVMs'),
  'NetworkNodeAdmin.chainAliases': rpcCall('admin.getChainAliases'),
  'NetworkNodeAdmin.loggerLevels': rpcCall('admin.getLoggerLevel'),
  'NetworkPeer.validators': paged(rpc('platform.getCurrentValidators')),
  ...C_CHAIN_DECLARATIONS,
  ...onEach(['CChainExportTransaction', 'CChainImportTransaction'], { block }),
  // Its block is found by the node's chain id and the height the node gives; its status is a call of its own.
  'CChainAtomicTransaction.block': callsEach(
    data('getBlock'),
    rpc('eth_chainId'),
    rpc('avax.getAtomicTx'),
  ),
  'CChainAtomicTransaction.status': rpcCall('avax.getAtomicTxStatus'),
  ...LOAD_DECLARATIONS,
};
