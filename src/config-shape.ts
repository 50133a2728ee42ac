import type { TracingConfig } from './telemetry/tracing.js';
import type { PlanName } from './upstream/compute-units.js';

/** The levels a log line may have, least to most severe, and `silent` (logs nothing). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The typed configuration `loadConfig` (src/config.ts) returns; every field is documented with its default. */

/** A named node JSON-RPC base URL (`/ext/...` paths are appended). */
export interface NodeTarget {
  name: string;
  url: string;
}

export interface Config {
  /** Port the gateway listens on. @default 4000 */
  port: number;
  /** Address the gateway listens on. @default '0.0.0.0' */
  host: string;
  /** Base URL of the Data API. @default 'https://data-api.avax.network' */
  dataApiUrl: string;
  /** Base URL of the Metrics API. @default 'https://metrics.avax.network' */
  metricsApiUrl: string;
  /** The configured nodes; the first one is the default. @default [{ name: 'default', url: 'https://api.avax.network' }] */
  nodes: NodeTarget[];
  /**
   * EVM endpoints besides each node's C-Chain (`/ext/bc/C/rpc`): an L1's EVM,
   * `/ext/bc/<blockchain id>/rpc` on the named node (the default node when no name is given).
   * @default []
   */
  evmChains: { node: string; blockchainId: string }[];
  /** EVM chains followed over a node websocket (`eth_subscribe newHeads`). @default [] (TTLs only) */
  liveChains: { chainId: string; url: string }[];
  /** Lifetime of the lock naming the replica that holds a chain's websocket. @default 3000 */
  liveLockTtlMs: number;
  /** Address activity subscriptions (src/live/activity*.ts). */
  activity: {
    /** Addresses one `addressActivity` subscription may follow. @default 1000 */
    maxAddresses: number;
    /** `addressActivity` subscriptions one client may hold open (per replica). @default 64 */
    subscriptionsPerClient: number;
    /** Blocks of activity kept in Redis for resumption (`from`, `Last-Event-ID`). @default 1024 */
    logBlocks: number;
    /** Followed addresses put into the node's log filter; above it, the transfer topics alone. @default 200 */
    maxUnion: number;
  };
  /** The Data API's `address_activity` webhooks as a second activity source (src/live/webhook-*.ts). */
  webhook: {
    /** The public URL the Data API posts deliveries to; it reaches this gateway's `/webhooks/data-api`. @default undefined (webhooks off) */
    url: string | undefined;
    /** The account's shared secret that signs deliveries. @default undefined (read with getSharedSecret) */
    secret: string | undefined;
    /** Blocks below the activity cursor a delivery may be for; message ids and delivered transactions are remembered that long. @default 1024 */
    windowBlocks: number;
    /** Addresses registered per chain (the Data API plan bounds it). @default 1000 */
    maxRegistered: number;
    /** How often the holder syncs the registered addresses with the followed ones. @default 10000 */
    syncMs: number;
  };
  /** Cross-replica coalescing of cache misses: the lease a replica takes before fetching (0: off). @default 2000 */
  missLeaseMs: number;
  /** Sent upstream as `x-glacier-api-key`. @default undefined */
  dataApiKey: string | undefined;
  /** The shared cache (an in-process LRU stays in front of it). @default undefined (an in-process LRU cache) */
  redisUrl: string | undefined;
  /** Treat REDIS_URL as one seed node of a Redis Cluster. @default false */
  redisCluster: boolean;
  /** Bearer token for node admin mutations. @default undefined (admin mutations disabled) */
  adminToken: string | undefined;
  /** Per-attempt upstream timeout. @default 10000 */
  upstreamTimeoutMs: number;
  /** Retries after the first attempt on 429/502/503/504 and connection errors. @default 2 */
  upstreamRetries: number;
  /** Longest `retry-after` we are willing to wait before giving up with RATE_LIMITED. @default 5000 */
  maxRetryAfterMs: number;
  /** Entries of the in-process LRU. @default 50000 */
  memoryCacheMaxEntries: number;
  /** Bytes the in-process cache may hold (the LRU's entries and its parsed values). */
  memoryCacheMaxBytes: number;
  /** How far V8 lets the old generation grow between full collections, in percent (0: V8's own policy; src/heap-limit.ts). */
  heapGrowthPercent: number;
  /** Longest wait for one Redis command before falling back to the upstream. @default 250 */
  redisCommandTimeoutMs: number;
  /** Secret that signs connection cursors; set it to the same value on every replica. @default a fixed development value */
  cursorSecret: string;
  /** Largest `first` a connection accepts (it may span several upstream pages). @default 500 */
  maxPageSize: number;
  /**
   * Largest estimated cost of one operation, in the upstream's compute units (src/edge/cost.ts): the
   * unauthenticated plan's whole minute, which a costlier query could never be served within (docs/cost.md);
   * never above CLIENT_CU_PER_MINUTE (start-up stops), and unset it follows a smaller client budget.
   * @default 6000
   */
  maxQueryCost: number;
  /** Deepest selection nesting accepted, introspection (`ofType`) included. @default 20 */
  maxQueryDepth: number;
  /** Most aliases in one operation. @default 100 */
  maxAliases: number;
  /** Most directives in one operation. @default 20 */
  maxDirectives: number;
  /** Most lexical tokens in one document (the parser stops there). @default 4000 */
  maxTokens: number;
  /**
   * `NODE_ENV=production`: introspection and GraphiQL off unless enabled, CORS from the allowlist only;
   * `test`: each reuse of a parsed cache value is checked for mutation (costly).
   */
  production: boolean;
  /** `NODE_ENV=test`: each reuse of a parsed cache value checks that no caller mutated it (costly). */
  checkSharedValues: boolean;
  /** Schema introspection. @default on, off in production */
  introspection: boolean;
  /** GraphiQL at /graphql. @default on, off in production */
  graphiql: boolean;
  /** Origins allowed by CORS; `['*']` allows any origin without credentials. @default any in development, none in production */
  corsOrigins: string[];
  /** Require the `x-graphql-yoga-csrf` header on requests a browser sends without a preflight. @default true */
  csrfPrevention: boolean;
  /** Largest request body. @default 1000000 */
  maxBodyBytes: number;
  /**
   * Compute units each client (its address, and its API key when it sends one) may spend upstream per
   * minute (CLIENT_CU_PER_MINUTE); 0 turns budgets off. The unauthenticated plan's minute by default, so that
   * every query under MAX_QUERY_COST can be paid by a fresh budget. @default 6000
   */
  clientBudgetPerMinute: number;
  /** The Data API plan the operator's credential is on (UPSTREAM_PLAN). @default unauthenticated */
  upstreamPlan: PlanName;
  /** CUs all replicas together may spend per minute with the operator's credential (0: no governor). @default the plan's */
  upstreamCuPerMinute: number;
  /** CUs all replicas together may spend per day with the operator's credential. @default the plan's */
  upstreamCuPerDay: number;
  /** The price of a route or JSON-RPC method the published tables omit (CU_DEFAULT_*). @default 20, 100, 20 */
  cuDefaults: { data: number; metrics: number; rpc: number };
  /** Proxies whose `x-forwarded-for` is believed: IPs, IPv4 CIDRs, `loopback`, or `*`. @default none */
  trustedProxies: string[];
  /** Consecutive failed calls that open an upstream's circuit breaker (0 disables it). @default 5 */
  circuitBreakerFailures: number;
  /** How long an open circuit fails fast before one call may try again. @default 10000 */
  circuitBreakerCooldownMs: number;
  /** Below this `ratelimit-remaining`, calls to that upstream are spaced out until its window resets. @default 10 */
  upstreamSlowdownBelow: number;
  /** Longest time one HTTP request may take (Node's server.requestTimeout). @default 30000 */
  requestTimeoutMs: number;
  /** Most open client connections (server.maxConnections). @default 1000 */
  maxConnections: number;
  /** `off`, `allow` (a persisted id or a query), `only` (persisted ids from schema/persisted-operations.json only). @default off */
  persistedOperations: 'off' | 'allow' | 'only';
  /** `jit`: operations graphql-jit runs as graphql-js does are compiled (src/plugins/use-jit.ts); `graphql-js`: none. @default jit */
  executor: 'jit' | 'graphql-js';
  /** Plain JSON POSTs executed without Yoga's HTTP layer (src/http/direct.ts); false: every request through Yoga. @default true */
  directExecution: boolean;
  /** Longest life of a whole cached response (never longer than its freshest-expiring part). 0 disables. @default 60000 */
  responseCacheMaxTtlMs: number;
  /** Longest `max-age` an HTTP answer advertises (never longer than its freshest-expiring part). 0: every answer `no-store`. @default 60000 */
  httpMaxAgeMs: number;
  /** Bearer token `/metrics` requires. @default undefined (no protection: keep /metrics off the public edge) */
  metricsToken: string | undefined;
  /** On SIGTERM/SIGINT: how long in-flight requests may take to finish before their connections are closed. @default 10000 */
  shutdownGraceMs: number;
  /**
   * On SIGTERM/SIGINT, before the listener closes: how long `/health` answers 503 (so a balancer's
   * readiness check takes the replica out) while new requests are still served. @default 0
   */
  shutdownDrainMs: number;
  /** Open graphql-ws sockets per client address (behind TRUSTED_PROXIES, the forwarded one). @default 16 */
  wsMaxPerClient: number;
  /** OpenTelemetry tracing. @default off (no OTLP endpoint configured) */
  tracing: TracingConfig;
  /** Largest upstream answer body read; a larger one is UPSTREAM_ERROR. @default 20 MiB */
  upstreamMaxBodyBytes: number;
  /** With a stale entry at hand, how long the first upstream attempt may take before the stale answer is served (retries go on in the background). @default 1000 */
  staleAfterMs: number;
  /** Least level logged. @default 'info' */
  logLevel: LogLevel;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  /** Which rule the configuration broke, for tooling; `CONFIG_INVALID` for a value out of its range. */
  constructor(
    message: string,
    readonly code = 'CONFIG_INVALID',
  ) {
    super(message);
  }
}
