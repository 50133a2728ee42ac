/** The settings of the live activity sources, as the parsed environment names them. */
interface LiveEnv {
  ACTIVITY_MAX_ADDRESSES: number;
  ACTIVITY_SUBSCRIPTIONS_PER_CLIENT: number;
  ACTIVITY_LOG_BLOCKS: number;
  ACTIVITY_MAX_UNION: number;
  WEBHOOK_URL?: string | undefined;
  WEBHOOK_SECRET?: string | undefined;
  WEBHOOK_WINDOW_BLOCKS: number;
  WEBHOOK_MAX_ADDRESSES: number;
  WEBHOOK_SYNC_MS: number;
}

/** The activity feed's bounds and the Data API webhook source, grouped as the live package reads them. */
export function liveSections(env: LiveEnv) {
  return {
    activity: {
      maxAddresses: env.ACTIVITY_MAX_ADDRESSES,
      subscriptionsPerClient: env.ACTIVITY_SUBSCRIPTIONS_PER_CLIENT,
      logBlocks: env.ACTIVITY_LOG_BLOCKS,
      maxUnion: env.ACTIVITY_MAX_UNION,
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
