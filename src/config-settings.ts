import { z } from 'zod';
import { BUDGET_SETTINGS, DEFAULT_CU_BUDGET } from './config-budgets.js';
import {
  bool,
  evmChainList,
  headerList,
  httpUrl,
  int,
  kind,
  nodeList,
  number,
  oneOf,
  redisUrl,
  secretOf,
} from './config-kinds.js';
import { LIVE_SETTINGS } from './config-live.js';
import { LOG_LEVELS } from './config-shape.js';

/** Signs cursors when CURSOR_SECRET is unset (development and tests only: refused in production). */
export const DEVELOPMENT_CURSOR_SECRET = 'gw-cursor-development-secret';

/**
 * Every environment variable the gateway reads, each declared once (src/config-kinds.ts): loadConfig
 * parses the environment with these types, its errors say what each accepts, and docs/configuration.md
 * is generated from this table in this order (`npm run docs:config`).
 */
export const SETTINGS = {
  PORT: int(0, 65535).default(4000).doc('Port the gateway listens on.'),
  HOST: kind(z.string().min(1), 'a host name or address to listen on')
    .default('0.0.0.0')
    .doc('Address the gateway listens on.'),
  DATA_API_URL: httpUrl().default('https://data-api.avax.network').doc('Base URL of the Data API.'),
  METRICS_API_URL: httpUrl()
    .default('https://metrics.avax.network')
    .doc('Base URL of the Metrics API.'),
  NODE_RPC_URL: kind(nodeList, 'an http(s) URL, or a comma list of name=URL')
    .note('the first is the default node')
    .default([{ name: 'default', url: 'https://api.avax.network' }])
    .doc('The configured nodes; the first one is the default.'),
  EVM_CHAINS: kind(
    evmChainList,
    'a comma list of blockchain ids, each optionally prefixed by a node name and a colon',
  ).doc(
    "EVM endpoints besides each node's C-Chain (`/ext/bc/C/rpc`): an L1's EVM, `/ext/bc/<blockchain id>/rpc` on the named node (the default node when no name is given).",
  ),
  DATA_API_KEY: kind(z.string().min(1), 'a non-empty API key')
    .hidden()
    .optional()
    .doc('Sent upstream as `x-glacier-api-key`.'),
  ...LIVE_SETTINGS,
  MISS_LEASE_MS: int(0, 30_000)
    .note('0: no cross-replica coalescing')
    .default(2_000)
    .doc(
      'Cross-replica coalescing of cache misses: the lease a replica takes before fetching (0: off).',
    ),
  REDIS_URL: redisUrl()
    .note('unset: in-process LRU')
    .optional('an in-process LRU cache')
    .doc('The shared cache (an in-process LRU stays in front of it).'),
  REDIS_CLUSTER: bool().default(false).doc('Treat REDIS_URL as one seed node of a Redis Cluster.'),
  ADMIN_TOKEN: secretOf(8, 'token')
    .note('unset: admin mutations disabled')
    .optional('admin mutations disabled')
    .doc('Bearer token for node admin mutations.'),
  UPSTREAM_TIMEOUT_MS: int(100, 120_000).default(10_000).doc('Per-attempt upstream timeout.'),
  UPSTREAM_RETRIES: int(0, 10)
    .default(2)
    .doc('Retries after the first attempt on 429/502/503/504 and connection errors.'),
  MAX_RETRY_AFTER_MS: int(0, 120_000)
    .default(5_000)
    .doc('Longest `retry-after` we are willing to wait before giving up with RATE_LIMITED.'),
  MEMORY_CACHE_MAX_ENTRIES: int(100, 10_000_000)
    .default(50_000)
    .doc('Entries of the in-process LRU.'),
  MEMORY_CACHE_MAX_BYTES: int(1_048_576, 68_719_476_736)
    .note('bytes')
    .default(134_217_728)
    .doc("Bytes the in-process cache may hold (the LRU's entries and its parsed values)."),
  HEAP_GROWTH_PERCENT: int(0, 1000)
    .note("0: V8's own heap growth")
    .default(100)
    .doc(
      "How far V8 lets the old generation grow between full collections, in percent (0: V8's own policy; src/heap-limit.ts).",
    ),
  REDIS_COMMAND_TIMEOUT_MS: int(10, 10_000)
    .default(250)
    .doc('Longest wait for one Redis command before falling back to the upstream.'),
  CURSOR_SECRET: secretOf(8, 'secret')
    .default(DEVELOPMENT_CURSOR_SECRET)
    .doc('Secret that signs connection cursors; set it to the same value on every replica.'),
  MAX_PAGE_SIZE: int(1, 2_000)
    .default(500)
    .doc('Largest `first` a connection accepts (it may span several upstream pages).'),
  RESPONSE_CACHE_MAX_TTL_MS: int(0, 3_600_000)
    .note('0 disables the whole-response cache')
    .default(60_000)
    .doc(
      'Longest life of a whole cached response (never longer than its freshest-expiring part). 0 disables.',
    ),
  HTTP_MAX_AGE_MS: int(0, 86_400_000)
    .note('0: no answer is publicly cacheable')
    .default(60_000)
    .doc(
      'Longest `max-age` an HTTP answer advertises (never longer than its freshest-expiring part). 0: every answer `no-store`.',
    ),
  SURROGATE_KEY_HEADER: oneOf(['Surrogate-Key', 'Cache-Tag', 'both', 'off'])
    .default('Surrogate-Key')
    .doc(
      'The header a publicly cacheable answer names its entities in, for a CDN to purge by (docs/cdn.md): `Surrogate-Key` (Fastly, space-separated), `Cache-Tag` (Cloudflare, Akamai; comma-separated), `both` or `off`.',
    ),
  METRICS_TOKEN: secretOf(16, 'token')
    .note('unset: /metrics unprotected in development, refused on PORT in production')
    .optional('open in development; refused on PORT in production (use METRICS_PORT)')
    .doc('Bearer token `/metrics` requires.'),
  METRICS_PORT: int(1, 65535)
    .optional('/metrics on PORT')
    .doc(
      'Serve `/metrics` on this port alone (a listener of its own on HOST, nothing else on it; METRICS_TOKEN still applies when set); `/metrics` on PORT then answers 404.',
    ),
  SHUTDOWN_GRACE_MS: int(0, 300_000)
    .default(10_000)
    .doc(
      'On SIGTERM/SIGINT: how long in-flight requests may take to finish before their connections are closed.',
    ),
  SHUTDOWN_DRAIN_MS: int(0, 120_000)
    .note('0: close the listener at once')
    .default(0)
    .doc(
      "On SIGTERM/SIGINT, before the listener closes: how long `/health` answers 503 (so a balancer's readiness check takes the replica out) while new requests are still served.",
    ),
  WS_MAX_PER_CLIENT: int(1, 100_000)
    .default(16)
    .doc('Open graphql-ws sockets per client address (behind TRUSTED_PROXIES, the forwarded one).'),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl()
    .note('traces go to <url>/v1/traces; unset: tracing off')
    .optional('tracing off')
    .doc('Base URL of an OTLP/HTTP collector; spans go to `<url>/v1/traces`.'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl()
    .note('the full traces URL')
    .optional()
    .doc(
      'Full OTLP/HTTP traces URL (`…/v1/traces`); takes precedence over OTEL_EXPORTER_OTLP_ENDPOINT.',
    ),
  OTEL_EXPORTER_OTLP_HEADERS: kind(headerList, 'a comma list of key=value (values URL-encoded)')
    .hidden()
    .optional()
    .doc('Headers sent to the collector (its API key, say): never logged.'),
  OTEL_SERVICE_NAME: kind(z.string().min(1).max(200), 'a service name of 1-200 characters')
    .default('avalanche-graphql-gateway')
    .doc('`service.name` of every span.'),
  OTEL_TRACES_SAMPLER_ARG: number(0, 1)
    .note('the share of new traces sampled')
    .default(1)
    .doc("Share of new traces sampled, 0–1 (a sampled caller's `traceparent` is always followed)."),
  UPSTREAM_MAX_BODY_BYTES: int(1024, 1024 * 1024 * 1024)
    .note('bytes')
    .default(20 * 1024 * 1024)
    .doc('Largest upstream answer body read; a larger one is UPSTREAM_ERROR.'),
  STALE_AFTER_MS: int(0, 120_000)
    .default(1_000)
    .doc(
      'With a stale entry at hand, how long the first upstream attempt may take before the stale answer is served (retries go on in the background).',
    ),
  MAX_QUERY_COST: int(1, 100_000_000)
    .note('compute units')
    .optional(String(DEFAULT_CU_BUDGET))
    .doc(
      "Largest estimated cost of one operation, in the upstream's compute units (src/edge/cost.ts): the unauthenticated plan's whole minute, which a costlier query could never be served within (docs/cost.md); never above CLIENT_CU_PER_MINUTE (start-up stops), and unset it follows a smaller client budget.",
    ),
  MAX_QUERY_DEPTH: int(3, 100)
    .default(20)
    .doc('Deepest selection nesting accepted, introspection (`ofType`) included.'),
  MAX_ALIASES: int(0, 10_000).default(100).doc('Most aliases in one operation.'),
  MAX_DIRECTIVES: int(0, 10_000).default(20).doc('Most directives in one operation.'),
  MAX_TOKENS: int(100, 1_000_000)
    .default(4_000)
    .doc('Most lexical tokens in one document (the parser stops there).'),
  NODE_ENV: kind(z.string(), 'production, test, or anything else for development')
    .default('development')
    .doc(
      '`NODE_ENV=production`: introspection, field suggestions and GraphiQL off unless enabled, CORS from the allowlist only, `_service` without the admin fields unless the admin token is sent, `/metrics` on PORT only with METRICS_TOKEN; `test`: each reuse of a parsed cache value is checked for mutation (costly).',
    ),
  INTROSPECTION: bool().optional('on, off in production').doc('Schema introspection.'),
  FIELD_SUGGESTIONS: bool()
    .optional('on, off in production')
    .doc(
      '"Did you mean …?" suggestions in error messages (they name the schema\'s fields, types and values).',
    ),
  GRAPHIQL: bool().optional('on, off in production').doc('GraphiQL at /graphql.'),
  CORS_ORIGINS: kind(
    z.string(),
    'a comma list of origins (https://app.example), or * for any origin without credentials',
  )
    .optional('any in development, none in production')
    .doc('Origins allowed by CORS; `*` allows any origin without credentials.'),
  CSRF_PREVENTION: bool()
    .default(true)
    .doc(
      'Require the `x-graphql-yoga-csrf` header on requests a browser sends without a preflight.',
    ),
  MAX_BODY_BYTES: int(1_000, 100_000_000).default(1_000_000).doc('Largest request body.'),
  ...BUDGET_SETTINGS,
  TRUSTED_PROXIES: kind(z.string(), 'a comma list of IPs, IPv4 CIDRs, loopback, or *')
    .default('', 'none')
    .doc(
      'Proxies whose `x-forwarded-for` is believed: IPs, IPv4 CIDRs, `loopback`, or `*` (any peer: refused in production).',
    ),
  CIRCUIT_BREAKER_FAILURES: int(0, 1_000)
    .note('0: no breaker')
    .default(5)
    .doc("Consecutive failed calls that open an upstream's circuit breaker (0 disables it)."),
  CIRCUIT_BREAKER_COOLDOWN_MS: int(100, 600_000)
    .default(10_000)
    .doc('How long an open circuit fails fast before one call may try again.'),
  UPSTREAM_SLOWDOWN_BELOW: int(0, 1_000_000)
    .default(10)
    .doc(
      'Below this `ratelimit-remaining`, calls to that upstream are spaced out until its window resets.',
    ),
  REQUEST_TIMEOUT_MS: int(1_000, 600_000)
    .default(30_000)
    .doc("Longest time one HTTP request may take (Node's server.requestTimeout)."),
  MAX_CONNECTIONS: int(1, 1_000_000)
    .default(1_000)
    .doc(
      'Most open client connections for ordinary traffic; Node closes connections beyond it plus CONNECTIONS_RESERVED at accept.',
    ),
  CONNECTIONS_RESERVED: int(0, 100_000)
    .default(16)
    .doc(
      'Connections above MAX_CONNECTIONS that serve only `/health`, `/live` and `/metrics` (anything else on them: 503 SERVER_BUSY), so a full server still answers its balancer.',
    ),
  STREAMS_PER_CLIENT: int(1, 1_000_000)
    .note('SSE streams and graphql-ws sockets together')
    .optional('a tenth of MAX_CONNECTIONS (at least 1)')
    .doc(
      'Long-lived connections (SSE streams and graphql-ws sockets together) one client (its address, as for the budgets) may hold per replica; over it: HTTP 429 TOO_MANY_CONNECTIONS, or graphql-ws close 4429.',
    ),
  PERSISTED_OPERATIONS: oneOf(['off', 'allow', 'only'])
    .default('off')
    .doc(
      '`off`, `allow` (a persisted id or a query), `only` (persisted ids only: PERSISTED_OPERATIONS_FILE, by default schema/persisted-operations.json).',
    ),
  PERSISTED_OPERATIONS_FILE: kind(z.string(), 'a comma list of JSON files')
    .optional('schema/persisted-operations.json')
    .doc(
      "The persisted operations `allow` and `only` run: files in the formats GraphQL Codegen's client preset (`persisted-documents.json`), Relay's compiler (its persisted queries map) and Apollo's manifest write; reloaded when a file changes or on SIGHUP.",
    ),
  EXECUTOR: oneOf(['jit', 'graphql-js'])
    .default('jit')
    .doc(
      '`jit`: operations graphql-jit runs as graphql-js does are compiled (src/plugins/use-jit.ts); `graphql-js`: none.',
    ),
  DIRECT_EXECUTION: bool()
    .default(true)
    .doc(
      "Plain JSON POSTs executed without Yoga's HTTP layer (src/http/direct.ts); false: every request through Yoga.",
    ),
  LOG_LEVEL: kind(z.enum(LOG_LEVELS), `one of ${LOG_LEVELS.join(', ')}`)
    .default('info')
    .doc('Least level logged.'),
};

const declared = Object.entries(SETTINGS);

/** What each variable accepts, for start-up errors. */
export const ACCEPTS: Record<string, string> = Object.fromEntries(
  declared.map(([name, setting]) => [name, setting.accepts]),
);

/** Variables whose values are never echoed in a configuration error. */
export const SECRETS: ReadonlySet<string> = new Set(
  declared.filter(([, setting]) => setting.secret).map(([name]) => name),
);
