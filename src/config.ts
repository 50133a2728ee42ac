import { z } from 'zod';
import { ACCEPTS, SECRETS } from './config-accepts.js';
import { DEFAULT_CU_BUDGET as CU_MINUTE, costLimit } from './config-budgets.js';
import { liveSections } from './config-live.js';
import { type Config, ConfigError, LOG_LEVELS, type NodeTarget } from './config-shape.js';
import { CU_DEFAULTS, PLANS, type PlanName } from './upstream/compute-units.js';

const PLAN_NAMES = Object.keys(PLANS) as [PlanName, ...PlanName[]];

/** The only reader of `process.env`; a bad value stops start-up naming the variable (`ConfigError`). */
export { type Config, ConfigError, type NodeTarget } from './config-shape.js';
/** The settings' declarations, read by scripts/docs-config.ts to generate docs/configuration.md. */
export { schema as configSchema };

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
  .transform((u) => u.replace(/\/+$/, ''));

const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** `NODE_RPC_URL` is one URL or a list `name=url,name=url`; the first entry is the default node. */
const nodeList = z.string().transform((raw, ctx): NodeTarget[] => {
  const out: NodeTarget[] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = eq > 0 && !part.slice(0, eq).includes('/') ? part.slice(0, eq) : 'default';
    const url = eq > 0 && name !== 'default' ? part.slice(eq + 1) : part;
    const parsed = httpUrl.safeParse(url);
    if (!parsed.success || !/^[A-Za-z][\w-]*$/.test(name)) {
      ctx.addIssue({ code: 'custom', message: `"${part}" is not a URL or name=URL` });
      return z.NEVER;
    }
    if (out.some((n) => n.name === name)) {
      ctx.addIssue({ code: 'custom', message: `node name "${name}" appears twice` });
      return z.NEVER;
    }
    out.push({ name, url: parsed.data });
  }
  if (out.length === 0) ctx.addIssue({ code: 'custom', message: 'needs at least one URL' });
  return out;
});

/** An `EVM_CHAINS` entry: a CB58 blockchain id, optionally prefixed by a node name and a colon. */
const EVM_CHAIN_ENTRY = /^([A-Za-z][\w-]*:)?[1-9A-HJ-NP-Za-km-z]{40,60}$/;
/** `LIVE_WS`: a comma list of chainId=ws(s)://url, one websocket per EVM chain. */
const liveList = z.string().transform((raw, ctx) => {
  const out: { chainId: string; url: string }[] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d{1,20})=(wss?:\/\/\S+)$/.exec(part);
    if (!m || out.some((c) => c.chainId === m[1])) {
      ctx.addIssue({
        code: 'custom',
        message: `"${part}" is not chainId=ws://URL (once per chain)`,
      });
      return z.NEVER;
    }
    out.push({ chainId: m[1]!, url: m[2]! });
  }
  return out;
});

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const list = (raw: string) =>
  raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

const redisUrl = z
  .string()
  .refine((u) => /^rediss?:\/\/[^\s]+$/.test(u), 'must be a redis:// or rediss:// URL');
const secret = z.string().min(8, 'must be at least 8 characters');

/** Signs cursors when CURSOR_SECRET is unset (development and tests only: refused in production). */
const DEVELOPMENT_CURSOR_SECRET = 'gw-cursor-development-secret';

