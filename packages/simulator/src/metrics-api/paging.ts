import { PageTokens } from '../data-api/page-tokens.js';
import { MetricsError } from './validate.js';

/**
 * Newest-first paging over time buckets, with the page tokens the real service issues: opaque
 * UUIDs, present only when more data exists, bound to the query's filter (path, metric, range,
 * interval; `pageSize` may change between pages) and expiring after the configured TTL. A token
 * holds the timestamp of the next bucket to return, not an offset.
 */

export interface BucketPage {
  results: { value: number; timestamp: number }[];
  next?: string;
}

export class BucketPager {
  private readonly tokens: PageTokens;

  constructor(ttlMs: number, now: () => number) {
    this.tokens = new PageTokens(ttlMs, now);
  }

  /**
   * One page walking buckets downward from `newest` while `>= lowest`. `prev` steps to the previous
   * bucket; `value` gives a bucket's value (undefined = no data point for it, skipped).
   */
  page(opts: {
    binding: string;
    pageToken: string | null;
    pageSize: number;
    newest: number;
    lowest: number;
    prev: (ts: number) => number;
    value: (ts: number) => number | undefined;
  }): BucketPage {
    let cursor = opts.newest;
    if (opts.pageToken !== null) cursor = this.resume(opts.pageToken, opts.binding);
    const results: BucketPage['results'] = [];
    while (cursor >= opts.lowest && results.length < opts.pageSize) {
      const value = opts.value(cursor);
      if (value !== undefined) results.push({ value, timestamp: cursor });
      cursor = opts.prev(cursor);
    }
    const page: BucketPage = { results };
    if (cursor >= opts.lowest) page.next = this.tokens.issue(opts.binding, cursor);
    return page;
  }

  /** Validates a token for a query that takes one but pages nothing else (e.g. listChains). */
  resume(token: string, binding: string): number {
    try {
      return this.tokens.resume<number>(token, binding);
    } catch (e) {
      const messages = (e as { messages?: string | string[] }).messages;
      throw new MetricsError(
        400,
        Array.isArray(messages) ? messages : [String(messages ?? (e as Error).message)],
      );
    }
  }
}
