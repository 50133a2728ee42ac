import { type CachePolicy, MUTABLE_LIST_ITEMS, type TtlSpec } from '../cache/policy.js';
import type { UpstreamRequest } from '../upstream/request.js';
import type { LiveFeed } from './feed.js';

/**
 * Heads drive freshness. A Data API request of a live chain whose answer follows the head (its class is
 * `head`: latest blocks and transactions, first pages of address lists, balances…) is versioned by the
 * chain's current head: its cache entry records the head it was answered at, so a new head makes it stale
 * at once and the next load replaces it under the same key (new heads never add keys); between heads it is
 * not refetched (`LIVE_HEAD_TTL_MS` is only a bound). A chain that is not live keeps the class TTL.
 */
export const LIVE_HEAD_TTL_MS = 60_000;

/** The EVM chain a Data API path names (`/v1/chains/{chainId}/…`). */
export function chainOfPath(path: string): string | undefined {
  const parts = path.split('/');
  return parts[1] === 'v1' && parts[2] === 'chains' && /^\d+$/.test(parts[3] ?? '')
    ? parts[3]
    : undefined;
}

/** The address a Data API path is about (`/v1/chains/{chainId}/addresses/{address}/…`), lower case. */
export function addressOfPath(path: string): string | undefined {
  const parts = path.split('/');
  const address = parts[5];
  return parts[4] === 'addresses' && address && /^0x[0-9a-fA-F]{40}$/.test(address)
    ? address.toLowerCase()
    : undefined;
}

export interface LiveCacheHooks {
  /** The version (head) a cached answer of the request must carry, or undefined; notes the chain in `touched`. */
  tagOf(req: UpstreamRequest<unknown>, touched?: Map<string, string>): string | undefined;
  /** The freshness of a tagged request (replaces its class TTL); undefined when untagged. */
  specOf(req: UpstreamRequest<unknown>): TtlSpec | undefined;
  /** A tag of every live chain's head (the whole-response cache's entry version). */
  epoch(): string;
}

export function liveCacheHooks(
  feed: LiveFeed,
  policy: CachePolicy,
  chains: readonly string[],
): LiveCacheHooks {
  const follows = (req: UpstreamRequest<unknown>): string | undefined => {
    if (req.upstream !== 'data-api' || policy.classOf(req.resource) !== 'head') return undefined;
    // A page behind a token is a position (a token page), except in lists of changing items.
    if (req.pageToken && !MUTABLE_LIST_ITEMS.has(req.resource)) return undefined;
    const chainId = chainOfPath(req.path);
    return chainId && feed.configured(chainId) ? chainId : undefined;
  };
  return {
    tagOf(req, touched) {
      const chainId = follows(req);
      const tag = chainId ? feed.headTag(chainId) : undefined;
      // The first head a request keyed by is the one it was answered at.
      if (tag && chainId && !touched?.has(chainId)) touched?.set(chainId, tag.slice(1));
      // What belongs to one address is versioned by the last block that may have touched it.
      const address = tag && chainId ? addressOfPath(req.path) : undefined;
      return address && chainId ? feed.addressTag(chainId, address) : tag;
    },
    specOf(req) {
      const chainId = follows(req);
      if (!chainId || !feed.headTag(chainId)) return undefined;
      const base = policy.ttlFor(req.resource);
      return { ttlMs: LIVE_HEAD_TTL_MS, swrMs: 0, staleIfErrorMs: base.staleIfErrorMs };
    },
    epoch: () => chains.map((c) => `${c}:${feed.headTag(c) ?? '-'}`).join(','),
  };
}