const schema = z.object({
  PORT: intIn(0, 65535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_API_URL: httpUrl.default('https://data-api.avax.network'),
  METRICS_API_URL: httpUrl.default('https://metrics.avax.network'),
  NODE_RPC_URL: nodeList.default([{ name: 'default', url: 'https://api.avax.network' }]),
  EVM_CHAINS: z
    .string()
    .default('')
    .refine(
      (raw) => list(raw).every((p) => EVM_CHAIN_ENTRY.test(p)),
      'expected node:blockchainId entries',
    )
    .transform((raw) =>
      list(raw).map((p) => {
        const [node, blockchainId] = p.includes(':') ? p.split(':') : ['', p];
        return { node: node!, blockchainId: blockchainId! };
      }),
    ),
  DATA_API_KEY: z.string().min(1).optional(),
  LIVE_WS: liveList.default([]),
  LIVE_LOCK_TTL_MS: intIn(300, 60_000).default(3_000),
  ACTIVITY_MAX_ADDRESSES: intIn(1, 10_000).default(1_000),
  ACTIVITY_SUBSCRIPTIONS_PER_CLIENT: intIn(1, 10_000).default(64),
  ACTIVITY_LOG_BLOCKS: intIn(16, 100_000).default(1_024),
  ACTIVITY_MAX_UNION: intIn(0, 10_000).default(200),
  WEBHOOK_URL: httpUrl.optional(),
  WEBHOOK_SECRET: secret.optional(),
  WEBHOOK_WINDOW_BLOCKS: intIn(16, 100_000).default(1_024),
  WEBHOOK_MAX_ADDRESSES: intIn(1, 100_000).default(1_000),
  WEBHOOK_SYNC_MS: intIn(100, 600_000).default(10_000),
  MISS_LEASE_MS: intIn(0, 30_000).default(2_000),
  REDIS_URL: redisUrl.optional(),
  REDIS_CLUSTER: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  ADMIN_TOKEN: secret.optional(),
  UPSTREAM_TIMEOUT_MS: intIn(100, 120_000).default(10_000),
  UPSTREAM_RETRIES: intIn(0, 10).default(2),
  MAX_RETRY_AFTER_MS: intIn(0, 120_000).default(5_000),
  MEMORY_CACHE_MAX_ENTRIES: intIn(100, 10_000_000).default(50_000),
  MEMORY_CACHE_MAX_BYTES: intIn(1_048_576, 68_719_476_736).default(134_217_728),
  HEAP_GROWTH_PERCENT: intIn(0, 1000).default(100),
  REDIS_COMMAND_TIMEOUT_MS: intIn(10, 10_000).default(250),
  CURSOR_SECRET: secret.default(DEVELOPMENT_CURSOR_SECRET),
  MAX_PAGE_SIZE: intIn(1, 2_000).default(500),
  RESPONSE_CACHE_MAX_TTL_MS: intIn(0, 3_600_000).default(60_000),
  HTTP_MAX_AGE_MS: intIn(0, 86_400_000).default(60_000),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SHUTDOWN_GRACE_MS: intIn(0, 300_000).default(10_000),
  SHUTDOWN_DRAIN_MS: intIn(0, 120_000).default(0),
  WS_MAX_PER_CLIENT: intIn(1, 100_000).default(16),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .transform((raw, ctx) => {
      const out: Record<string, string> = {};
      for (const part of raw
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const eq = part.indexOf('=');
        const key = eq > 0 ? part.slice(0, eq).trim() : '';
        if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
          ctx.addIssue({ code: 'custom', message: 'each entry must be key=value' });
          return z.NEVER;
        }
        try {
          out[key] = decodeURIComponent(part.slice(eq + 1).trim());
        } catch {
          ctx.addIssue({ code: 'custom', message: 'a value is not URL-encoded' });
          return z.NEVER;
        }
      }
      return out;
    })
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('avalanche-graphql-gateway'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  UPSTREAM_MAX_BODY_BYTES: intIn(1024, 1024 * 1024 * 1024).default(20 * 1024 * 1024),
  STALE_AFTER_MS: intIn(0, 120_000).default(1_000),
  MAX_QUERY_COST: intIn(1, 100_000_000).optional(),
  MAX_QUERY_DEPTH: intIn(3, 100).default(20),
  MAX_ALIASES: intIn(0, 10_000).default(100),
  MAX_DIRECTIVES: intIn(0, 10_000).default(20),
  MAX_TOKENS: intIn(100, 1_000_000).default(4_000),
  NODE_ENV: z.string().default('development'),
  INTROSPECTION: bool.optional(),
  GRAPHIQL: bool.optional(),
  CORS_ORIGINS: z.string().optional(),
  CSRF_PREVENTION: bool.default(true),
  MAX_BODY_BYTES: intIn(1_000, 100_000_000).default(1_000_000),
  CLIENT_CU_PER_MINUTE: intIn(0, 100_000_000).optional(),
  CLIENT_BUDGET_PER_MINUTE: intIn(0, 100_000_000).optional(), // the older name of CLIENT_CU_PER_MINUTE
  UPSTREAM_PLAN: z.enum(PLAN_NAMES).default('unauthenticated'),
  UPSTREAM_CU_PER_MINUTE: intIn(0, 1_000_000_000).optional(),
  UPSTREAM_CU_PER_DAY: intIn(0, 1_000_000_000_000).optional(),
  CU_DEFAULT_DATA: intIn(0, 100_000).default(CU_DEFAULTS.data),
  CU_DEFAULT_METRICS: intIn(0, 100_000).default(CU_DEFAULTS.metrics),
  CU_DEFAULT_RPC: intIn(0, 100_000).default(CU_DEFAULTS.rpc),
  TRUSTED_PROXIES: z.string().default(''),
  CIRCUIT_BREAKER_FAILURES: intIn(0, 1_000).default(5),
  CIRCUIT_BREAKER_COOLDOWN_MS: intIn(100, 600_000).default(10_000),
  UPSTREAM_SLOWDOWN_BELOW: intIn(0, 1_000_000).default(10),
  REQUEST_TIMEOUT_MS: intIn(1_000, 600_000).default(30_000),
  MAX_CONNECTIONS: intIn(1, 1_000_000).default(1_000),
  PERSISTED_OPERATIONS: z.enum(['off', 'allow', 'only']).default('off'),
  EXECUTOR: z.enum(['jit', 'graphql-js']).default('jit'),
  DIRECT_EXECUTION: bool.default(true),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
});

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
    metricsToken: e.METRICS_TOKEN,
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
    graphiql: e.GRAPHIQL ?? !production,
    corsOrigins: e.CORS_ORIGINS !== undefined ? list(e.CORS_ORIGINS) : production ? [] : ['*'],
    csrfPrevention: e.CSRF_PREVENTION,
    maxBodyBytes: e.MAX_BODY_BYTES,
    clientBudgetPerMinute,
    upstreamPlan: e.UPSTREAM_PLAN,
    upstreamCuPerMinute: e.UPSTREAM_CU_PER_MINUTE ?? PLANS[e.UPSTREAM_PLAN].perMinute,
    upstreamCuPerDay: e.UPSTREAM_CU_PER_DAY ?? PLANS[e.UPSTREAM_PLAN].perDay,
    cuDefaults: { data: e.CU_DEFAULT_DATA, metrics: e.CU_DEFAULT_METRICS, rpc: e.CU_DEFAULT_RPC },
    trustedProxies: list(e.TRUSTED_PROXIES),
    circuitBreakerFailures: e.CIRCUIT_BREAKER_FAILURES,
    circuitBreakerCooldownMs: e.CIRCUIT_BREAKER_COOLDOWN_MS,
    upstreamSlowdownBelow: e.UPSTREAM_SLOWDOWN_BELOW,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    persistedOperations: e.PERSISTED_OPERATIONS,
    executor: e.EXECUTOR,
    directExecution: e.DIRECT_EXECUTION,
    logLevel: e.LOG_LEVEL,
  };
}
