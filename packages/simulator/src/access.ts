import type { IncomingHttpHeaders } from 'node:http';
import { simCu } from './prices.js';

/**
 * API keys and rate limits like the Data API's: `x-glacier-api-key` is optional; a configured
 * revoked key answers 401, an unprivileged one 403. Each caller (its key, else its IP) gets
 * `perMinute` requests per fixed one-minute window (each request costs 1); every answer carries
 * `ratelimit-policy`, `ratelimit-limit`, `ratelimit-remaining`, and a 429 adds `ratelimit-reset` and
 * `retry-after` (seconds until the window resets).
 * With `cu` set, the Data API charges compute units instead, as the real one does: each route its
 * published price (or `cu.price`'s), against a per-minute and a per-day limit per caller (fixed
 * windows: the wall-clock minute and the UTC day), `ratelimit-reset` on every answer, and a 429 for a
 * request that would go past either limit.
 */

export interface AccessOptions {
  revoked?: string[];
  unprivileged?: string[];
  perMinute: number;
  /** Charge the Data API in compute units (off: one per request). */
  cu?: CuLimits;
  now?: () => number;
}

export interface CuLimits {
  perMinute: number;
  /** @default unlimited */
  perDay?: number;
  /** A route's price (`GET /v1/chains/:chainId/blocks`). @default the published table */
  price?: (route: string) => number;
}

const DAY_MS = 86_400_000;

export type AccessResult =
  | { ok: true; headers: Record<string, string> }
  | {
      ok: false;
      status: 401 | 403 | 429;
      error: string;
      message: string;
      headers: Record<string, string>;
    };

const WINDOW_MS = 60_000;

export class AccessControl {
  private readonly revoked: Set<string>;
  private readonly unprivileged: Set<string>;
  private readonly now: () => number;
  private windows = new Map<string, { start: number; used: number }>();
  private spentCu = 0;
  private refused = 0;

  constructor(private readonly o: AccessOptions) {
    this.revoked = new Set(o.revoked ?? []);
    this.unprivileged = new Set(o.unprivileged ?? []);
    this.now = o.now ?? Date.now;
  }

  check(
    scope: string,
    headers: IncomingHttpHeaders,
    ip: string,
    keyed: boolean,
    route = '',
  ): AccessResult {
    const raw = headers['x-glacier-api-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (keyed && key !== undefined) {
      if (this.revoked.has(key))
        return {
          ok: false,
          status: 401,
          error: 'Unauthorized',
          message: 'Invalid or revoked API key',
          headers: {},
        };
      if (this.unprivileged.has(key))
        return {
          ok: false,
          status: 403,
          error: 'Forbidden',
          message: 'This API key is not allowed to access this resource',
          headers: {},
        };
    }
    const id = `${scope}|${key !== undefined && keyed ? `key:${key}` : `ip:${ip}`}`;
    if (this.o.cu && scope === 'data-api') return this.chargeCu(id, route, this.o.cu);
    const limit = this.o.perMinute;
    const now = this.now();
    let w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 50_000) this.windows.clear();
      w = { start: now - (now % WINDOW_MS), used: 0 };
      this.windows.set(id, w);
    }
    const base = { 'ratelimit-policy': `${limit};w=60`, 'ratelimit-limit': String(limit) };
    if (w.used >= limit) {
      this.refused++;
      const reset = String(Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)));
      return {
        ok: false,
        status: 429,
        error: 'Too Many Requests',
        message: 'Rate limit exceeded',
        headers: {
          ...base,
          'ratelimit-remaining': '0',
          'ratelimit-reset': reset,
          'retry-after': reset,
        },
      };
    }
    w.used++;
    return { ok: true, headers: { ...base, 'ratelimit-remaining': String(limit - w.used) } };
  }

  private chargeCu(id: string, route: string, cu: CuLimits): AccessResult {
    const now = this.now();
    const cost = (cu.price ?? ((r: string) => simCu('data', r)))(route);
    const minute = this.window(`${id}|m`, now, WINDOW_MS);
    const day = this.window(`${id}|d`, now, DAY_MS);
    const perDay = cu.perDay ?? Number.POSITIVE_INFINITY;
    const resetSec = Math.max(1, Math.ceil((minute.start + WINDOW_MS - now) / 1000));
    const headers = (used: number, dayUsed: number, reset: number) => ({
      'ratelimit-policy': `${cu.perMinute};w=60${Number.isFinite(perDay) ? `, ${perDay};w=86400` : ''}`,
      'ratelimit-limit': String(cu.perMinute),
      'ratelimit-remaining': String(Math.max(0, Math.min(cu.perMinute - used, perDay - dayUsed))),
      'ratelimit-reset': String(reset),
    });
    const overDay = day.used + cost > perDay;
    if (minute.used + cost > cu.perMinute || overDay) {
      this.refused++;
      const reset = overDay ? Math.max(1, Math.ceil((day.start + DAY_MS - now) / 1000)) : resetSec;
      return {
        ok: false,
        status: 429,
        error: 'Too Many Requests',
        message: 'Rate limit exceeded',
        headers: { ...headers(minute.used, day.used, reset), 'retry-after': String(reset) },
      };
    }
    minute.used += cost;
    day.used += cost;
    this.spentCu += cost;
    return { ok: true, headers: headers(minute.used, day.used, resetSec) };
  }

  /** The caller's fixed window of `span` ms holding `now` (aligned to the epoch: minutes, UTC days). */
  private window(id: string, now: number, span: number): { start: number; used: number } {
    let w = this.windows.get(id);
    if (!w || now - w.start >= span) {
      if (this.windows.size > 50_000) this.windows.clear();
      w = { start: now - (now % span), used: 0 };
      this.windows.set(id, w);
    }
    return w;
  }

  charges(): { spentCu: number; refused: number } {
    return { spentCu: this.spentCu, refused: this.refused };
  }

  reset(): void {
    this.windows.clear();
    this.spentCu = 0;
    this.refused = 0;
  }
}
