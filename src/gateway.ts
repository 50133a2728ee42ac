import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { ReadThrough, envelopeRemainingMs, type SerializedError } from './cache/cached.js';
import { createPageSnapshots } from './cache/page-snapshots.js';
import { createCachePolicy, type CacheClass, type CachePolicy } from './cache/policy.js';
import { ServeTracker } from './cache/serve-tracker.js';
import { RedisStore } from './cache/redis-store.js';
import { MemoryStore, type CacheStore } from './cache/store.js';
import { TieredStore } from './cache/tiered-store.js';
import type { Config } from './config.js';
import type { GatewayContext } from './context.js';
import { createLoaders } from './loaders/index.js';
import { createMetrics, type GatewayMetrics } from './metrics.js';
import { useCacheExtensions } from './plugins/use-cache-extensions.js';
import { useErrorCodes } from './plugins/use-error-codes.js';
import { useHealth } from './plugins/use-health.js';
import { useMetrics } from './plugins/use-metrics.js';
import { useResponseCache } from './plugins/use-response-cache.js';
import { buildSchema } from './schema/index.js';
import { maskError } from './schema/errors.js';
import { createDataApiClient } from './upstream/data-api.js';
import { createPrimaryApiClient } from './upstream/data-api-primary.js';
import { createIcmApiClient } from './upstream/data-api-icm.js';
import { createMetricsApiClient } from './upstream/metrics-api.js';
import { createSignatureAggregatorClient } from './upstream/signature-aggregator.js';
import { UpstreamError, type UpstreamName } from './upstream/errors.js';
import { createHttpClient } from './upstream/http.js';
import { createNodeRpcClient } from './upstream/node-rpc.js';
import { readAdminAuth } from './schema/admin-auth.js';

/** What tests and the server inject; everything has a production default. */
export interface GatewayDeps {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** A ready store (tests); @default from config: Redis behind an LRU, or the LRU alone. */
  store?: CacheStore;
  /** TTL overrides per cache class (tests shorten them). */
  ttlOverrides?: Partial<Record<CacheClass, number>>;
  /** Stale-window overrides per cache class. */
  staleOverrides?: Partial<Record<CacheClass, { swr: number; ifError: number }>>;
  /** Test-only: wraps the cache policy (the differential oracle plants a wrong policy through it to prove it can fail). */
  wrapPolicy?: (policy: CachePolicy) => CachePolicy;
  /** @default console-based, honouring config.logLevel */
  log?: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  store: CacheStore;
  metrics: GatewayMetrics;
  /** Resolves when the shared cache answers (or after a short bound: a down cache never blocks start-up). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Wires config → upstream clients → cache → loaders → schema → Yoga. Holds no global state. */
export function createGateway(config: Config, deps: GatewayDeps = {}): Gateway {
  const log =
    deps.log ??
    ((level, message) => {
      if (config.logLevel !== 'silent' && LEVELS.indexOf(level) >= LEVELS.indexOf(config.logLevel)) console[level](`[gateway] ${message}`);
    });

  const metrics = createMetrics();
  const store = deps.store ?? createStore(config, log, metrics);
  const cache = new ReadThrough({
    store,
    serializeError,
    deserializeError,
    isTransient,
    onEvent: (event, resource) => metrics.cacheEvents.inc({ resource, event }),
  });
  const basePolicy = createCachePolicy({ ttl: deps.ttlOverrides, stale: deps.staleOverrides });
  const policy = deps.wrapPolicy ? deps.wrapPolicy(basePolicy) : basePolicy;
  const snapshots = createPageSnapshots(store);

  // One HTTP client per upstream (and per configured node), sharing the retry/timeout settings and metrics.
  const httpFor = (name: UpstreamName, baseUrl: string, headers: Record<string, string> = {}) =>
    createHttpClient({
      name,
      baseUrl,
      headers,
      timeoutMs: config.upstreamTimeoutMs,
      retries: config.upstreamRetries,
      maxRetryAfterMs: config.maxRetryAfterMs,
      fetch: deps.fetch,
      onOutcome: (outcome) => metrics.upstreamCalls.inc({ upstream: name, outcome }),
      onRetry: () => metrics.upstreamRetries.inc({ upstream: name }),
    });
  const dataApiHttp = httpFor('data-api', config.dataApiUrl, config.dataApiKey ? { 'x-glacier-api-key': config.dataApiKey } : {});
  // The Metrics API needs no key; its client is the same for every request.
  const metricsApi = createMetricsApiClient(httpFor('metrics-api', config.metricsApiUrl));
  // One client per configured node, for the process's life. Clients only ever reach these URLs.
  const nodeClients = config.nodes.map((target) => createNodeRpcClient(target, httpFor('node', target.url)));

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: { title: 'Avalanche GraphQL gateway', defaultQuery: DEFAULT_QUERY },
    landingPage: false,
    // Yoga's own bare check becomes the liveness probe; `/health` is ours (it reports the cache).
    healthCheckEndpoint: '/live',
    maskedErrors: { maskError: (error, message, isDev) => maskError(error, message, isDev) },
    logging: config.logLevel === 'silent' ? false : config.logLevel,
    plugins: [
      useHealth({ store }),
      useMetrics({ metrics, store }),
      useResponseCache({ store, maxTtlMs: config.responseCacheMaxTtlMs, metrics }),
      useCacheExtensions(),
      useErrorCodes(),
    ],
    context: ({ request }): GatewayContext => {
      // A caller's own Data API key takes precedence for its request (it is never logged or cached).
      const callerKey = request.headers.get('x-glacier-api-key') ?? request.headers.get('x-service-api-key');
      const callerOpts = callerKey ? { headers: { 'x-glacier-api-key': callerKey } } : {};
      const dataApi = createDataApiClient(dataApiHttp, callerOpts);
      const primaryApi = createPrimaryApiClient(dataApiHttp, callerOpts);
      const icmApi = createIcmApiClient(dataApiHttp, callerOpts);
      const served = new ServeTracker();
      return {
        limits: { complexity: config.maxQueryComplexity, depth: config.maxQueryDepth },
        served,
        signatureAggregator: createSignatureAggregatorClient(dataApiHttp, callerOpts),
        adminAuth: readAdminAuth(request.headers.get('authorization'), config.adminToken),
        loaders: createLoaders({ cache, policy, observer: served }, { dataApi, primaryApi, icmApi, metricsApi, nodes: nodeClients }),
        connections: { cursorSecret: config.cursorSecret, maxFirst: config.maxPageSize, snapshots },
      };
    },
  });

  return {
    yoga,
    store,
    metrics,
    ready: () => store.ready(2_000),
    close: () => store.close(),
  };
}

