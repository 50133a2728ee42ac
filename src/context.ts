import type { PageSnapshots } from './cache/page-snapshots.js';
import type { ServeTracker } from './cache/serve-tracker.js';
import type { Loaders } from './loaders/index.js';

/** What every resolver sees. Resolvers read upstream data only through `loaders`. */
export interface GatewayContext {
  loaders: Loaders;
  /** How this request's upstream data was served (freshness, stale marks). */
  served: ServeTracker;
  /** Connection cursor settings and head-page snapshots (schema/connection.ts). */
  connections: {
    cursorSecret: string;
    maxFirst: number;
    snapshots: PageSnapshots;
  };
}
