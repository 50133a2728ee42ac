/**
 * The simulator's own copy of the published compute-unit prices: what the simulated upstreams charge.
 * Sources: "Rate Limits for the Data API" (its route table and its "Rate Limits for RPC endpoints"),
 * https://build.avax.network/docs/api-reference/data-api/rate-limits, and "Rate Limits for the Metrics
 * API", https://build.avax.network/docs/api-reference/metrics-api/rate-limits (its own scale); a few
 * routes the pages omit carry the OpenAPI spec's `x-execution-weight`. The gateway keeps its own table
 * (src/upstream/compute-units-table.ts); test/unit/price-tables.test.ts compares the two route by route,
 * so a wrong price in either is caught by their disagreement. Imports nothing.
 */

/** What a route or method the lists omit costs: the pages' documented default class (Medium). */
export const DEFAULT_CU = { data: 20, metrics: 100, rpc: 20 } as const;
export type PricedApi = keyof typeof DEFAULT_CU;

/** Data API: [method and endpoint as the page writes it, CUs]. */
export const DATA_API: readonly (readonly [string, number])[] = [
  ['GET /v1/health-check', 20], // data-health-check
  ['GET /v1/address/{address}/chains', 20], // listAddressChains
  ['GET /v1/transactions', 20], // listLatestTransactionsAllChains
  ['GET /v1/blocks', 20], // listLatestBlocksAllChains
  ['POST /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex', 10], // reindexNft
  ['GET /v1/chains/{chainId}/nfts/collections/{address}/tokens', 20], // listTokens
  ['GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}', 20], // getTokenDetails
  ['GET /v1/operations/{operationId}', 10], // getOperationResult
  ['POST /v1/operations/transactions:export', 20], // postTransactionExportJob
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}', 20], // getTxByHash
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/transactions', 100], // listLatestPrimaryNetworkTransactions
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking', 100], // listActivePrimaryNetworkStakingTransactions
  ['GET /v1/networks/{network}/rewards:listPending', 100], // listPendingPrimaryNetworkRewards
  ['GET /v1/networks/{network}/rewards', 100], // listHistoricalPrimaryNetworkRewards
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/utxos', 100], // getUtxosByAddresses
  ['POST /v1/networks/{network}/blockchains/{blockchainId}/utxos', 100], // getUtxosByAddressesV2
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/balances', 100], // getBalancesByAddresses
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}', 100], // getBlockById
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks', 20], // listPrimaryNetworkBlocksByNodeId
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/blocks', 20], // listLatestPrimaryNetworkBlocks
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/vertices', 20], // listLatestXChainVertices
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}', 20], // getVertexByHash
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight', 20], // getVertexByHeight
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}', 100], // getAssetDetails
  ['GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions', 100], // listAssetTransactions
  ['GET /v1/networks/{network}/addresses:listChainIds', 100], // getChainIdsForAddresses
  ['GET /v1/networks/{network}', 100], // getNetworkDetails
  ['GET /v1/networks/{network}/blockchains', 20], // listBlockchains
  ['GET /v1/networks/{network}/blockchains/{blockchainId}', 20], // getBlockchainById
  ['GET /v1/networks/{network}/subnets', 20], // listSubnets
  ['GET /v1/networks/{network}/subnets/{subnetId}', 20], // getSubnetById
  ['GET /v1/networks/{network}/validators', 20], // listValidators
  ['GET /v1/networks/{network}/validators/{nodeId}', 20], // getSingleValidatorDetails
  ['GET /v1/networks/{network}/delegators', 20], // listDelegators
  ['GET /v1/networks/{network}/l1Validators', 20], // listL1Validators
  ['GET /v1/teleporter/messages/{messageId}', 20], // getTeleporterMessage
  ['GET /v1/teleporter/messages', 20], // listTeleporterMessages
  ['GET /v1/teleporter/addresses/{address}/messages', 20], // listTeleporterMessagesByAddress
  ['GET /v1/icm/messages/{messageId}', 20], // getIcmMessage
  ['GET /v1/icm/messages', 20], // listIcmMessages
  ['GET /v1/icm/addresses/{address}/messages', 20], // listIcmMessagesByAddress
  ['GET /v1/apiUsageMetrics', 200], // getApiUsageMetrics
  ['GET /v1/apiLogs', 200], // getApiLogs
  ['GET /v1/subnetRpcUsageMetrics', 200], // getSubnetRpcUsageMetrics
  ['GET /v1/rpcUsageMetrics', 200], // getRpcUsageMetrics
  ['GET /v1/primaryNetworkRpcUsageMetrics', 200], // getPrimaryNetworkRpcUsageMetrics
  ['POST /v1/signatureAggregator/{network}/aggregateSignatures', 20], // aggregateSignatures
  ['GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}', 20], // getAggregatedSignatures
  ['GET /v1/chains/{chainId}/addresses/{address}/balances:getNative', 20], // getNativeBalance
  ['GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20', 20], // listErc20Balances
  ['GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721', 20], // listErc721Balances
  ['GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155', 20], // listErc1155Balances
  ['GET /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles', 20], // listCollectibleBalances
  ['GET /v1/chains/{chainId}/blocks', 10], // getLatestBlocks
  ['GET /v1/chains/{chainId}/blocks/{blockId}', 10], // getBlock
  ['GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment', 20], // getDeploymentTransaction
  ['GET /v1/chains/{chainId}/contracts/{address}/deployments', 20], // listContractDeployments
  ['GET /v1/chains/{chainId}/addresses/{address}', 20], // getContractMetadata
  ['GET /v1/chains', 1], // supportedChains
  ['GET /v1/chains/{chainId}', 1], // getChainInfo
  ['GET /v1/chains/address/{address}', 1], // getAddressChains
  ['GET /v1/chains/allTransactions', 1], // listAllLatestTransactions
  ['GET /v1/chains/allBlocks', 1], // listAllLatestBlocks
  ['GET /v1/chains/{chainId}/tokens/{address}/transfers', 20], // listTransfers
  ['GET /v1/chains/{chainId}/addresses/{address}/transactions', 20], // listTransactions
  ['GET /v2/chains/{chainId}/addresses/{address}/transactions', 20], // listTransactionsV2
  ['GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative', 20], // listNativeTransactions
  ['GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc20', 20], // listErc20Transactions
  ['GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc721', 20], // listErc721Transactions
  ['GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc1155', 20], // listErc1155Transactions
  ['GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals', 20], // listInternalTransactions
  ['GET /v1/chains/{chainId}/transactions/{txHash}', 20], // getTransaction
  ['GET /v1/chains/{chainId}/blocks/{blockId}/transactions', 20], // getTransactionsForBlock
  ['GET /v1/chains/{chainId}/transactions', 20], // listLatestTransactions
  ['GET /v1/avax/supply', 1], // getAvaxSupply
];

