import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga } from 'graphql-yoga';
import { createStore, memoryBudget } from './cache/create-store.js';
import { callerKeyOf } from './cache/credentials.js';
import { cachePartitions } from './cache/keys.js';
import { createPageSnapshots } from './cache/page-snapshots.js';
import { createCachePolicy } from './cache/policy.js';
import { ReadThrough } from './cache/read-through.js';
import { TAG_HEADERS } from './cache/surrogate-key-header.js';
import type { Config } from './config.js';
import { createContextFactory, type GatewayContext } from './context.js';
import { useBodyLimit } from './edge/body-limit.js';
import { createClientIdentifier } from './edge/client-budget.js';
import { CSRF_HEADERS, edgePlugins, edgeYogaOptions, GRAPHQL_ENDPOINT } from './edge/index.js';
import { PERSISTED_ID_PARAMS } from './edge/persisted-files.js';
import { originAllowed } from './edge/use-http-edge.js';
import { isExpectedError, maskError } from './errors.js';
import type { Gateway, GatewayDeps } from './gateway-types.js';
import { graphiqlOptions, renderLocalGraphiQL, useGraphiQLAssets } from './graphiql/index.js';
import { createDirectExecution } from './http/direct.js';
import { documentCaches } from './http/document-caches.js';
import { createFastPath } from './http/fast-path.js';
import { usePathGuard } from './http/path-guard.js';
import { createLive } from './live/create-live.js';
import { createMetrics } from './metrics.js';
import { useApq } from './plugins/use-apq.js';
import { useArgumentChecks } from './plugins/use-argument-checks.js';
import { useCacheExtensions } from './plugins/use-cache-extensions.js';
import { useErrorCodes } from './plugins/use-error-codes.js';
import { useHealth } from './plugins/use-health.js';
import { useHttpCaching } from './plugins/use-http-caching.js';
import { useJit } from './plugins/use-jit.js';
import { useLoaderRelease } from './plugins/use-loader-release.js';
import { useMetrics } from './plugins/use-metrics.js';
import { useObservability } from './plugins/use-observability.js';
import { useResponseCache } from './plugins/use-response-cache.js';
import { buildSchema } from './schema/index.js';
import { createLogger, yogaLogger } from './telemetry/logger.js';
import { createRequestObserver } from './telemetry/request-observer.js';
import { noteCacheEvent } from './telemetry/spans.js';
import { createUpstreamClients } from './upstream/clients.js';
import { errorFromCache, errorToCache, staleBeatsError, UpstreamError } from './upstream/errors.js';

