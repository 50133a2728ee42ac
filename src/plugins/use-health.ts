import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';

/**
 * `GET /health`: the process answers, and says whether the shared cache is reachable. A degraded cache
 * is still a 200 — the gateway keeps serving from the upstreams — but operators and probes can see it.
 */
export function useHealth(o: { store: CacheStore; path?: string }): Plugin {
  const path = o.path ?? '/health';
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      const cache = o.store.health();
      endResponse(
        fetchAPI.Response.json(
          {
            status: cache === 'ok' ? 'ok' : 'degraded',
            cache: { kind: o.store.kind, status: cache },
          },
          { status: 200, headers: { 'cache-control': 'no-store' } },
        ),
      );
    },
  };
}
