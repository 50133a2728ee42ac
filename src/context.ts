import { type AdminAuth, readAdminAuth } from './admin-auth.js';
import { callerKeyOf } from './cache/credentials.js';
import type { CachePartitions } from './cache/keys.js';
import type { PageSnapshots } from './cache/page-snapshots.js';
import type { CachePolicy } from './cache/policy.js';
import type { ReadThrough } from './cache/read-through.js';
import { ServeTracker } from './cache/serve-tracker.js';
import type { Config } from './config.js';
import type { Live } from './live/create-live.js';
import type { LiveFeed } from './live/feed.js';
import { createLoaders, type LoaderClients, type Loaders } from './loaders/index.js';
import type { LoaderDeps } from './loaders/request-loader.js';
import { type RequestScope, requestScopeOf } from './telemetry/request-scope.js';
import type { CallerClients, UpstreamClients } from './upstream/clients.js';
import type { UpstreamRequest } from './upstream/request.js';
import type { SignatureAggregatorClient } from './upstream/signature-aggregator.js';

/** What every resolver sees. Resolvers read upstream data only through `loaders`. */
export interface GatewayContext {
  loaders: Loaders;
  /** Whether this request holds the node admin token (a verdict only; the token itself is never kept). */
  adminAuth: AdminAuth;
  /**
   * Whether `_service { sdl }` answers the whole SDL, admin fields included: in development, or with the
   * admin token granted. Otherwise the subgraph SDL without them (src/schema/service-sdl.ts).
   */
  fullServiceSdl: boolean;
  /** Signature aggregation: the one upstream reached outside the loaders (never cached; see its client). */
  signatureAggregator: SignatureAggregatorClient;
  /** How this request's upstream data was served (freshness, stale marks). */
  served: ServeTracker;
  /** The request's scope: its upstream calls count toward it (calls made outside the loaders pass it). */
  scope?: RequestScope;
  /** Live heads (subscriptions): the feed, and fresh loaders for each event of a long subscription. */
  live?: {
    feed: LiveFeed;
    /** Fresh loaders; with `scope`, their calls count there instead of in the request's (an ICM poll). */
    loaders(scope?: RequestScope): Loaders;
    pollMs: number;
    /** Address activity (addressActivity): the replica's feed and its per-client gate. */
    activity?: NonNullable<Live['activity']>;
    /** `icmMessage`: its per-client gate and the budget its polls are charged to. */
    icm?: Live['icm'];
  };
  /** Chains whose head keyed this request's cache entries (answered as `extensions.heads`). */
  headsTouched?: Map<string, string>;
  /** Connection cursor settings and head-page snapshots (schema/connection.ts). */
  connections: {
    cursorSecret: string;
    maxFirst: number;
    snapshots: PageSnapshots;
  };
}

export interface ContextDeps {
  config: Pick<Config, 'adminToken' | 'cursorSecret' | 'maxPageSize' | 'production'>;
  cache: ReadThrough;
  policy: CachePolicy;
  live: Pick<Live, 'feed' | 'activity' | 'icm' | 'specOf' | 'tagOf'>;
  upstreams: UpstreamClients;
  snapshots: PageSnapshots;
  /** The cache partitions of the gateway's configuration (src/cache/keys.ts). */
  partitions: CachePartitions;
  /** Test-only: smaller upstream pages for the token lists. */
  tokenPageSizes?: LoaderClients['tokenPageSizes'];
}

/**
 * Builds each request's context: its Data API clients (with the caller's own key, which takes precedence
 * for its request and is never logged or cached), the cache partitions its answers belong to, its serve
 * tracker and head versions, and fresh DataLoaders over all of it.
 */
export function createContextFactory(deps: ContextDeps): (request: Request) => GatewayContext {
  // The loaders' clients of one caller's client set, put together once (the sets are kept per caller).
  const together = new WeakMap<
    CallerClients,
    { signatureAggregator: SignatureAggregatorClient; clients: LoaderClients }
  >();
  const clientsOf = (set: CallerClients) => {
    let c = together.get(set);
    if (!c) {
      const { signatureAggregator, ...callerClients } = set;
      c = {
        signatureAggregator,
        clients: {
          ...callerClients,
          metricsApi: deps.upstreams.metricsApi,
          metricsNetworkApi: deps.upstreams.metricsNetworkApi,
          nodes: deps.upstreams.nodes,
          evm: deps.upstreams.evm,
          tokenPageSizes: deps.tokenPageSizes,
        },
      };
      together.set(set, c);
    }
    return c;
  };
  return (request) => {
    const callerKey = callerKeyOf(request.headers);
    const partitionOf = deps.partitions.upstreamFor(callerKey);
    const { signatureAggregator, clients } = clientsOf(deps.upstreams.forCaller(callerKey));
    const served = new ServeTracker();
    const headsTouched = new Map<string, string>();
    const scope = requestScopeOf(request);
    const loaderDeps = (own = scope): LoaderDeps => ({
      cache: deps.cache,
      policy: deps.policy,
      observer: served,
      scope: own,
      partitionOf: (req: UpstreamRequest<unknown>) => partitionOf(req.upstream),
      specOf: deps.live.specOf,
      versionOf: (req: UpstreamRequest<unknown>) => deps.live.tagOf(req, headsTouched),
    });
    const feed = deps.live.feed;
    const adminAuth = readAdminAuth(request.headers.get('authorization'), deps.config.adminToken);
    return {
      headsTouched,
      ...(feed
        ? {
            live: {
              feed,
              loaders: (own?: RequestScope) => createLoaders(loaderDeps(own ?? scope), clients),
              pollMs: 1_000,
              activity: deps.live.activity,
              icm: deps.live.icm,
            },
          }
        : {}),
      served,
      scope,
      signatureAggregator,
      adminAuth,
      fullServiceSdl: !deps.config.production || adminAuth.status === 'granted',
      loaders: createLoaders(loaderDeps(), clients),
      connections: {
        cursorSecret: deps.config.cursorSecret,
        maxFirst: deps.config.maxPageSize,
        snapshots: deps.snapshots,
      },
    };
  };
}
