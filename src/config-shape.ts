import type { TracingConfig } from './telemetry/tracing.js';
import type { PlanName } from './upstream/compute-units.js';

/** The levels a log line may have, least to most severe, and `silent` (logs nothing). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The typed configuration `loadConfig` (src/config.ts) returns. Each field's comment names the variable it
 * comes from, whose doc, default and accepted values are declared once in src/config-settings.ts; the
 * fields no variable fills alone say how they are derived.
 */

/** A named node JSON-RPC base URL (`/ext/...` paths are appended). */
export interface NodeTarget {
  name: string;
  url: string;
}

export interface Config {
  /** PORT */
  port: number;
  /** HOST */
  host: string;
  /** DATA_API_URL */
  dataApiUrl: string;
  /** METRICS_API_URL */
  metricsApiUrl: string;
  /** NODE_RPC_URL */
  nodes: NodeTarget[];
  /** EVM_CHAINS, each entry's node named (the first of `nodes` when the entry names none). */
  evmChains: { node: string; blockchainId: string }[];
  /** LIVE_WS */
  liveChains: { chainId: string; url: string }[];
  /** LIVE_LOCK_TTL_MS */
  liveLockTtlMs: number;
  /** Freshness by change for address-scoped answers (LIVE_ADDRESS_FRESHNESS=touch, the default); undefined: by the head. */
  touches: { window: number; lagBlocks: number } | undefined;
  /** ACTIVITY_* (src/live/activity*.ts). */
  activity: {
    maxAddresses: number;
    subscriptionsPerClient: number;
    /** ICM_SUBSCRIPTIONS_PER_CLIENT */
    icmSubscriptionsPerClient: number;
    /** 10 × ACTIVITY_MAX_ADDRESSES: a chain's followed addresses at most. */
    followedPerChain: number;
    /** ACTIVITY_ADDRESSES_PER_CLIENT (default: a quarter of followedPerChain, at least maxAddresses). */
    addressesPerClient: number;
    logBlocks: number;
  };
  /** WEBHOOK_* (src/live/webhook-*.ts); `maxRegistered` is WEBHOOK_MAX_ADDRESSES. */
  webhook: {
    url: string | undefined;
    secret: string | undefined;
    windowBlocks: number;
    maxRegistered: number;
    syncMs: number;
  };
  /** MISS_LEASE_MS */
  missLeaseMs: number;
  /** DATA_API_KEY */
  dataApiKey: string | undefined;
  /** REDIS_URL */
  redisUrl: string | undefined;
  /** REDIS_CLUSTER */
  redisCluster: boolean;
  /** ADMIN_TOKEN */
  adminToken: string | undefined;
  /** UPSTREAM_TIMEOUT_MS */
  upstreamTimeoutMs: number;
  /** UPSTREAM_RETRIES */
  upstreamRetries: number;
  /** MAX_RETRY_AFTER_MS */
  maxRetryAfterMs: number;
  /** MEMORY_CACHE_MAX_ENTRIES */
  memoryCacheMaxEntries: number;
  /** MEMORY_CACHE_MAX_BYTES */
  memoryCacheMaxBytes: number;
  /** HEAP_GROWTH_PERCENT */
  heapGrowthPercent: number;
  /** REDIS_COMMAND_TIMEOUT_MS */
  redisCommandTimeoutMs: number;
  /** CURSOR_SECRET */
  cursorSecret: string;
  /** MAX_PAGE_SIZE */
  maxPageSize: number;
  /** MAX_QUERY_COST; unset, the smaller of the plan's minute and the client budget (src/config-budgets.ts). */
  maxQueryCost: number;
  /** MAX_QUERY_DEPTH */
  maxQueryDepth: number;
  /** MAX_ALIASES */
  maxAliases: number;
  /** MAX_DIRECTIVES */
  maxDirectives: number;
  /** MAX_TOKENS */
  maxTokens: number;
  /** NODE_ENV=production */
  production: boolean;
  /** NODE_ENV=test: each reuse of a parsed cache value checks that no caller mutated it (costly). */
  checkSharedValues: boolean;
  /** INTROSPECTION; unset, off in production. */
  introspection: boolean;
  /** FIELD_SUGGESTIONS; unset, off in production. */
  fieldSuggestions: boolean;
  /** GRAPHIQL; unset, off in production. */
  graphiql: boolean;
  /** CORS_ORIGINS as a list; unset, `['*']` in development and none in production. */
  corsOrigins: string[];
  /** CSRF_PREVENTION */
  csrfPrevention: boolean;
  /** MAX_BODY_BYTES */
  maxBodyBytes: number;
  /** CLIENT_CU_PER_MINUTE, or CLIENT_BUDGET_PER_MINUTE, or the plan's minute. */
  clientBudgetPerMinute: number;
  /** UPSTREAM_PLAN */
  upstreamPlan: PlanName;
  /** UPSTREAM_CU_PER_MINUTE, or the plan's. */
  upstreamCuPerMinute: number;
  /** UPSTREAM_CU_PER_DAY, or the plan's. */
  upstreamCuPerDay: number;
  /** The governor's bounds (UPSTREAM_SYSTEM_SHARE, FAIR_SHARE_*, UPSTREAM_LEDGER_FALLBACK_SHARE, UPSTREAM_BLOCK_MAX_SEC, UPSTREAM_LIMIT_*). */
  governor: {
    systemShare: number;
    contention: number;
    maxPayers: number;
    fallbackShare: number;
    ledgerTimeoutMs: number;
    maxBlockSec: number;
    limitFloor: number;
    limitHoldMs: number;
  };
  /** CU_DEFAULT_DATA, CU_DEFAULT_METRICS and CU_DEFAULT_RPC. */
  cuDefaults: { data: number; metrics: number; rpc: number };
  /** TRUSTED_PROXIES as a list. */
  trustedProxies: string[];
  /** CIRCUIT_BREAKER_FAILURES */
  circuitBreakerFailures: number;
  /** CIRCUIT_BREAKER_COOLDOWN_MS */
  circuitBreakerCooldownMs: number;
  /** UPSTREAM_SLOWDOWN_BELOW */
  upstreamSlowdownBelow: number;
  /** REQUEST_TIMEOUT_MS */
  requestTimeoutMs: number;
  /** MAX_CONNECTIONS */
  maxConnections: number;
  /** CONNECTIONS_RESERVED */
  connectionsReserved: number;
  /** STREAMS_PER_CLIENT (default: a tenth of MAX_CONNECTIONS, at least 1) */
  streamsPerClient: number;
  /** PERSISTED_OPERATIONS */
  persistedOperations: 'off' | 'allow' | 'only';
  /** PERSISTED_OPERATIONS_FILE (empty: the build-time manifest) */
  persistedOperationsFiles: string[];
  /** EXECUTOR */
  executor: 'jit' | 'graphql-js';
  /** DIRECT_EXECUTION */
  directExecution: boolean;
  /** RESPONSE_CACHE_MAX_TTL_MS */
  responseCacheMaxTtlMs: number;
  /** HTTP_MAX_AGE_MS */
  httpMaxAgeMs: number;
  /** SURROGATE_KEY_HEADER */
  surrogateKeyHeader: 'Surrogate-Key' | 'Cache-Tag' | 'both' | 'off';
  /** METRICS_TOKEN */
  metricsToken: string | undefined;
  /** METRICS_PORT: `/metrics` on a listener of its own (and not on `port`). */
  metricsPort: number | undefined;
  /** SHUTDOWN_GRACE_MS */
  shutdownGraceMs: number;
  /** SHUTDOWN_DRAIN_MS */
  shutdownDrainMs: number;
  /** WS_MAX_PER_CLIENT */
  wsMaxPerClient: number;
  /** OTEL_* (src/telemetry/tracing.ts); off without an OTLP endpoint. */
  tracing: TracingConfig;
  /** UPSTREAM_MAX_BODY_BYTES */
  upstreamMaxBodyBytes: number;
  /** STALE_AFTER_MS */
  staleAfterMs: number;
  /** LOG_LEVEL */
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
