import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { OperationLabels } from './telemetry/operation-labels.js';

/**
 * Prometheus metrics of one gateway (its own registry, so several gateways in one process — tests —
 * never collide). Served at `/metrics` by plugins/use-metrics.ts.
 */
export interface GatewayMetrics {
  registry: Registry;
  cacheEvents: Counter<'resource' | 'event'>;
  redisErrors: Counter<'op'>;
  /** Keys read from each tier of the shared cache (the LRU, then Redis for the LRU's misses). */
  cacheTierReads: Counter<'tier' | 'result'>;
  upstreamCalls: Counter<'upstream' | 'outcome'>;
  upstreamRetries: Counter<'upstream'>;
  /** Compute units spent upstream (src/upstream/compute-units.ts), by route template or JSON-RPC method. */
  upstreamCu: Counter<'upstream' | 'route'>;
  /** Upstream calls the plan-wide governor refused before sending, by budget and kind of work. */
  upstreamCuRefused: Counter<'upstream' | 'budget' | 'work'>;
  /** Compute units the plan-wide governor let through, by kind of work (system, request). */
  upstreamCuGoverned: Counter<'upstream' | 'work'>;
  responseCache: Counter<'event'>;
  cacheHealthy: Gauge;
  /** Seconds to the response headers of each upstream HTTP attempt, by route template and status. */
  upstreamLatency: Histogram<'upstream' | 'method' | 'route' | 'status'>;
  /** Seconds to serve each GraphQL request, by HTTP status and operation (bounded: `operations`). */
  requestDuration: Histogram<'status' | 'operation'>;
  /** Errors in GraphQL answers, by operation and `extensions.code` (each code once per request). */
  graphqlErrors: Counter<'operation' | 'code'>;
  /** The `operation` label's values: persisted and named operations, bounded; `other` for the rest. */
  operations: OperationLabels;
  /** Unhandled rejections and uncaught exceptions the process survived. */
  processErrors: Counter<'kind'>;
  /** Operations executed, by executor: `jit` (compiled) or `graphql-js`. */
  executions: Counter<'executor'>;
}

/** Upstream and request latency buckets (seconds): 5 ms to 10 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): GatewayMetrics {
  const registry = new Registry();
  return {
    registry,
    cacheEvents: new Counter({
      name: 'gateway_cache_events_total',
      help: 'Read-through cache outcomes per upstream resource kind: hit, miss, coalesced (waited on an in-flight load), negative-hit, stale-revalidate, stale-if-error (the upstream failed or answered garbage), stale-if-slow (an attempt failed or outlived STALE_AFTER_MS: stale served at once, the load refreshes behind), refresh-failed.',
      labelNames: ['resource', 'event'],
      registers: [registry],
    }),
    redisErrors: new Counter({
      name: 'gateway_redis_errors_total',
      help: 'Redis errors by operation (get, set, connection); each one was served from the upstream instead.',
      labelNames: ['op'],
      registers: [registry],
    }),
    cacheTierReads: new Counter({
      name: 'gateway_cache_tier_reads_total',
      help: "Keys read from each tier of the cache by result (hit, miss): tier lru (in-process), then redis for the LRU's misses. Only with REDIS_URL set.",
      labelNames: ['tier', 'result'],
      registers: [registry],
    }),
    upstreamCalls: new Counter({
      name: 'gateway_upstream_calls_total',
      help: 'Upstream calls (after retries) by upstream and outcome (ok, the error kind/status, or refused: not sent, the plan-wide compute-unit budget was short).',
      labelNames: ['upstream', 'outcome'],
      registers: [registry],
    }),
    upstreamRetries: new Counter({
      name: 'gateway_upstream_retries_total',
      help: 'Upstream attempts retried after a 429/5xx or a connection error.',
      labelNames: ['upstream'],
      registers: [registry],
    }),
    upstreamCu: new Counter({
      name: 'gateway_upstream_cu_total',
      help: "Compute units spent upstream at the published prices (every answered attempt but a 429), by upstream and route template (a JSON-RPC call: its method). The upstream plan's limits are in these units.",
      labelNames: ['upstream', 'route'],
      registers: [registry],
    }),
    upstreamCuRefused: new Counter({
      name: 'gateway_upstream_cu_refused_total',
      help: "Upstream calls not sent because the plan-wide compute-unit budget was short, by budget (upstream-per-minute, upstream-per-day, upstream-rate-limit: the upstream said so, fair-share-per-minute / -day: the client's fair share of a contended plan, system-share-per-minute / -day, upstream-ledger: the shared ledger did not answer) and work (system: work no request waits for, which yields first; request).",
      labelNames: ['upstream', 'budget', 'work'],
      registers: [registry],
    }),
    upstreamCuGoverned: new Counter({
      name: 'gateway_upstream_cu_governed_total',
      help: "Compute units the plan-wide governor let the operator's credential spend, by work (system: live readers, refreshes, revalidations, webhook registration, from the system share; request).",
      labelNames: ['upstream', 'work'],
      registers: [registry],
    }),
    responseCache: new Counter({
      name: 'gateway_response_cache_total',
      help: 'Whole-response cache: hit, fast-hit (answered before Yoga), miss, store, skip.',
      labelNames: ['event'],
      registers: [registry],
    }),
    cacheHealthy: new Gauge({
      name: 'gateway_cache_healthy',
      help: '1 when the shared cache answers, 0 while degraded (serving from the upstreams).',
      registers: [registry],
    }),
    upstreamLatency: new Histogram({
      name: 'gateway_upstream_request_duration_seconds',
      help: 'Each upstream HTTP attempt (retries included) until its response headers, by upstream, method, route template (ids as :id) and status (the HTTP status, or timeout / network).',
      labelNames: ['upstream', 'method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'gateway_graphql_request_duration_seconds',
      help: 'Each request to the GraphQL endpoint, until its response is ready, by HTTP status and operation (a persisted or named operation; `other` for anonymous ones and names past the bound).',
      labelNames: ['status', 'operation'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    graphqlErrors: new Counter({
      name: 'gateway_graphql_errors_total',
      help: 'Requests to the GraphQL endpoint whose answer held an error, by operation and extensions.code (each code counted once per request; UNCODED: an error without a code).',
      labelNames: ['operation', 'code'],
      registers: [registry],
    }),
    operations: new OperationLabels(),
    executions: new Counter({
      name: 'gateway_executions_total',
      help: 'Operations executed, by executor: jit (compiled by graphql-jit) or graphql-js (subscriptions, @defer/@stream, federation entry points, requests whose variables do not coerce, EXECUTOR=graphql-js).',
      labelNames: ['executor'],
      registers: [registry],
    }),
    processErrors: new Counter({
      name: 'gateway_process_errors_total',
      help: 'Unhandled promise rejections and uncaught exceptions, logged and survived (kind: unhandledRejection, uncaughtException).',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}
