import type { IncomingHttpHeaders } from 'node:http';

/**
 * API keys and rate limits like the Data API's: `x-glacier-api-key` is optional; a configured
 * revoked key answers 401, an unprivileged one 403. Each caller (its key, else its IP) gets
 * `perMinute` requests per fixed one-minute window (each request costs 1, not the real compute
 * units); every answer carries `ratelimit-policy`, `ratelimit-limit`, `ratelimit-remaining`, and a
 * 429 adds `ratelimit-reset` and `retry-after` (seconds until the window resets).
 */

export interface AccessOptions {
  revoked?: string[];
  unprivileged?: string[];
  perMinute: number;
  now?: () => number;
}

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

  constructor(private readonly o: AccessOptions) {
    this.revoked = new Set(o.revoked ?? []);
    this.unprivileged = new Set(o.unprivileged ?? []);
    this.now = o.now ?? Date.now;
  }

  check(scope: string, headers: IncomingHttpHeaders, ip: string, keyed: boolean): AccessResult {
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
    const limit = this.o.perMinute;
    const id = `${scope}|${key !== undefined && keyed ? `key:${key}` : `ip:${ip}`}`;
    const now = this.now();
    let w = this.windows.get(id);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 50_000) this.windows.clear();
      w = { start: now - (now % WINDOW_MS), used: 0 };
      this.windows.set(id, w);
    }
    const base = { 'ratelimit-policy': `${limit};w=60`, 'ratelimit-limit': String(limit) };
    if (w.used >= limit) {
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

  reset(): void {
    this.windows.clear();
  }
}
