import { type Env, httpUrl, int, kind, liveList, oneOf, secretOf } from './config-kinds.js';

/** The live data settings: the node websockets, the activity feed's bounds, the Data API webhooks. */
export const LIVE_SETTINGS = {
  LIVE_WS: kind(liveList, 'a comma list of chainId=ws(s)://URL (a node websocket per EVM chain)')
    .default([], 'TTLs only')
    .doc('EVM chains followed over a node websocket (`eth_subscribe newHeads`).'),
  LIVE_LOCK_TTL_MS: int(300, 60_000)
    .default(3_000)
    .doc("Lifetime of the lock naming the replica that holds a chain's websocket."),
  LIVE_ADDRESS_FRESHNESS: oneOf(['head', 'touch'])
    .default('touch')
    .doc(
      "How a followed chain's address-scoped answers (balances, first pages of an address's lists) stay fresh: `head`, refetched after every new head; `touch`, kept until a block may have touched the address, and at most LIVE_TOUCH_WINDOW_BLOCKS blocks (docs/caching.md, freshness by change).",
    ),
  LIVE_TOUCH_WINDOW_BLOCKS: int(4, 240)
    .note('blocks an untouched address entry may serve')
    .default(30)
    .doc(
      'With LIVE_ADDRESS_FRESHNESS=touch: the bounded age, in blocks, of what no block shows (value sent by a contract, a token without Transfer logs, prices).',
    ),
  DATA_API_INDEX_LAG_BLOCKS: int(0, 100)
    .note("blocks the Data API's index may trail the node by")
    .default(3)
    .doc(
      "With LIVE_ADDRESS_FRESHNESS=touch: a block touches an address's answers once it is this many blocks old, when the Data API has indexed it; until then the answers read before it are served, so one read before the Data API indexed the block is never kept as showing it.",
    ),
  ACTIVITY_MAX_ADDRESSES: int(1, 10_000)
    .note('addresses one addressActivity subscription follows')
    .default(1_000)
    .doc('Addresses one `addressActivity` subscription may follow.'),
  ACTIVITY_SUBSCRIPTIONS_PER_CLIENT: int(1, 10_000)
    .note('addressActivity subscriptions open per client')
    .default(64)
    .doc('`addressActivity` subscriptions one client may hold open (per replica).'),
  ACTIVITY_ADDRESSES_PER_CLIENT: int(1, 1_000_000)
    .note("a client's share of a chain's followed addresses")
    .optional(
      "a quarter of the chain's 10 × ACTIVITY_MAX_ADDRESSES (at least ACTIVITY_MAX_ADDRESSES)",
    )
    .doc(
      "Addresses one client (its address) may follow on one chain, summed over its `addressActivity` subscriptions (all replicas); when the chain's 10 × ACTIVITY_MAX_ADDRESSES are full, each client's share is max-min fair and the newest subscriptions above theirs are ended with INTEREST_DROPPED.",
    ),
  ICM_SUBSCRIPTIONS_PER_CLIENT: int(1, 10_000)
    .note('icmMessage subscriptions open per client')
    .default(16)
    .doc(
      '`icmMessage` subscriptions one client (its address) may hold open (per replica); each one polls the Data API, charged to the client.',
    ),
  ACTIVITY_LOG_BLOCKS: int(16, 100_000)
    .note('blocks of activity kept in Redis for resumption')
    .default(1_024)
    .doc('Blocks of activity kept in Redis for resumption (`from`, `Last-Event-ID`).'),
  WEBHOOK_URL: httpUrl()
    .note('unset: webhooks off')
    .optional('webhooks off')
    .doc(
      "The public URL the Data API posts deliveries to; it reaches this gateway's `/webhooks/data-api`.",
    ),
  WEBHOOK_SECRET: secretOf(8, 'secret')
    .note('unset: read with getSharedSecret')
    .optional('read with getSharedSecret')
    .doc("The account's shared secret that signs deliveries."),
  WEBHOOK_WINDOW_BLOCKS: int(16, 100_000)
    .note('blocks a webhook message id is remembered')
    .default(1_024)
    .doc(
      'Blocks below the activity cursor a delivery may be for; message ids and delivered transactions are remembered that long.',
    ),
  WEBHOOK_MAX_ADDRESSES: int(1, 100_000)
    .note('addresses registered per chain')
    .default(1_000)
    .doc('Addresses registered per chain (the Data API plan bounds it).'),
  WEBHOOK_SYNC_MS: int(100, 600_000)
    .note('how often the registered addresses are synced')
    .default(10_000)
    .doc('How often the holder syncs the registered addresses with the followed ones.'),
};

/** The activity feed's bounds and the Data API webhook source, grouped as the live package reads them. */
export function liveSections(env: Env<typeof LIVE_SETTINGS>) {
  return {
    touches:
      env.LIVE_ADDRESS_FRESHNESS === 'touch'
        ? { window: env.LIVE_TOUCH_WINDOW_BLOCKS, lagBlocks: env.DATA_API_INDEX_LAG_BLOCKS }
        : undefined,
    activity: {
      maxAddresses: env.ACTIVITY_MAX_ADDRESSES,
      subscriptionsPerClient: env.ACTIVITY_SUBSCRIPTIONS_PER_CLIENT,
      icmSubscriptionsPerClient: env.ICM_SUBSCRIPTIONS_PER_CLIENT,
      /** The chain's followed addresses at most (the node's filters, the reader's work per block). */
      followedPerChain: 10 * env.ACTIVITY_MAX_ADDRESSES,
      addressesPerClient:
        env.ACTIVITY_ADDRESSES_PER_CLIENT ??
        Math.max(env.ACTIVITY_MAX_ADDRESSES, Math.floor((10 * env.ACTIVITY_MAX_ADDRESSES) / 4)),
      logBlocks: env.ACTIVITY_LOG_BLOCKS,
    },
    webhook: {
      url: env.WEBHOOK_URL,
      secret: env.WEBHOOK_SECRET,
      windowBlocks: env.WEBHOOK_WINDOW_BLOCKS,
      maxRegistered: env.WEBHOOK_MAX_ADDRESSES,
      syncMs: env.WEBHOOK_SYNC_MS,
    },
  };
}
