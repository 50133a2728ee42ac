import type { ResourceKind } from '../upstream/resources.js';

/**
 * The surrogate keys (CDN cache tags) of an upstream request: the names of the facts an answer built from
 * it holds, so a CDN in front of the gateway can purge every response holding a fact when the fact
 * changes (docs/cdn.md). Tags are made from the request alone (resource, path, query, body), as the cache
 * key is, never from the answer: a response served from any cache names the same facts as a fresh one.
 *
 * The vocabulary, `<kind>:<scope>[:<id>]` in lower case, where a scope is an EVM chain id (`43114`) or a
 * primary-network chain (`mainnet.p-chain`; the primary C-Chain is its EVM chain id):
 * - `chain:<scope>:head`: anything that follows the chain's head (latest lists, primary-network lists);
 *   purged on each new block of the chain.
 * - `address:<scope>:<address>`: an address's head data on one chain (balances, every page of its lists,
 *   a token's transfers by the token's address, an NFT collection by its contract); purged when a block
 *   touches the address. `address:<address>`: the chains an address is on (all chains).
 * - `block:<scope>:<id>`, `tx:<scope>:<hash>`, `asset:<scope>:<id>`, `contract:<scope>:<address>`:
 *   final entities (or slow metadata), never purged by a block.
 * - `validator:<network>:<nodeId>`, `network:<network>:staking` (validator sets, delegators, rewards),
 *   `network:<network>:subnets`, `subnet:<network>:<id>`, `blockchain:<network>:<id>`.
 * - `icm:<messageId>`, `icm-address:<address>`, `icm:head` (the global list of messages).
 * - `chains` (the chain list), `chain:<scope>` (a chain's own record), `chains:head` (lists across every
 *   chain), `avax:supply`, `metrics` (every Metrics API answer), `node:<name>` and `node:<name>:head`.
 */
export interface TaggedRequest {
  upstream: string;
  resource: ResourceKind;
  path: string;
  query: Record<string, unknown>;
  body?: unknown;
}

/** A request's tags; null: deliberately untagged (the kind is never cached, so no response holding it is shared). */
export type TagRule = ((req: TaggedRequest) => string[]) | null;

/** One path or query part as a tag part: decoded, then encoded again (no space or comma), in lower case. */
export function tagPart(raw: string | undefined): string {
  let s = raw ?? '';
  try {
    s = decodeURIComponent(s);
  } catch {
    // A malformed escape: the part as it is, encoded below.
  }
  return encodeURIComponent(s).toLowerCase();
}

const seg = (req: TaggedRequest, i: number) => tagPart(req.path.split('/')[i]);

/** The EVM chain id of the primary network's C-Chain, by network: its tags share the EVM chain's scope. */
const PRIMARY_C_CHAIN: Record<string, string> = { mainnet: '43114', fuji: '43113' };

/** The scope of a `/v1/networks/{network}/blockchains/{chain}/…` route. */
function primaryScope(req: TaggedRequest): string {
  const network = seg(req, 3);
  const chain = seg(req, 5);
  return (chain === 'c-chain' && PRIMARY_C_CHAIN[network]) || `${network}.${chain}`;
}

/** The addresses a request names (`addresses`, a comma list, in its query or, past the URL's length, in its body). */
function addressesOf(req: TaggedRequest): string[] {
  const fromBody =
    typeof req.body === 'object' && req.body !== null
      ? (req.body as { addresses?: unknown }).addresses
      : undefined;
  const raw = req.query.addresses ?? fromBody;
  return typeof raw === 'string' ? raw.split(',').filter(Boolean).map(tagPart) : [];
}

// Data API, EVM routes: `/v1/chains/{chainId}/<route>/{id}/…`.
const evmHead = (req: TaggedRequest) => [`chain:${seg(req, 3)}:head`];
const evmAddress = (req: TaggedRequest) => [`address:${seg(req, 3)}:${seg(req, 5)}`];
const evmOne = (kind: string, at: number) => (req: TaggedRequest) => [
  `${kind}:${seg(req, 3)}:${seg(req, at)}`,
];
// Data API, primary network: `/v1/networks/{network}/…`.
const primaryHead = (req: TaggedRequest) => [`chain:${primaryScope(req)}:head`];
const primaryOne = (kind: string) => (req: TaggedRequest) => [
  `${kind}:${primaryScope(req)}:${seg(req, 7)}`,
];
const primaryAddresses = (req: TaggedRequest) =>
  addressesOf(req).map((a) => `address:${primaryScope(req)}:${a}`);
