import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
} from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { type Credential, credentialOf } from './credential.js';
import { UpstreamError } from './errors.js';
import type { HttpClient, RequestOptions } from './http.js';
import { routeTemplate } from './observe.js';

/**
 * Circuit breakers (cockatiel) per upstream route and per credential: after `failures` consecutive
 * failed calls (timeouts, connection errors, 5xx) of one route with one credential, that route is not
 * called with that credential for `cooldownMs` (UPSTREAM_UNAVAILABLE at once, a network-kind
 * UpstreamError, so the cache still serves stale-if-error), then one trial call decides. So one
 * caller's key failing on one route, or one route failing, leaves every other route and caller alone.
 * The open ones are listed for `/health`.
 */
export interface GuardOptions {
  failures: number;
  cooldownMs: number;
}

/** An open (or half-open) breaker, as `/health` reports it: never the key itself. */
export interface OpenBreaker {
  upstream: string;
  route: string;
  credential: Credential['kind'];
}

export interface BreakerRegistry {
  open(): OpenBreaker[];
}

/** How many route × credential breakers one client keeps (the least recently used go first). */
const BREAKERS = 2_000;

const isOutage = (e: unknown) =>
  e instanceof UpstreamError &&
  (e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'status' && (e.status ?? 0) >= 500));

export function guardHttpClient(
  inner: HttpClient,
  options: GuardOptions,
): HttpClient & { breakers: BreakerRegistry } {
  /** Open breakers and since when; a half-open one has `at` 0 (its trial call is running). */
  const open = new Map<string, { report: OpenBreaker; at: number }>();
  const breakers = new LRUCache<string, CircuitBreakerPolicy>({
    max: BREAKERS,
    // A breaker dropped while open leaves the health report too.
    dispose: (_b, key) => open.delete(key),
  });
  const breakerFor = (route: string, credential: Credential): CircuitBreakerPolicy => {
    const key = `${credential.id} ${route}`;
    let b = breakers.get(key);
    if (!b) {
      b = circuitBreaker(handleWhen(isOutage), {
        halfOpenAfter: options.cooldownMs,
        breaker: new ConsecutiveBreaker(options.failures),
      });
      const report = { upstream: inner.name, route, credential: credential.kind };
      b.onStateChange((state) => {
        if (state === CircuitState.Closed) open.delete(key);
        else open.set(key, { report, at: state === CircuitState.Open ? Date.now() : 0 });
      });
      breakers.set(key, b);
    }
    return b;
  };
  const run = <T>(
    method: string,
    path: string,
    opts: RequestOptions | undefined,
    call: () => Promise<T>,
  ): Promise<T> => {
    if (options.failures <= 0) return call();
    const route = `${method} ${routeTemplate(path)}`;
    return breakerFor(route, credentialOf(opts ?? {}))
      .execute(call)
      .catch((e: unknown) => {
        if (e instanceof BrokenCircuitError)
          throw new UpstreamError(inner.name, 'network', {
            request: `${method} ${path}`,
            upstreamMessage:
              'this route failed repeatedly; failing fast while its circuit breaker is open',
          });
        throw e;
      });
  };
  return {
    name: inner.name,
    // An open breaker whose cooldown is over no longer fails fast: its next call is the trial. A route
    // nobody calls again would otherwise be reported open for ever.
    breakers: {
      open: () =>
        [...open.values()]
          .filter((o) => o.at === 0 || Date.now() - o.at < options.cooldownMs)
          .map((o) => o.report),
    },
    getJson: (path, query, schema, opts) =>
      run('GET', path, opts, () => inner.getJson(path, query, schema, opts)),
    postJson: (path, body, schema, opts, query) =>
      run('POST', path, opts, () => inner.postJson(path, body, schema, opts, query)),
    sendJson: (method, path, body, schema, opts) =>
      run(method, path, opts, () => inner.sendJson(method, path, body, schema, opts)),
  };
}
