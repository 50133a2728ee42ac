import DataLoader from 'dataloader';
import { keys } from '../cache/keys.js';
import type { CachePolicy, TtlSpec } from '../cache/policy.js';
import type { ReadThrough } from '../cache/read-through.js';
import type { ServeObserver } from '../cache/read-through-types.js';
import { surrogateKeysOf } from '../cache/surrogate-keys.js';
import type { RequestScope } from '../telemetry/request-scope.js';
import { traceLoaderBatch } from '../telemetry/spans.js';
import { isUpstreamStatus } from '../upstream/errors.js';
import type { BlockRange, Page, UpstreamRequest } from '../upstream/request.js';

/**
 * The one bridge between a per-request DataLoader and the shared cache: a batch of keys becomes one
 * store round trip, and each miss one (coalesced) upstream call. Errors come back as values, in key order.
 */
export interface LoaderDeps {
  cache: ReadThrough;
  policy: CachePolicy;
  /** This request's tracker (response-cache TTL, stale marks). */
  observer?: ServeObserver;
  /** The request the upstream calls are made for (its log line counts them). */
  scope?: RequestScope;
  /**
   * The key partition of a request (its upstream's configuration, and the caller's credential class where
   * the answer depends on it): part of the data-cache key, so also of in-flight coalescing.
   */
  partitionOf?: (req: UpstreamRequest<unknown>) => string | undefined;
  /** Freshness that replaces the class TTL for a request (a live chain's head-following entries: src/live). */
  specOf?: (req: UpstreamRequest<unknown>) => TtlSpec | undefined;
  /**
   * The version a cached answer of a request must carry to be fresh (a live chain's head): stored in the
   * entry, not in its key, so a new head replaces entries instead of adding them.
   */
  versionOf?: (req: UpstreamRequest<unknown>) => string | undefined;
}

export function cacheKeyOf(req: UpstreamRequest<unknown>, partition?: string): string {
  return keys.request({
    upstream: req.upstream,
    method: req.method,
    path: req.path,
    query: req.query,
    body: req.body,
    partition,
    variant: req.variant,
  });
}

/** The cache key of a request as this request's loaders see it (with its partition). */
export const keyIn =
  (deps: LoaderDeps) =>
  (req: UpstreamRequest<unknown>): string =>
    cacheKeyOf(req, deps.partitionOf?.(req));

export function cachedRequests<T>(
  deps: LoaderDeps,
  reqs: readonly UpstreamRequest<T>[],
): Promise<(T | Error)[]> {
  // One span per DataLoader batch (the "resolver batch" of a trace), parent of its cache lookup.
  return traceLoaderBatch(
    reqs.map((r) => r.resource),
    () => cachedRequestsUntraced(deps, reqs),
  );
}

function cachedRequestsUntraced<T>(
  deps: LoaderDeps,
  reqs: readonly UpstreamRequest<T>[],
): Promise<(T | Error)[]> {
  // Named from the requests, not the answers: a response served from any cache names what a fresh one does.
  if (deps.observer?.tagged) for (const req of reqs) deps.observer.tagged(surrogateKeysOf(req));
  return deps.cache.getMany(
    reqs.map((req) => ({
      key: keyIn(deps)(req as UpstreamRequest<unknown>),
      label: req.resource,
      version: deps.versionOf?.(req as UpstreamRequest<unknown>),
      load: async (onFailedAttempt, background) => {
        const value = await req.run({ scope: deps.scope, onFailedAttempt, background });
        // One answer, parts cached apart (a transaction and its current price): each part is fresh now;
        // and the facts it holds that other requests read (a latest-blocks page's blocks).
        primeFacts(deps, [
          ...(req.derived ?? []).map((d) => ({ request: d.request, value: d.from(value) })),
          ...(req.facts?.(value) ?? []),
        ]);
        return value;
      },
      // Stale windows come from the resource's class (a token page inherits its list's windows).
      swrMs: (deps.specOf?.(req) ?? deps.policy.ttlFor(req.resource, { pageToken: req.pageToken }))
        .swrMs,
      staleIfErrorMs: (
        deps.specOf?.(req) ?? deps.policy.ttlFor(req.resource, { pageToken: req.pageToken })
      ).staleIfErrorMs,
      ttlMs: (value: T) => {
        const lastPage = isPage(value) ? value.nextPageToken === null : undefined;
        const resource = req.resourceOf?.(value) ?? req.resource;
        return (
          deps.specOf?.(req) ?? deps.policy.ttlFor(resource, { pageToken: req.pageToken, lastPage })
        ).ttlMs;
      },
      // A 404 is remembered briefly (a block number beyond the head exists a few seconds later).
      errorTtlMs: (e: unknown) =>
        isUpstreamStatus(e, 404) && deps.policy.ttlFor(req.resource).ttlMs > 0
          ? deps.policy.notFound().ttlMs
          : 0,
    })),
    deps.observer,
  );
}

/**
 * Stores the facts a loaded answer holds under their own requests' keys, as if each had just been
 * loaded: its class (or a live chain's head rule) decides how long it is fresh, and its version.
 */
function primeFacts(
  deps: LoaderDeps,
  facts: readonly { request: UpstreamRequest<unknown>; value: unknown }[],
): void {
  if (facts.length === 0) return;
  deps.cache.prime(
    facts.map((f) => {
      const spec = deps.specOf?.(f.request) ?? deps.policy.ttlFor(f.request.resource);
      const version = deps.versionOf?.(f.request);
      return {
        item: {
          once: version === undefined && deps.policy.classOf(f.request.resource) === 'immutable',
          key: keyIn(deps)(f.request),
          version,
          ttlMs: () => spec.ttlMs,
          swrMs: spec.swrMs,
          staleIfErrorMs: spec.staleIfErrorMs,
        },
        value: f.value,
      };
    }),
  );
}

