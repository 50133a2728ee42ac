import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';
import type { GatewayMetrics } from '../metrics.js';

/** `GET /metrics`: Prometheus text format. */
export function useMetrics(o: { metrics: GatewayMetrics; store: CacheStore; path?: string }): Plugin {
  const path = o.path ?? '/metrics';
  return {
    async onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      o.metrics.cacheHealthy.set(o.store.health() === 'ok' ? 1 : 0);
      endResponse(
        new fetchAPI.Response(await o.metrics.registry.metrics(), {
          status: 200,
          headers: { 'content-type': o.metrics.registry.contentType, 'cache-control': 'no-store' },
        }),
      );
    },
  };
}
