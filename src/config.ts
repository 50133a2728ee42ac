import { DEFAULT_CU_BUDGET as CU_MINUTE, costLimit } from './config-budgets.js';
import { envSchema, list } from './config-kinds.js';
import { liveSections } from './config-live.js';
import { ACCEPTS, DEVELOPMENT_CURSOR_SECRET, SECRETS, SETTINGS } from './config-settings.js';
import { type Config, ConfigError } from './config-shape.js';
import { PLANS } from './upstream/compute-units.js';

/** The only reader of `process.env`; a bad value stops start-up naming the variable (`ConfigError`). */
export { type Config, ConfigError, type NodeTarget } from './config-shape.js';

/** Parses the environment: one key per variable of SETTINGS (src/config-settings.ts). */
const schema = envSchema(SETTINGS);

/** Reads the environment (blank values count as unset) into a typed Config, or throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v.trim() !== '') input[key] = v.trim();
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `  ${name}=${SECRETS.has(name) ? '(hidden)' : JSON.stringify(input[name] ?? '')}: ${i.message}; accepts ${ACCEPTS[name] ?? 'see docs/configuration.md'}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const testing = e.NODE_ENV === 'test';
  const clientBudgetPerMinute = e.CLIENT_CU_PER_MINUTE ?? e.CLIENT_BUDGET_PER_MINUTE ?? CU_MINUTE;
  // Anyone can sign cursors with the development secret: production needs its own.
  if (production && e.CURSOR_SECRET === DEVELOPMENT_CURSOR_SECRET) {
    throw new ConfigError(
      `Invalid configuration:\n  CURSOR_SECRET: required with NODE_ENV=production (the development default lets anyone forge cursors); accepts ${ACCEPTS.CURSOR_SECRET}, the same on every replica`,
    );
  }
  // `*` believes any peer's x-forwarded-for: every client could name itself anyone, and so escape its
  // budget and its fair share. Fine on a laptop, never on the internet.
  if (production && list(e.TRUSTED_PROXIES).includes('*')) {
    throw new ConfigError(
      'Invalid configuration:\n  TRUSTED_PROXIES=*: refused with NODE_ENV=production (any client could forge x-forwarded-for and pass for anyone); name the proxies: their IPs, CIDRs, or loopback',
      'TRUSTED_PROXIES_ANY_IN_PRODUCTION',
    );
  }
  const named = (node: string) => e.NODE_RPC_URL.some((n) => n.name === node);
  const unknownNode = e.EVM_CHAINS.find((c) => c.node && !named(c.node));
  if (unknownNode) {
    throw new ConfigError(`EVM_CHAINS: node "${unknownNode.node}" is not named in NODE_RPC_URL`);
  }
  return {
    port: e.PORT,
    checkSharedValues: testing,
    host: e.HOST,
    dataApiUrl: e.DATA_API_URL,
    metricsApiUrl: e.METRICS_API_URL,
    nodes: e.NODE_RPC_URL,
    evmChains: e.EVM_CHAINS.map((c) => ({
      node: c.node || e.NODE_RPC_URL[0]!.name,
      blockchainId: c.blockchainId,
    })),
    liveChains: e.LIVE_WS,
    liveLockTtlMs: e.LIVE_LOCK_TTL_MS,
    ...liveSections(e),
    missLeaseMs: e.MISS_LEASE_MS,
    dataApiKey: e.DATA_API_KEY,
    redisUrl: e.REDIS_URL,
    redisCluster: e.REDIS_CLUSTER,
    adminToken: e.ADMIN_TOKEN,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreamRetries: e.UPSTREAM_RETRIES,
    maxRetryAfterMs: e.MAX_RETRY_AFTER_MS,
    memoryCacheMaxEntries: e.MEMORY_CACHE_MAX_ENTRIES,
    memoryCacheMaxBytes: e.MEMORY_CACHE_MAX_BYTES,
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    cursorSecret: e.CURSOR_SECRET,
    maxPageSize: e.MAX_PAGE_SIZE,
    responseCacheMaxTtlMs: e.RESPONSE_CACHE_MAX_TTL_MS,
    httpMaxAgeMs: e.HTTP_MAX_AGE_MS,
    surrogateKeyHeader: e.SURROGATE_KEY_HEADER,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    wsMaxPerClient: e.WS_MAX_PER_CLIENT,
    tracing: {
      otlpTracesUrl:
        e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
        (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces` : undefined),
      otlpHeaders: e.OTEL_EXPORTER_OTLP_HEADERS ?? {},
      serviceName: e.OTEL_SERVICE_NAME,
      sampleRatio: e.OTEL_TRACES_SAMPLER_ARG,
    },
    upstreamMaxBodyBytes: e.UPSTREAM_MAX_BODY_BYTES,
    staleAfterMs: e.STALE_AFTER_MS,
    maxQueryCost: costLimit(e.MAX_QUERY_COST, clientBudgetPerMinute),
    maxQueryDepth: e.MAX_QUERY_DEPTH,
    maxAliases: e.MAX_ALIASES,
    maxDirectives: e.MAX_DIRECTIVES,
    maxTokens: e.MAX_TOKENS,
    production,
    introspection: e.INTROSPECTION ?? !production,
    fieldSuggestions: e.FIELD_SUGGESTIONS ?? !production,
    graphiql: e.GRAPHIQL ?? !production,
    corsOrigins: e.CORS_ORIGINS !== undefined ? list(e.CORS_ORIGINS) : production ? [] : ['*'],
    csrfPrevention: e.CSRF_PREVENTION,
    maxBodyBytes: e.MAX_BODY_BYTES,
    clientBudgetPerMinute,
    upstreamPlan: e.UPSTREAM_PLAN,
    upstreamCuPerMinute: e.UPSTREAM_CU_PER_MINUTE ?? PLANS[e.UPSTREAM_PLAN].perMinute,
    upstreamCuPerDay: e.UPSTREAM_CU_PER_DAY ?? PLANS[e.UPSTREAM_PLAN].perDay,
    governor: {
      systemShare: e.UPSTREAM_SYSTEM_SHARE,
      contention: e.FAIR_SHARE_CONTENTION,
      maxPayers: e.FAIR_SHARE_MAX_PAYERS,
      fallbackShare: e.UPSTREAM_LEDGER_FALLBACK_SHARE,
      ledgerTimeoutMs: e.UPSTREAM_LEDGER_TIMEOUT_MS,
      maxBlockSec: e.UPSTREAM_BLOCK_MAX_SEC,
      limitFloor: e.UPSTREAM_LIMIT_FLOOR,
      limitHoldMs: e.UPSTREAM_LIMIT_HOLD_MS,
    },
    cuDefaults: { data: e.CU_DEFAULT_DATA, metrics: e.CU_DEFAULT_METRICS, rpc: e.CU_DEFAULT_RPC },
    trustedProxies: list(e.TRUSTED_PROXIES),
    circuitBreakerFailures: e.CIRCUIT_BREAKER_FAILURES,
    circuitBreakerCooldownMs: e.CIRCUIT_BREAKER_COOLDOWN_MS,
    upstreamSlowdownBelow: e.UPSTREAM_SLOWDOWN_BELOW,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    connectionsReserved: e.CONNECTIONS_RESERVED,
    streamsPerClient: e.STREAMS_PER_CLIENT ?? Math.max(1, Math.floor(e.MAX_CONNECTIONS / 10)),
    persistedOperations: e.PERSISTED_OPERATIONS,
    persistedOperationsFiles: persistedFiles(e.PERSISTED_OPERATIONS, e.PERSISTED_OPERATIONS_FILE),
    executor: e.EXECUTOR,
    directExecution: e.DIRECT_EXECUTION,
    logLevel: e.LOG_LEVEL,
  };
}

/** PERSISTED_OPERATIONS_FILE's files; naming some while PERSISTED_OPERATIONS is off would run none of them. */
function persistedFiles(mode: string, raw: string | undefined): string[] {
  const files = raw === undefined ? [] : list(raw);
  if (files.length > 0 && mode === 'off')
    throw new ConfigError(
      'Invalid configuration:\n  PERSISTED_OPERATIONS_FILE is set while PERSISTED_OPERATIONS=off: its operations would never run; set PERSISTED_OPERATIONS=only (or allow)',
      'PERSISTED_OPERATIONS_FILE_UNUSED',
    );
  return files;
}