/** Metrics API, on its own scale. */
export const METRICS_API: readonly (readonly [string, number])[] = [
  ['GET /v2/health-check', 1], // metrics-health-check
  ['GET /v2/chains', 1], // listChains
  ['GET /v2/chains/{chainId}', 1], // getChain
  ['GET /v2/chains/{chainId}/metrics/{metric}', 100], // getEvmChainMetrics
  ['GET /v2/chains/{chainId}/teleporterMetrics/{metric}', 100], // getTeleporterMetricsByChain
  ['GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}', 100], // getEvmChainRollingWindowMetrics
  ['GET /v2/networks/{network}/metrics/{metric}', 100], // getStakingMetrics
  ['GET /v2/icm/timeseries', 20], // getICMTimeseries
  ['GET /v2/icm/summary', 20], // getICMSummary
];

/** JSON-RPC methods (the Data API page's "Rate Limits for RPC endpoints"). */
export const RPC: Readonly<Record<string, number>> = {
  eth_accounts: 1,
  eth_blockNumber: 10,
  eth_call: 10,
  eth_coinbase: 10,
  eth_chainId: 1,
  eth_gasPrice: 10,
  eth_getBalance: 10,
  eth_getBlockByHash: 10,
  eth_getBlockByNumber: 10,
  eth_getBlockTransactionCountByNumber: 20,
  eth_getCode: 20,
  eth_getLogs: 200,
  eth_getStorageAt: 20,
  eth_getTransactionByBlockNumberAndIndex: 20,
  eth_getTransactionByHash: 10,
  eth_getTransactionCount: 10,
  eth_getTransactionReceipt: 10,
  eth_signTransaction: 20,
  eth_sendTransaction: 20,
  eth_sign: 20,
  eth_sendRawTransaction: 10,
  eth_syncing: 1,
  net_listening: 1,
  net_peerCount: 20,
  net_version: 1,
  web3_clientVersion: 10,
  web3_sha3: 10,
  eth_newPendingTransactionFilter: 20,
  eth_maxPriorityFeePerGas: 10,
  eth_baseFee: 10,
  rpc_modules: 1,
  eth_getChainConfig: 10,
  eth_feeConfig: 10,
  eth_getActivePrecompilesAt: 10,
};

/** A route's shape for matching: every `{param}` or `:param` segment is `{}`, literals stay. */
const shape = (methodAndPath: string): string => {
  const space = methodAndPath.indexOf(' ');
  const method = methodAndPath.slice(0, space).toUpperCase();
  const path = methodAndPath
    .slice(space + 1)
    .split(/[?#]/, 1)[0]!
    .split('/')
    .map((s) => (s.startsWith('{') || s.startsWith(':') ? '{}' : s))
    .join('/');
  return `${method} ${path}`;
};
const byShape = (rows: readonly (readonly [string, number])[]) =>
  new Map(rows.map(([route, cu]) => [shape(route), cu]));
const TABLES = { data: byShape(DATA_API), metrics: byShape(METRICS_API) };

/**
 * What one call costs: `route` is `METHOD /path/template` as the simulator's router names it
 * (`GET /v1/chains/:chainId/blocks`) for `data` and `metrics`, a JSON-RPC method for `rpc`.
 */
export function simCu(api: PricedApi, route: string): number {
  if (api === 'rpc') return RPC[route] ?? DEFAULT_CU.rpc;
  return TABLES[api].get(shape(route)) ?? DEFAULT_CU[api];
}
