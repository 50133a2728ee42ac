import type { PageSnapshots } from './cache/page-snapshots.js';
import type { ServeTracker } from './cache/serve-tracker.js';
import type { LiveFeed } from './live/feed.js';
import type { Loaders } from './loaders/index.js';
import type { AdminAuth } from './schema/admin-auth.js';
import type { SignatureAggregatorClient } from './upstream/signature-aggregator.js';

/** What every resolver sees. Resolvers read upstream data only through `loaders`. */
export interface GatewayContext {
  loaders: Loaders;
  /** Whether this request holds the node admin token (a verdict only; the token itself is never kept). */
  adminAuth: AdminAuth;
  /** Signature aggregation: the one upstream reached outside the loaders (never cached; see its client). */
  signatureAggregator: SignatureAggregatorClient;
  /** How this request's upstream data was served (freshness, stale marks). */
  served: ServeTracker;
  /** Live heads (subscriptions): the feed, and fresh loaders for each event of a long subscription. */
  live?: { feed: LiveFeed; loaders(): Loaders; pollMs: number };
  /** Chains whose head keyed this request's cache entries (answered as `extensions.heads`). */
  headsTouched?: Map<string, string>;
  /** Connection cursor settings and head-page snapshots (schema/connection.ts). */
  connections: {
    cursorSecret: string;
    maxFirst: number;
    snapshots: PageSnapshots;
  };
}

/**
 * The caller's own Data API key, in `x-glacier-api-key` or `x-service-api-key` (it takes precedence over the
 * operator's for the caller's request). Read here only: the context, cache partitions and budgets use it.
 */
export function callerKeyOf(headers: Headers): string | null {
  return headers.get('x-glacier-api-key') || headers.get('x-service-api-key') || null;
}

/** Headers that make a request credentialed: its answer is never shared by a cache (ours, a CDN's). */
export const CREDENTIAL_HEADERS = [
  'authorization',
  'x-glacier-api-key',
  'x-service-api-key',
] as const;
