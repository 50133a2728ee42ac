import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';
import type { HeldBack } from '../upstream/governor.js';
import type { OpenBreaker } from '../upstream/guard.js';

/**
 * `GET /health`: the process answers, and says whether the shared cache is reachable, which upstream
 * routes have an open circuit breaker, and which upstream is held back from the plan (a 429's
 * `retry-after`, or a cap its `ratelimit-limit` lowered), until when. Any of them is `degraded`, still a
 * 200 — the gateway keeps serving (from the upstreams, from the cache) — but operators and probes can
 * see it.
 */
export function useHealth(options: {
  store: CacheStore;
  openBreakers?: () => OpenBreaker[];
  heldBack?: () => HeldBack[];
  path?: string;
}): Plugin {
  const path = options.path ?? '/health';
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      const cache = options.store.health();
      const breakers = options.openBreakers?.() ?? [];
      const held = options.heldBack?.() ?? [];
      const ok = cache === 'ok' && breakers.length === 0 && held.length === 0;
      endResponse(
        fetchAPI.Response.json(
          {
            status: ok ? 'ok' : 'degraded',
            cache: { kind: options.store.kind, status: cache },
            // A few are enough to say where; the count says how many.
            ...(breakers.length > 0
              ? { openBreakers: breakers.slice(0, 20), openBreakerCount: breakers.length }
              : {}),
            ...(held.length > 0 ? { heldBack: held } : {}),
          },
          { status: 200, headers: { 'cache-control': 'no-store' } },
        ),
      );
    },
  };
}
