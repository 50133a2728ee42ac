import type { PageSnapshots } from './cache/page-snapshots.js';
import type { ServeTracker } from './cache/serve-tracker.js';
import type { Loaders } from './loaders/index.js';
import type { SignatureAggregatorClient } from './upstream/signature-aggregator.js';
import type { AdminAuth } from './schema/admin-auth.js';

/** What every resolver sees. Resolvers read upstream data only through `loaders`. */
export interface GatewayContext {
  loaders: Loaders;
  /** Whether this request holds the node admin token (a verdict only; the token itself is never kept). */
  adminAuth: AdminAuth;
  /** Signature aggregation: the one upstream reached outside the loaders (never cached; see its client). */
  signatureAggregator: SignatureAggregatorClient;
  /** How this request's upstream data was served (freshness, stale marks). */
  served: ServeTracker;
  /** Connection cursor settings and head-page snapshots (schema/connection.ts). */
  connections: {
    cursorSecret: string;
    maxFirst: number;
    snapshots: PageSnapshots;
  };
}