function isPage(v: unknown): v is Page<unknown> {
  return typeof v === 'object' && v !== null && 'items' in v && 'nextPageToken' in v;
}

/** A per-request DataLoader over described upstream requests; identical requests are deduplicated by cache key. */
export function requestLoader<K, T>(
  deps: LoaderDeps,
  toRequest: (key: K) => UpstreamRequest<T>,
): DataLoader<K, T, string> {
  return new DataLoader<K, T, string>((ks) => cachedRequests(deps, ks.map(toRequest)), {
    cacheKeyFn: (k) => keyIn(deps)(toRequest(k) as UpstreamRequest<unknown>),
    maxBatchSize: 100,
  });
}

/** A page loader's key: the list's own parameters and the token of one page. */
export type PageKey = { pageToken: string | null };

/** The item type of a page type. */
export type ItemOf<P> = P extends Page<infer T> ? T : never;

/**
 * One list's pages, as a connection reads them: its identity (the cursor's list hash comes from it)
 * and a page fetcher. `range` is given on a block resume: it replaces the client's own range. `P` is
 * the upstream's page (some carry more than their items: the staking list's chain info).
 */
export interface PagedList<T, P = Page<T>> {
  readonly identity: string;
  fetchPage(pageToken: string | null, range?: BlockRange): Promise<P>;
  /** The same list with each page reshaped (or its items primed elsewhere) as it is read. */
  map<Q extends Page<unknown>>(f: (page: P) => Q | Promise<Q>): PagedList<ItemOf<Q>, Q>;
  /** The same list with each item reshaped (e.g. bound to its network), the rest of its page kept. */
  mapItems<U>(f: (item: T, page: P) => U): PagedList<U, Omit<P, 'items'> & { items: U[] }>;
  /**
   * Told which items a client was shown, to store the facts they hold (`UpstreamRequest.itemFacts`).
   * Only a page loader's own list has it: a reshaped list's items are no longer the upstream's.
   */
  shown?(items: readonly T[]): void;
}

export function pagedList<P extends Page<unknown>>(
  identity: string,
  fetchPage: (pageToken: string | null, range?: BlockRange) => Promise<P>,
): PagedList<ItemOf<P>, P> {
  const map = <Q extends Page<unknown>>(f: (page: P) => Q | Promise<Q>) =>
    pagedList<Q>(identity, async (token, range) => f(await fetchPage(token, range)));
  return {
    identity,
    fetchPage,
    map,
    mapItems: <U>(f: (item: ItemOf<P>, page: P) => U) =>
      map((page) => ({ ...page, items: page.items.map((item) => f(item as ItemOf<P>, page)) })),
  };
}

/**
 * A list's identity: the request for its first page without the caller's partition, i.e. the route
 * and every parameter but the page token (DESIGN.md "Connections over page tokens"). Two fields
 * reading the same upstream list share cursors without agreeing on a hand-written key.
 */
export const listIdentityOf = (firstPage: UpstreamRequest<unknown>): string =>
  cacheKeyOf(firstPage);

export interface PageLoader<K extends PageKey, P extends Page<unknown>>
  extends DataLoader<K, P, string> {
  /**
   * The pages of one list. For lists filtered by block range, `withRange` says how a block resume's
   * range goes into the key.
   */
  list(
    key: Omit<K, 'pageToken'>,
    withRange?: (range: BlockRange) => Partial<K>,
  ): PagedList<ItemOf<P>, P>;
}

/**
 * Marks an item whose facts were stored when a client was first shown it: a non-enumerable symbol on
 * the item itself (no spread, key listing or JSON sees it). A WeakSet did the same at the cost of an
 * ephemeron per item, which the cold path paid in its own time and again in the collector's.
 */
const SHOWN = Symbol('shown');

function firstShown(item: unknown): boolean {
  if (typeof item !== 'object' || item === null || SHOWN in item) return false;
  // A frozen item cannot be marked: its facts are offered each time (the prime memo skips repeats).
  if (Object.isExtensible(item)) Object.defineProperty(item, SHOWN, { value: true });
  return true;
}

/** A request loader over the pages of lists: each list also knows its identity (see `listIdentityOf`). */
export function pageLoader<K extends PageKey, P extends Page<unknown>>(
  deps: LoaderDeps,
  toRequest: (key: K) => UpstreamRequest<P>,
): PageLoader<K, P> {
  const loader = requestLoader(deps, toRequest);
  return Object.assign(loader, {
    list(key: Omit<K, 'pageToken'>, withRange?: (range: BlockRange) => Partial<K>) {
      const keyOf = (pageToken: string | null, range?: BlockRange) =>
        ({ ...key, ...(range && withRange ? withRange(range) : {}), pageToken }) as K;
      const first = toRequest(keyOf(null));
      const list = pagedList<P>(listIdentityOf(first), (pageToken, range) =>
        loader.load(keyOf(pageToken, range)),
      );
      const itemFacts = first.itemFacts;
      if (itemFacts)
        list.shown = (items) => {
          // A cached page hands out the same parsed items to every request that reads it: their facts
          // were stored the first time they were shown, and a hit costs no keys or writes again.
          const fresh = items.filter(firstShown);
          if (fresh.length > 0) primeFacts(deps, itemFacts(fresh));
        };
      return list;
    },
  });
}
