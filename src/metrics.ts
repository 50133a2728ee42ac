import { Counter, Gauge, Registry } from 'prom-client';

/**
 * Prometheus metrics of one gateway (its own registry, so several gateways in one process — tests —
 * never collide). Served at `/metrics` by plugins/use-metrics.ts.
 */
export interface GatewayMetrics {
  registry: Registry;
  cacheEvents: Counter<'resource' | 'event'>;
  redisErrors: Counter<'op'>;
  upstreamCalls: Counter<'upstream' | 'outcome'>;
  upstreamRetries: Counter<'upstream'>;
  responseCache: Counter<'event'>;
  cacheHealthy: Gauge;
}

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
    upstreamCalls: new Counter({
      name: 'gateway_upstream_calls_total',
      help: 'Upstream calls (after retries) by upstream and outcome (ok, or the error kind/status).',
      labelNames: ['upstream', 'outcome'],
      registers: [registry],
    }),
    upstreamRetries: new Counter({
      name: 'gateway_upstream_retries_total',
      help: 'Upstream attempts retried after a 429/5xx or a connection error.',
      labelNames: ['upstream'],
      registers: [registry],
    }),
    responseCache: new Counter({
      name: 'gateway_response_cache_total',
      help: 'Whole-response cache: hit, miss, store, skip.',
      labelNames: ['event'],
      registers: [registry],
    }),
    cacheHealthy: new Gauge({
      name: 'gateway_cache_healthy',
      help: '1 when the shared cache answers, 0 while degraded (serving from the upstreams).',
      registers: [registry],
    }),
  };
}
