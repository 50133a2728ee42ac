import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';
import type { OpenBreaker } from '../upstream/guard.js';

/**
 * `GET /health`: the process answers, and says whether the shared cache is reachable and which
 * upstream routes have an open circuit breaker. Either is `degraded`, still a 200 — the gateway keeps
 * serving (from the upstreams, from the cache) — but operators and probes can see it.
 */
export function useHealth(options: {
  store: CacheStore;
  openBreakers?: () => OpenBreaker[];
  path?: string;
}): Plugin {
  const path = options.path ?? '/health';
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      const cache = options.store.health();
      const breakers = options.openBreakers?.() ?? [];
      endResponse(
        fetchAPI.Response.json(
          {
            status: cache === 'ok' && breakers.length === 0 ? 'ok' : 'degraded',
            cache: { kind: options.store.kind, status: cache },
            // A few are enough to say where; the count says how many.
            ...(breakers.length > 0
              ? { openBreakers: breakers.slice(0, 20), openBreakerCount: breakers.length }
              : {}),
          },
          { status: 200, headers: { 'cache-control': 'no-store' } },
        ),
      );
    },
  };
}
