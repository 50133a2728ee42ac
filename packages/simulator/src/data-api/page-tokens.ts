import { randomUUID } from 'node:crypto';
import { badRequest } from './errors.js';

/**
 * Page tokens as the Data API issues them: opaque UUIDs, bound to the query that made them (route,
 * path and filter parameters; `pageSize` may change between pages), absent on the last page,
 * expiring after a TTL. A token stores the position of the last item it returned (not an offset),
 * so it keeps pointing at the same place when new head blocks arrive.
 */
export class PageTokens {
  private readonly tokens = new Map<
    string,
    { binding: string; cursor: unknown; expiresAt: number }
  >();
  private issued = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  issue(binding: string, cursor: unknown): string {
    if (++this.issued % 1024 === 0) this.sweep();
    const token = randomUUID();
    this.tokens.set(token, { binding, cursor, expiresAt: this.now() + this.ttlMs });
    return token;
  }

  /** The cursor a token stands for; throws the Data API's 400 for an unknown, foreign or expired token. */
  resume<T>(token: string, binding: string): T {
    const entry = this.tokens.get(token);
    if (!entry)
      throw badRequest('Invalid pageToken: it was not issued by this service or is malformed');
    if (entry.binding !== binding) {
      throw badRequest(
        'Invalid pageToken: it was issued for a different query; repeat the original path and query parameters with it',
      );
    }
    if (this.now() >= entry.expiresAt)
      throw badRequest('pageToken has expired; start again from the first page');
    return entry.cursor as T;
  }

  get size(): number {
    return this.tokens.size;
  }

  /** Forgets tokens long expired (kept one extra TTL so a late caller still hears "expired"). */
  private sweep(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [k, v] of this.tokens) {
      if (v.expiresAt > cutoff) break; // insertion order = expiry order (one TTL for all)
      this.tokens.delete(k);
    }
    while (this.tokens.size > 500_000) this.tokens.delete(this.tokens.keys().next().value!);
  }
}
