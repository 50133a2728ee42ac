import { BrokenCircuitError, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import { UpstreamError } from '../upstream/errors.js';
import type { HttpClient } from '../upstream/http.js';
import type { Transport } from '../upstream/transport.js';

/**
 * Per-upstream protection around an HTTP client:
 * - a circuit breaker (cockatiel): after `failures` consecutive failed calls (timeouts, connection errors,
 *   5xx) the upstream is not called for `cooldownMs`; calls fail fast as UPSTREAM_UNAVAILABLE (a network-kind
 *   UpstreamError, so the cache still serves stale-if-error), then one trial call decides;
 * - pacing on the upstream's own `ratelimit-remaining`: below `slowdownBelow`, calls are spaced so the rest
 *   of the window lasts (`createPacer`).
 */
export interface GuardOptions {
  failures: number;
  cooldownMs: number;
}

const isOutage = (e: unknown) =>
  e instanceof UpstreamError &&
  (e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'status' && (e.status ?? 0) >= 500));

export function guardHttpClient(
  inner: HttpClient,
  o: GuardOptions & { pacer?: Pacer },
): HttpClient {
  const breaker =
    o.failures > 0
      ? circuitBreaker(handleWhen(isOutage), {
          halfOpenAfter: o.cooldownMs,
          breaker: new ConsecutiveBreaker(o.failures),
        })
      : undefined;
  const run = async <T>(request: string, call: () => Promise<T>): Promise<T> => {
    await o.pacer?.wait();
    if (!breaker) return call();
    return breaker.execute(call).catch((e: unknown) => {
      if (e instanceof BrokenCircuitError) {
        throw new UpstreamError(inner.name, 'network', {
          request,
          upstreamMessage:
            'the upstream failed repeatedly; failing fast while its circuit breaker is open',
        });
      }
      throw e;
    });
  };
  return {
    name: inner.name,
    getJson: (path, query, schema, opts) =>
      run(`GET ${path}`, () => inner.getJson(path, query, schema, opts)),
    postJson: (path, body, schema, opts, query) =>
      run(`POST ${path}`, () => inner.postJson(path, body, schema, opts, query)),
  };
}

/**
 * Slowing down when the upstream says its budget is nearly spent: `observe` wraps the client's transport and reads
 * `ratelimit-remaining` from every answer; below `slowdownBelow`, `wait` spaces the next calls by (time to
 * reset) / remaining, at most `maxDelayMs` each (at 0: the reset, up to `maxDelayMs`). The reset comes from
 * `ratelimit-reset` (seconds), else the window of `ratelimit-policy` (`limit;w=60`). The wait happens before
 * a call starts, outside its per-attempt timeout.
 */
export interface Pacer {
  observe(inner: Transport): Transport;
  wait(): Promise<void>;
}

export function createPacer(o: {
  slowdownBelow: number;
  maxDelayMs?: number;
  now?: () => number;
  onPause?: (ms: number) => void;
}): Pacer {
  const maxDelayMs = o.maxDelayMs ?? 2_000;
  const now = o.now ?? Date.now;
  let nextAt = 0;
  let spacingMs = 0;
  return {
    async wait() {
      if (o.slowdownBelow <= 0 || spacingMs === 0) return;
      // Each call takes the next slot, so concurrent calls are spaced too.
      const slot = Math.max(now(), nextAt);
      nextAt = slot + spacingMs;
      const wait = slot - now();
      if (wait > 0) {
        o.onPause?.(wait);
        await new Promise((r) => setTimeout(r, wait));
      }
    },
    observe(inner) {
      if (o.slowdownBelow <= 0) return inner;
      return async (req) => {
        const res = await inner(req);
        const raw = res.header('ratelimit-remaining') ?? null;
        const remaining = Number(raw);
        if (raw === null || !Number.isFinite(remaining)) return res;
        if (remaining >= o.slowdownBelow) {
          spacingMs = 0;
          return res;
        }
        const reset = Number(res.header('ratelimit-reset'));
        const window = Number(/w=(\d+)/.exec(res.header('ratelimit-policy') ?? '')?.[1]);
        const resetMs =
          (Number.isFinite(reset) && reset > 0
            ? reset
            : Number.isFinite(window) && window > 0
              ? window
              : 1) * 1000;
        spacingMs = Math.min(
          maxDelayMs,
          remaining <= 0 ? resetMs : Math.ceil(resetMs / (remaining + 1)),
        );
        nextAt = Math.max(nextAt, now() + spacingMs);
        return res;
      };
    },
  };
}
