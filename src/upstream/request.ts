import type { RequestScope } from '../telemetry/request-scope.js';
import type { UpstreamName } from './errors.js';
import type { ResourceKind } from './resources.js';

/**
 * A described upstream call: what it is (for cache keys and the TTL policy) and how to run it.
 * Upstream clients build these; loaders decide whether to serve them from cache or run them.
 */
export interface UpstreamRequest<T> {
  upstream: UpstreamName;
  resource: ResourceKind;
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /**
   * Names a part of the answer cached apart from the whole (e.g. `price`: the same get-transaction call,
   * read for its current price under a head-class resource): part of the cache key, never sent upstream.
   */
  variant?: string;
  /** Parts of this answer cached apart (each under its own request's key and class), stored when it loads. */
  derived?: { request: UpstreamRequest<unknown>; from: (value: unknown) => unknown }[];
  /**
   * Facts this answer holds that another request would read, each exactly as that request would
   * answer it now (a block of a latest-blocks page is the block's own answer): stored under the other
   * request's key and class when this one loads, so the later read costs nothing upstream. Only what
   * the two routes' contracts give identically may be named here; a partial view never is. (`value`
   * is this request's answer: typed `unknown` like `resourceOf`'s, since requests are reshaped by spreading.)
   */
  facts?(value: unknown): { request: UpstreamRequest<unknown>; value: unknown }[];
  /**
   * Facts a page's items hold, as `facts` does for a whole answer, but stored only for the items a
   * client was shown (src/schema/connection.ts): a page of a hundred transactions is read for the
   * twenty a view lists, and the one a user opens next is among those. Stored lazily so a page read
   * does not pay an encoding and a write for facts nobody was shown.
   */
  itemFacts?(items: readonly unknown[]): { request: UpstreamRequest<unknown>; value: unknown }[];
  /**
   * The resource whose class caches this answer, when the answer decides it (a fee history is final once
   * the head has passed its block, head data before): omitted, `resource`.
   */
  resourceOf?(value: unknown): ResourceKind;
  /** The page token this request carries, if it is a page of a list. */
  pageToken?: string | null;
  /** Runs the call for `call`'s request (omitted: for no request, e.g. a background refresh). */
  run(call?: CallContext): Promise<T>;
}

/**
 * Who an upstream call is made for, passed down with the call rather than kept in AsyncLocalStorage,
 * which on Node 20 turns on promise hooks for every promise of every request (not on Node 24, whose
 * AsyncLocalStorage is built on AsyncContextFrame).
 */
export interface CallContext {
  /** The request the call's attempts count toward (its log line's `upstreamCalls`). */
  scope?: RequestScope;
  /**
   * Told when an attempt failed and is about to be retried: the cache may serve a stale answer at once
   * instead of waiting for the retries.
   */
  onFailedAttempt?: () => void;
  /** No request waits for this call (a revalidation behind a stale answer): it yields to those that do. */
  background?: boolean;
}

/** A block range as the upstream takes it: startBlock inclusive, endBlock exclusive (decimal strings). */
export interface BlockRange {
  startBlock?: string;
  endBlock?: string;
}

/** One upstream page of a list, normalized: the token is null on the last page. */
export interface Page<T> {
  items: T[];
  nextPageToken: string | null;
}