function createStore(config: Config, log: NonNullable<GatewayDeps['log']>, metrics: GatewayMetrics): CacheStore {
  const lru = new MemoryStore({ maxEntries: config.memoryCacheMaxEntries });
  if (!config.redisUrl) return lru;
  let lastLogged = 0;
  const redis = new RedisStore({
    url: config.redisUrl,
    cluster: config.redisCluster,
    commandTimeoutMs: config.redisCommandTimeoutMs,
    onError: (op, e) => {
      metrics.redisErrors.inc({ op });
      // Redis being down is expected to be survivable: say so, at most every 10 s.
      if (Date.now() - lastLogged > 10_000) {
        lastLogged = Date.now();
        log('warn', `redis ${op} failed (${e.message}); serving from the upstreams until it is back`);
      }
    },
  });
  return new TieredStore(lru, redis, 60_000, (raw) => envelopeRemainingMs(raw));
}

/** Failures for which a stale answer beats an error: the upstream is down, slow or rate limiting. */
function isTransient(e: unknown): boolean {
  if (!(e instanceof UpstreamError)) return false;
  return e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'status' && (e.status === 429 || (e.status ?? 0) >= 500));
}

/** Only 404s are ever cached as errors (briefly); this keeps what is needed to rebuild one. */
function serializeError(e: unknown): SerializedError | undefined {
  if (!(e instanceof UpstreamError)) return undefined;
  return { name: e.name, message: e.message, data: { upstream: e.upstream, kind: e.kind, status: e.status, upstreamMessage: e.upstreamMessage, request: e.request } };
}

function deserializeError(s: SerializedError): Error {
  const d = s.data as { upstream: UpstreamError['upstream']; kind: UpstreamError['kind']; status?: number; upstreamMessage?: string; request?: string };
  return new UpstreamError(d.upstream, d.kind, { status: d.status, upstreamMessage: d.upstreamMessage, request: d.request });
}

const DEFAULT_QUERY = /* GraphQL */ `# The latest blocks of the C-Chain, each with its first transactions.
query LatestBlocks {
  chain(id: "43114") {
    name
    blocks(first: 5) {
      edges {
        node {
          number
          hash
          timestampIso
          txCount
          transactions(first: 3) {
            edges { node { hash from { address } to { address } value } }
          }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`;
