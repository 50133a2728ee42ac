import type { ResourceKind } from '../upstream/resources.js';
/**
 * How long each kind of upstream answer may be served from cache: the one place TTLs are decided.
 *
 * Accepted blocks on Avalanche chains are final (no reorgs), so anything addressed by hash, or by a
 * number the upstream already answered for, never changes: it lives long and leaves by LRU eviction.
 * Head-dependent answers (latest lists, first pages, balances, heights) live about one block time.
 * Pages fetched with an upstream page token are positional and stable for the token's own life.
 * Never cached: admin methods, signature aggregation, transaction issuing, 5xx answers. 404s briefly.
 */
export type CacheClass = 'immutable' | 'head' | 'tokenPage' | 'slow' | 'notFound' | 'never';

export interface TtlSpec {
  /** Served as fresh for this long. 0 = not cached. */
  ttlMs: number;
  /** Past freshness: served at once while one refresh runs (stale-while-revalidate). */
  swrMs: number;
  /** Past freshness: served when the upstream fails transiently (stale-if-error). */
  staleIfErrorMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** @default seconds per class, overridable per gateway (tests shorten them). */
export const DEFAULT_TTL_MS: Record<CacheClass, number> = {
  immutable: 7 * 24 * HOUR,
  head: 2 * SECOND,
  // Upstream page tokens expire after 24 h; stop serving a page a little before its token dies.
  tokenPage: 23 * HOUR,
  slow: 5 * MINUTE,
  notFound: 5 * SECOND,
  never: 0,
};

/**
 * Stale windows per class. Stale-while-revalidate stays short for head data (a client should not see a
 * head older than a few blocks just because traffic was sparse); stale-if-error is generous: an old answer
 * marked stale beats an error while the upstream is down.
 */
export const DEFAULT_STALE_MS: Record<CacheClass, { swr: number; ifError: number }> = {
  immutable: { swr: 0, ifError: 0 },
  head: { swr: 2 * SECOND, ifError: 5 * MINUTE },
  tokenPage: { swr: 0, ifError: HOUR },
  slow: { swr: MINUTE, ifError: 6 * HOUR },
  notFound: { swr: 0, ifError: 0 },
  never: { swr: 0, ifError: 0 },
};

/** The class of every upstream resource the gateway reads (the names are the upstream layer's: `upstream/resources.ts`). */
export const RESOURCE_CLASS = {
  // Data API — EVM
  'data.chains': 'slow',
  'data.chain': 'slow',
  'data.latestBlocks': 'head',
  'data.block': 'immutable',
  'data.blockTransactions': 'immutable',
  'data.transaction': 'immutable',
  // The same get-transaction answer read for its price *now* (networkTokenDetails.currentPrice): head data
  // inside an otherwise final object, so it is cached apart, under its own key (see UpstreamRequest.variant).
  'data.transactionPrice': 'head',
  'data.latestTransactions': 'head',
  // Address lists: the first page follows the head; token pages are positional (the policy makes them tokenPage).
  'data.addressTransactions': 'head',
  'data.addressNativeTransactions': 'head',
  'data.addressErc20Transfers': 'head',
  'data.addressErc721Transfers': 'head',
  'data.addressErc1155Transfers': 'head',
  'data.addressInternalTransactions': 'head',
  'data.nativeBalance': 'head',
  'data.contract': 'slow',
  // Data API — primary network: validator sets move slowly; staking lists and balances follow the P-Chain head.
  'data.validators': 'slow',
  'data.l1Validators': 'slow',
  'data.stakingTransactions': 'head',
  'data.primaryBalances': 'head',
  // The network's validator set and delegations move slowly (a period starts or ends now and then);
  // historical rewards and the network totals gain items as stakes end.
  'data.networkValidators': 'slow',
  'data.delegators': 'slow',
  // Pending rewards gain an item when a stake is added and lose one when it ends, as the delegators list
  // does; an item's estimated reward is fixed by its stake, and its progress moves under 0.05 % in a slow
  // TTL of a stake's two weeks or more.
  'data.pendingRewards': 'slow',
  'data.historicalRewards': 'head',
  'data.networkDetails': 'slow',
  // The latest P-Chain transactions: newest first, the first page follows the head.
  'data.pChainTransactions': 'head',
  // P-Chain blocks: lists follow the head; an accepted block by id is final.
  'data.pChainBlocks': 'head',
  'data.pChainBlock': 'immutable',
  // X-Chain vertices: the DAG ended at Cortina, so its lists barely move; a vertex by hash is final.
  'data.xChainVertices': 'slow',
  'data.xChainVertex': 'immutable',
  // An X-Chain asset's name, symbol, denomination and cap are fixed when it is created.
  'data.xChainAssetDetails': 'immutable',
  // A P-Chain tx by hash is final, but gains its reward tx hash when its stake ends.
  'data.pChainTransaction': 'slow',
  // X-Chain and C-Chain atomic transactions: lists are newest first (the first page follows the head);
  // an accepted tx by hash never changes (an X-Chain tx's UTXOs are answered as emitted, not as spent
  // later), and neither does an asset's history behind its head page.
  'data.xChainTransactions': 'head',
  'data.cChainTransactions': 'head',
  'data.assetTransactions': 'head',
  'data.xChainTransaction': 'immutable',
  'data.cChainTransaction': 'immutable',
  // Subnets and blockchains: created rarely; a subnet's ownership and L1 conversion change. A blockchain
  // never changes once created (its subnet, VM and genesis are fixed by its CreateChainTx).
  'data.subnets': 'slow',
  'data.subnet': 'slow',
  'data.blockchains': 'slow',
  'data.blockchain': 'immutable',
  // UTXOs by address follow the head (created and spent every block); so do an address's last activity and
  // the chains it has been seen on. The AVAX supply is recomputed by the upstream periodically.
  'data.primaryUtxos': 'head',
  'data.lastActivity': 'head',
  'data.addressChainIds': 'head',
  'data.avaxSupply': 'slow',
  // Interchain messages: the list is newest first (its head follows new messages); a message changes status.
  'data.icmMessages': 'head',
  'data.icmMessage': 'head',
  // Portfolio: balances move with every transfer (head; their pages hold changing items, see
  // below); the chains an address is on are refreshed upstream every 15 minutes.
  'data.erc20Balances': 'head',
  'data.erc721Balances': 'head',
  'data.erc1155Balances': 'head',
  'data.collectibleBalances': 'head',
  'data.addressChains': 'slow',
  // Tokens: a token's transfers and an address's deployments are final items under a moving head;
  // an NFT's owner and metadata change (slow), a deployment transaction is final.
  'data.tokenTransfers': 'head',
  'data.nftTokens': 'slow',
  'data.nftToken': 'slow',
  'data.contractDeployments': 'head',
  'data.deploymentTransaction': 'immutable',
  'data.latestBlocksAllChains': 'head',
  'data.latestTransactionsAllChains': 'head',
  // The global ICM list: newest first, its messages change status (like the by-address list).
  'data.icmMessagesAll': 'head',
  // Metrics API: series and windows change when the upstream's aggregation job runs.
  'metrics.chainMetric': 'slow',
  'metrics.rollingWindow': 'slow',
  // Staking, ICM and L1-validator fee series are daily (or hourly) aggregates: they move with the job too.
  'metrics.stakingMetric': 'slow',
  // The chains the Metrics API reports on change when a chain is added.
  'metrics.chains': 'slow',
  'metrics.chain': 'slow',
  'metrics.icmTimeseries': 'slow',
  'metrics.icmSummary': 'slow',
  'metrics.l1ValidatorFees': 'slow',
  // Signature aggregation gathers fresh signatures: never cached (and never put through the read-through).
  'data.signatureAggregation': 'never',
  // Node JSON-RPC, per method. What a node is (id, version, upgrades, VMs) changes only when it restarts;
  // heights, peers, fees, balances and UTXO sets follow the head; blocks and txs by id are final.
  'node.info.getNodeID': 'slow',
  'node.info.getNodeIP': 'slow',
  'node.info.getNodeVersion': 'slow',
  'node.info.getNetworkID': 'slow',
  'node.info.getNetworkName': 'slow',
  'node.info.getBlockchainID': 'slow',
  'node.info.upgrades': 'slow',
  'node.info.acps': 'slow',
  'node.info.getVMs': 'slow',
  'node.info.uptime': 'slow',
  'node.info.isBootstrapped': 'head',
  'node.info.peers': 'head',
  'node.info.getTxFee': 'head',
  'node.avm.getHeight': 'head',
  'node.avm.getTxFee': 'head',
  'node.avm.getTxStatus': 'head',
  'node.avm.getUTXOs': 'head',
  'node.avm.getBalance': 'head',
  'node.avm.getAllBalances': 'head',
  'node.avm.getBlock': 'immutable',
  'node.avm.getBlockByHeight': 'immutable',
  'node.avm.getTx': 'immutable',
  'node.avm.getAssetDescription': 'immutable',
  'node.evm.eth_chainId': 'slow',
  'node.evm.net_version': 'slow',
  'node.evm.web3_clientVersion': 'slow',
  'node.evm.eth_getChainConfig': 'slow',
  'node.evm.eth_blockNumber': 'head',
  'node.evm.eth_baseFee': 'head',
  'node.evm.eth_maxPriorityFeePerGas': 'head',
  'node.evm.eth_gasPrice': 'head',
  'node.evm.eth_syncing': 'head',
  'node.evm.eth_getBalance': 'head',
  'node.evm.eth_getTransactionCount': 'head',
  // EVM state read at a named block (src/upstream/evm-state.ts): final once the block exists, keyed
  // by its hash or number; the same reads at the block `latest` resolved to follow the head.
  'node.evm.state': 'immutable',
  'node.evm.headState': 'head',
  // An atomic tx still processing has no block height yet: not final until accepted.
  'node.avax.getAtomicTx': 'slow',
  'node.avax.getAtomicTxStatus': 'head',
  'node.avax.getUTXOs': 'head',
  // Admin methods (reads included) and issuing: never cached, and never sent through the read-through.
  'node.admin': 'never',
  'node.issueTx': 'never',
} as const satisfies Record<ResourceKind, CacheClass>;

export type { ResourceKind };

/**
 * Lists whose items change while they sit in the list ("mutable is decided per field, not per route"):
 * an ICM message's status moves from pending to delivered; an active stake leaves the active-staking list
 * when it ends. A page of these behind a token is a position in a list of changing things, so it keeps
 * its list's class (head) instead of becoming a long-lived token page.
 */
export const MUTABLE_LIST_ITEMS: ReadonlySet<ResourceKind> = new Set<ResourceKind>([
  'data.icmMessages',
  'data.stakingTransactions',
  // A P-Chain transaction gains its reward tx hash when its stake ends.
  'data.pChainTransactions',
  'data.icmMessagesAll',
  // A balance changes with every transfer; a token leaves the list when its balance reaches zero.
  'data.erc20Balances',
  'data.erc721Balances',
  'data.erc1155Balances',
  'data.collectibleBalances',
  // A UTXO leaves the unspent list when it is spent (or gains its consuming tx with includeSpent).
  'data.primaryUtxos',
  // A pending reward leaves the list when its stake ends.
  'data.pendingRewards',
]);

export interface CachePolicy {
  ttlFor(resource: ResourceKind, opts?: { pageToken?: string | null; lastPage?: boolean }): TtlSpec;
  classOf(resource: ResourceKind): CacheClass;
  notFound(): TtlSpec;
}

export interface PolicyOverrides {
  ttl?: Partial<Record<CacheClass, number>>;
  stale?: Partial<Record<CacheClass, { swr: number; ifError: number }>>;
}

export function createCachePolicy(overrides: PolicyOverrides = {}): CachePolicy {
  const ttl = { ...DEFAULT_TTL_MS, ...overrides.ttl };
  const stale = { ...DEFAULT_STALE_MS, ...overrides.stale };
  const spec = (cls: CacheClass): TtlSpec => ({
    ttlMs: ttl[cls],
    swrMs: stale[cls].swr,
    staleIfErrorMs: stale[cls].ifError,
  });
  return {
    ttlFor(resource, opts = {}) {
      let cls: CacheClass = RESOURCE_CLASS[resource];
      // A page behind a token is a fixed position in the list: stable while the token lives — unless it
      // is the last page, which grows as new items arrive (an ascending list's tail).
      // Lists of changing items never do: their pages stay head data however deep they are.
      if (cls === 'head' && opts.pageToken && !opts.lastPage && !MUTABLE_LIST_ITEMS.has(resource))
        cls = 'tokenPage';
      return spec(cls);
    },
    classOf: (resource) => RESOURCE_CLASS[resource],
    notFound: () => spec('notFound'),
  };
}
