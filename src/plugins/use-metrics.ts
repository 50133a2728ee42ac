import { createHash, timingSafeEqual } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';
import type { GatewayMetrics } from '../metrics.js';

/**
 * `GET /metrics`: Prometheus text format. With a `token` (METRICS_TOKEN), only a request that carries
 * `Authorization: Bearer <token>` gets the metrics; any other gets 401 and nothing else.
 */
export function useMetrics(options: {
  metrics: GatewayMetrics;
  store: CacheStore;
  path?: string;
  token?: string;
}): Plugin {
  const path = options.path ?? '/metrics';
  const expected = options.token === undefined ? undefined : digest(`Bearer ${options.token}`);
  return {
    async onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      if (
        expected &&
        !timingSafeEqual(digest(request.headers.get('authorization') ?? ''), expected)
      ) {
        endResponse(
          fetchAPI.Response.json(
            { error: 'the metrics need Authorization: Bearer <METRICS_TOKEN>' },
            {
              status: 401,
              headers: {
                'www-authenticate': 'Bearer realm="metrics"',
                'cache-control': 'no-store',
              },
            },
          ),
        );
        return;
      }
      options.metrics.cacheHealthy.set(options.store.health() === 'ok' ? 1 : 0);
      endResponse(
        new fetchAPI.Response(await options.metrics.registry.metrics(), {
          status: 200,
          headers: {
            'content-type': options.metrics.registry.contentType,
            'cache-control': 'no-store',
          },
        }),
      );
    },
  };
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