const staking = (req: TaggedRequest) => [`network:${seg(req, 3)}:staking`];
const subnets = (req: TaggedRequest) => [`network:${seg(req, 3)}:subnets`];
const metrics = () => ['metrics'];
/** A node's reads: its head data follows the chains it serves (its own head feed); the rest is its own. */
const nodeSlow = (req: TaggedRequest) => [`node:${nodeName(req)}`];
const nodeHead = (req: TaggedRequest) => [`node:${nodeName(req)}:head`];
/** The node's configured name (its key is `<name>@<hash of its URL>`). */
const nodeName = (req: TaggedRequest) => tagPart(String(req.query.node ?? '').split('@')[0]);

/**
 * Every resource kind's rule, checked complete by the compiler (and by test/unit/surrogate-keys.test.ts,
 * whose table names every kind): a new kind is either tagged or declared untagged here.
 */
export const TAG_RULES = {
  'data.chains': () => ['chains'],
  'data.chain': (req) => [`chain:${seg(req, 3)}`],
  'data.latestBlocks': evmHead,
  'data.block': evmOne('block', 5),
  'data.blockTransactions': evmOne('block', 5),
  'data.transaction': evmOne('tx', 5),
  // The transaction's price now moves with the market, which no block feed sees: the transaction's tag
  // and its chain's head (the gateway refreshes it each head), so a block purge keeps a CDN in step.
  'data.transactionPrice': (req) => [...evmOne('tx', 5)(req), ...evmHead(req)],
  'data.latestTransactions': evmHead,
  // Every page of an address's lists, not only the first: a later page is the last one, which grows.
  'data.addressTransactions': evmAddress,
  'data.addressNativeTransactions': evmAddress,
  'data.addressErc20Transfers': evmAddress,
  'data.addressErc721Transfers': evmAddress,
  'data.addressErc1155Transfers': evmAddress,
  'data.addressInternalTransactions': evmAddress,
  'data.nativeBalance': evmAddress,
  'data.erc20Balances': evmAddress,
  'data.erc721Balances': evmAddress,
  'data.erc1155Balances': evmAddress,
  'data.collectibleBalances': evmAddress,
  // A contract's metadata is slow and not touched by calls to it: a tag of its own, not the address's.
  'data.contract': evmOne('contract', 5),
  // A token's transfers change when a block touches the token's contract (its logs).
  'data.tokenTransfers': evmAddress,
  // An NFT's owner changes on a transfer, which touches the collection's contract.
  'data.nftTokens': evmOne('address', 6),
  'data.nftToken': evmOne('address', 6),
  'data.contractDeployments': evmAddress,
  'data.deploymentTransaction': evmOne('contract', 5),
  'data.latestBlocksAllChains': () => ['chains:head'],
  'data.latestTransactionsAllChains': () => ['chains:head'],
  'data.addressChains': (req) => [`address:${seg(req, 3)}`],
  'data.validators': (req) => [`validator:${seg(req, 3)}:${seg(req, 5)}`],
  'data.l1Validators': staking,
  'data.networkValidators': staking,
  'data.delegators': staking,
  'data.pendingRewards': staking,
  'data.historicalRewards': staking,
  'data.networkDetails': staking,
  'data.stakingTransactions': primaryHead,
  'data.pChainTransactions': primaryHead,
  'data.pChainBlocks': primaryHead,
  'data.xChainVertices': primaryHead,
  'data.xChainTransactions': primaryHead,
  'data.cChainTransactions': primaryHead,
  'data.assetTransactions': primaryHead,
  'data.pChainBlock': primaryOne('block'),
  'data.xChainVertex': primaryOne('block'),
  'data.xChainAssetDetails': primaryOne('asset'),
  'data.pChainTransaction': primaryOne('tx'),
  'data.xChainTransaction': primaryOne('tx'),
  'data.cChainTransaction': primaryOne('tx'),
  'data.primaryBalances': primaryAddresses,
  'data.primaryUtxos': primaryAddresses,
  'data.lastActivity': primaryAddresses,
  'data.addressChainIds': (req) => addressesOf(req).map((a) => `address:${a}`),
  'data.subnets': subnets,
  'data.blockchains': subnets,
  'data.subnet': (req) => [`subnet:${seg(req, 3)}:${seg(req, 5)}`],
  'data.blockchain': (req) => [`blockchain:${seg(req, 3)}:${seg(req, 5)}`],
  'data.avaxSupply': () => ['avax:supply'],
  'data.icmMessages': (req) => [`icm-address:${seg(req, 4)}`],
  'data.icmMessage': (req) => [`icm:${seg(req, 4)}`],
  'data.icmMessagesAll': () => ['icm:head'],
  'data.signatureAggregation': null,
  // The Metrics API's series move when its aggregation job runs, which no feed of the gateway sees: one
  // tag for all of them, for an operator who purges after the job.
  'metrics.chainMetric': metrics,
  'metrics.rollingWindow': metrics,
  'metrics.stakingMetric': metrics,
  'metrics.chains': metrics,
  'metrics.chain': metrics,
  'metrics.icmTimeseries': metrics,
  'metrics.icmSummary': metrics,
  'metrics.l1ValidatorFees': metrics,
  'node.info.getNodeID': nodeSlow,
  'node.info.getNodeIP': nodeSlow,
  'node.info.getNodeVersion': nodeSlow,
  'node.info.getNetworkID': nodeSlow,
  'node.info.getNetworkName': nodeSlow,
  'node.info.getBlockchainID': nodeSlow,
  'node.info.upgrades': nodeSlow,
  'node.info.acps': nodeSlow,
  'node.info.getVMs': nodeSlow,
  'node.info.uptime': nodeSlow,
  'node.info.isBootstrapped': nodeHead,
  'node.info.peers': nodeHead,
  'node.info.getTxFee': nodeHead,
  'node.avm.getHeight': nodeHead,
  'node.avm.getTxFee': nodeHead,
  'node.avm.getTxStatus': nodeHead,
  'node.avm.getUTXOs': nodeHead,
  'node.avm.getBalance': nodeHead,
  'node.avm.getAllBalances': nodeHead,
  'node.avm.getBlock': nodeSlow,
  'node.avm.getBlockByHeight': nodeSlow,
  'node.avm.getTx': nodeSlow,
  'node.avm.getAssetDescription': nodeSlow,
  'node.evm.eth_chainId': nodeSlow,
  'node.evm.net_version': nodeSlow,
  'node.evm.web3_clientVersion': nodeSlow,
  'node.evm.eth_getChainConfig': nodeSlow,
  'node.evm.eth_blockNumber': nodeHead,
  'node.evm.eth_baseFee': nodeHead,
  'node.evm.eth_maxPriorityFeePerGas': nodeHead,
  'node.evm.eth_gasPrice': nodeHead,
  'node.evm.eth_syncing': nodeHead,
  'node.evm.eth_getBalance': nodeHead,
  'node.evm.eth_getTransactionCount': nodeHead,
  'node.evm.state': nodeSlow,
  'node.evm.headState': nodeHead,
  'node.avax.getAtomicTx': nodeSlow,
  'node.avax.getAtomicTxStatus': nodeHead,
  'node.avax.getUTXOs': nodeHead,
  // Admin calls and issuing are never cached: a response holding them is never shared.
  'node.admin': null,
  'node.issueTx': null,
} as const satisfies Record<ResourceKind, TagRule>;

/** The tags of one upstream request (none for an untagged kind). */
export function surrogateKeysOf(req: TaggedRequest): string[] {
  const rule: TagRule = TAG_RULES[req.resource];
  return rule ? rule(req) : [];
}
