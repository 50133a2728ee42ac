import { createHash, timingSafeEqual } from 'node:crypto';
import type { CacheStore } from './cache/store.js';
import type { GatewayMetrics } from './metrics.js';

/**
 * `GET /metrics` (src/plugins/use-metrics.ts on PORT, src/http/metrics-server.ts on METRICS_PORT): Prometheus text format. With a `token` (METRICS_TOKEN), only a request that carries
 * `Authorization: Bearer <token>` gets the metrics; any other gets 401 and nothing else. Where they are
 * served (`where`): `here`; `elsewhere` (METRICS_PORT: a listener of their own, src/http/metrics-server.ts)
 * answers 404 on this port; `token-only` (production without METRICS_PORT) refuses every request unless a
 * token is configured and sent, so the metrics are never open on the public port.
 */
export interface MetricsOptions {
  metrics: GatewayMetrics;
  store: CacheStore;
  /** @default '/metrics' */
  path?: string;
  token?: string;
  /** @default 'here' */
  where?: 'here' | 'elsewhere' | 'token-only';
}

const NO_STORE = { 'cache-control': 'no-store' };

/** The metrics answer for a request's `authorization` header, whatever listener it came to. */
export function metricsAnswer(
  options: MetricsOptions,
): (
  authorization: string | null,
) => Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const expected = options.token === undefined ? undefined : digest(`Bearer ${options.token}`);
  const where = options.where ?? 'here';
  return async (authorization) => {
    if (where === 'elsewhere')
      return {
        status: 404,
        headers: { 'content-type': 'application/json', ...NO_STORE },
        body: JSON.stringify({ error: 'the metrics are served on METRICS_PORT' }),
      };
    if (
      (where === 'token-only' && !expected) ||
      (expected && !timingSafeEqual(digest(authorization ?? ''), expected))
    )
      return {
        status: 401,
        headers: {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer realm="metrics"',
          ...NO_STORE,
        },
        body: JSON.stringify({
          error: expected
            ? 'the metrics need Authorization: Bearer <METRICS_TOKEN>'
            : 'in production the metrics need METRICS_TOKEN (and Authorization: Bearer <token>) or METRICS_PORT',
        }),
      };
    options.metrics.cacheHealthy.set(options.store.health() === 'ok' ? 1 : 0);
    return {
      status: 200,
      headers: { 'content-type': options.metrics.registry.contentType, ...NO_STORE },
      body: await options.metrics.registry.metrics(),
    };
  };
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
