import { type Env, httpUrl, int, kind, liveList, secretOf } from './config-kinds.js';

/** The live data settings: the node websockets, the activity feed's bounds, the Data API webhooks. */
export const LIVE_SETTINGS = {
  LIVE_WS: kind(liveList, 'a comma list of chainId=ws(s)://URL (a node websocket per EVM chain)')
    .default([], 'TTLs only')
    .doc('EVM chains followed over a node websocket (`eth_subscribe newHeads`).'),
  LIVE_LOCK_TTL_MS: int(300, 60_000)
    .default(3_000)
    .doc("Lifetime of the lock naming the replica that holds a chain's websocket."),
  ACTIVITY_MAX_ADDRESSES: int(1, 10_000)
    .note('addresses one addressActivity subscription follows')
    .default(1_000)
    .doc('Addresses one `addressActivity` subscription may follow.'),
  ACTIVITY_SUBSCRIPTIONS_PER_CLIENT: int(1, 10_000)
    .note('addressActivity subscriptions open per client')
    .default(64)
    .doc('`addressActivity` subscriptions one client may hold open (per replica).'),
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
    activity: {
      maxAddresses: env.ACTIVITY_MAX_ADDRESSES,
      subscriptionsPerClient: env.ACTIVITY_SUBSCRIPTIONS_PER_CLIENT,
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
