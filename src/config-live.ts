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
export function liveSections(e: LiveEnv) {
  return {
    activity: {
      maxAddresses: e.ACTIVITY_MAX_ADDRESSES,
      subscriptionsPerClient: e.ACTIVITY_SUBSCRIPTIONS_PER_CLIENT,
      logBlocks: e.ACTIVITY_LOG_BLOCKS,
      maxUnion: e.ACTIVITY_MAX_UNION,
    },
    webhook: {
      url: e.WEBHOOK_URL,
      secret: e.WEBHOOK_SECRET,
      windowBlocks: e.WEBHOOK_WINDOW_BLOCKS,
      maxRegistered: e.WEBHOOK_MAX_ADDRESSES,
      syncMs: e.WEBHOOK_SYNC_MS,
    },
  };
}