export type { Gateway, GatewayDeps };

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** Wires config → upstream clients → cache → loaders → schema → Yoga. Holds no global state. */
export function createGateway(config: Config, deps: GatewayDeps = {}): Gateway {
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  const log =
    deps.log ??
    ((level, message) => {
      if (config.logLevel !== 'silent' && LEVELS.indexOf(level) >= LEVELS.indexOf(config.logLevel))
        logger[level](message);
    });

  const metrics = createMetrics();
  const now = deps.now ?? Date.now;
  const store = deps.store ?? createStore(config, log, metrics, now);
  const basePolicy = createCachePolicy({ ttl: deps.ttlOverrides, stale: deps.staleOverrides });
  const policy = deps.wrapPolicy ? deps.wrapPolicy(basePolicy) : basePolicy;
  const smallPages = Object.values(deps.tokenPageSizes ?? {}).filter((n) => n !== undefined);
  const edge = edgePlugins(config, {
    redis: deps.budgetRedis,
    // A gateway that asks for smaller pages (a test's) prices its connections by them.
    ...(smallPages.length > 0 ? { upstreamPageSize: Math.min(...smallPages) } : {}),
    onPersistedReload: (outcome) =>
      outcome.ok
        ? logger.info({ operations: outcome.size }, 'persisted operations reloaded')
        : logger.error(
            { error: outcome.error },
            'persisted operations not reloaded: the files do not read; the operations loaded before still run',
          ),
  });
  // Persisted operations are named in the metrics whatever else comes (src/metrics.ts, bounded names).
  if (edge.persisted) metrics.operations.always(() => edge.persisted!.names());
  const upstreams = createUpstreamClients(config, {
    metrics,
    transport: deps.transport,
    redis: edge.redis,
    derivations: deps.derivations,
  });
  // Live heads, head-keyed cache entries and cross-replica miss leases (src/live, src/cache/miss-lease.ts).
  // Subscriptions are counted per client address: a key the caller made up earns no fresh places.
  const identify = createClientIdentifier(config.trustedProxies);
  const live = createLive(config, {
    store,
    policy,
    metrics,
    log,
    clientOf: (headers, peer) => identify(headers, peer).at(-1)!,
    identify,
    budget: edge.budget,
    dataApiHttp: upstreams.dataApiHttp,
    wrapTouches: deps.wrapTouches,
  });
  const cache = new ReadThrough({
    acrossProcesses: live.acrossProcesses,
    store,
    now,
    serializeError: errorToCache,
    deserializeError: errorFromCache,
    isTransient: staleBeatsError,
    onEvent: (event, resource) => {
      metrics.cacheEvents.inc({ resource, event });
      noteCacheEvent(event);
    },
    staleAfterMs: config.staleAfterMs,
    parsedMaxBytes: memoryBudget(config).parsed,
    verifySharedValues: config.checkSharedValues,
  });
  const snapshots = createPageSnapshots(store, { now });

  const partitions = cachePartitions(config);
  // The headers a shared-cacheable answer names its surrogate keys in (none: tags are not collected).
  const tagHeaders: readonly string[] = TAG_HEADERS[config.surrogateKeyHeader];

  const contextOf = createContextFactory({
    config,
    cache,
    policy,
    live,
    upstreams,
    snapshots,
    partitions,
    tokenPageSizes: deps.tokenPageSizes,
  });

  const observer = createRequestObserver({ logger, metrics, graphqlEndpoint: GRAPHQL_ENDPOINT });
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    // Served from the gateway's own assets (works offline); example tabs in src/graphiql/examples.ts. Off in
    // production unless GRAPHIQL is set.
    graphiql: config.graphiql ? graphiqlOptions('Avalanche GraphQL gateway') : false,
    renderGraphiQL: renderLocalGraphiQL,
    // Production edge: CORS allowlist, body limit, no multipart (src/edge/index.ts).
    ...edgeYogaOptions(config),
    landingPage: false,
    // A persisted operation may be named by `documentId` (GraphQL over HTTP, Codegen) or `doc_id` (Relay).
    extraParamNames: [...PERSISTED_ID_PARAMS],
    // Bounded in bytes, not entries (src/http/document-caches.ts).
    parserAndValidationCache: documentCaches(),
    // Yoga's own bare check becomes the liveness probe; `/health` is ours (it reports the cache).
    healthCheckEndpoint: '/live',
    maskedErrors: {
      maskError: (error, message, isDev) => {
        // The upstream's own words are for the operator, never the client (src/errors.ts).
        const original = (error as { originalError?: unknown }).originalError ?? error;
        if (original instanceof UpstreamError && original.upstreamMessage)
          logger.warn(
            {
              upstream: original.upstream,
              status: original.status,
              request: original.request,
              requestId: original.requestId,
              upstreamMessage: original.upstreamMessage.slice(0, 2_000),
            },
            'upstream error',
          );
        return maskError(error, message, isDev);
      },
    },
    logging: config.logLevel === 'silent' ? false : yogaLogger(logger, isExpectedError),
    plugins: [
      // First: its request span and request id wrap everything the other plugins do.
      useObservability(observer),
      // Only the documented routes, spelled exactly (src/http/path-guard.ts).
      usePathGuard(),
      useGraphiQLAssets(),
      // @defer and @stream: slow parts (node fields, metrics series, nested connections) arrive as they resolve.
      useDeferStream(),
      useHealth({ store, openBreakers: upstreams.openBreakers, heldBack: upstreams.heldBack }),
      // Before the edge's cost and budget: a bad argument anywhere is refused with no charge.
      useArgumentChecks(),
      ...edge.plugins,
      useMetrics({
        metrics,
        store,
        token: config.metricsToken,
        // Never open on the public port in production: METRICS_PORT, or METRICS_TOKEN here.
        where:
          config.metricsPort !== undefined
            ? 'elsewhere'
            : config.production
              ? 'token-only'
              : 'here',
      }),
      // Before the response cache: a hash-only request becomes its query text, then is looked up like any other.
      // Not in PERSISTED_OPERATIONS=only mode, where nothing may register a new operation.
      ...(config.persistedOperations === 'only'
        ? []
        : [
            useApq({
              store,
              manifest: config.persistedOperations === 'allow' ? edge.persisted : undefined,
            }),
          ]),
      useResponseCache({
        store,
        maxTtlMs: config.responseCacheMaxTtlMs,
        metrics,
        partitionOf: (request) => partitions.response(callerKeyOf(request.headers)),
        versionOf: live.epoch,
        tagged: tagHeaders.length > 0,
        now,
      }),
      // Head-keyed answers change with the next block: CDNs are told to keep them no longer than a block.
      useHttpCaching({
        maxAgeMs: live.feed ? Math.min(config.httpMaxAgeMs, 2_000) : config.httpMaxAgeMs,
        tagHeaders,
      }),
      ...live.plugins,
      useCacheExtensions(),
      useErrorCodes(),
      // Last of the execution plugins: it only chooses the executor the others' hooks run around.
      useJit({ enabled: config.executor === 'jit', executions: metrics.executions }),
      // After every execution plugin's hooks: the request's loaders let go of what they read.
      useLoaderRelease(),
      // Last: it wraps whichever request parser the plugins above chose.
      useBodyLimit(config.maxBodyBytes),
    ],
    context: ({ request }) => contextOf(request),
  });

  // Under PERSISTED_OPERATIONS=only a query text is refused unless it is in the manifest: Yoga decides.
  const beforeYoga = config.persistedOperations !== 'only';
  const direct =
    beforeYoga && config.directExecution
      ? createDirectExecution({ yoga, observer, tagHeaders })
      : undefined;
  const responseCache =
    beforeYoga && config.responseCacheMaxTtlMs > 0
      ? {
          store,
          partition: partitions.response(null),
          versionOf: live.epoch,
          tagHeaders,
        }
      : undefined;
  const fastPath =
    direct || responseCache
      ? createFastPath({
          graphqlEndpoint: GRAPHQL_ENDPOINT,
          responseCache,
          direct,
          csrfHeaders: config.csrfPrevention ? CSRF_HEADERS : undefined,
          maxBodyBytes: config.maxBodyBytes,
          metrics,
          logger,
          now,
        })
      : undefined;

  const wsClientOf = (req: import('node:http').IncomingMessage) => {
    const headers = new Headers();
    const forwarded = req.headers['x-forwarded-for'];
    if (forwarded) headers.set('x-forwarded-for', String(forwarded));
    return identify(headers, req.socket.remoteAddress).at(-1)!;
  };
  return {
    yoga,
    wsClientOf,
    wsOriginAllowed: originAllowed(config.corsOrigins),
    store,
    metrics,
    logger,
    live: live.feed,
    liveActivity: live.activity?.feed,
    webhook: live.webhook,
    fastPath,
    settled: () => cache.settled(),
    reloadPersistedOperations: () => edge.persisted?.reload(),
    ready: async () => {
      await store.ready(2_000);
      await live.start();
    },
    close: async () => {
      await live.stop();
      await edge.close();
      await store.close();
    },
  };
}
