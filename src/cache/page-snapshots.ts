import { decodeEntry, encodeEntry } from './entry.js';
import { keys } from './keys.js';
import type { CacheStore } from './store.js';

/**
 * Head pages (the first page of a list, fetched without a token) change as new items land. A cursor
 * into one must keep meaning the same position, so the exact page it points into is kept under a
 * content id that the cursor carries, for as long as the upstream's own page tokens live (24 h):
 * resuming re-reads that page and follows the `nextPageToken` the upstream issued with it.
 *
 * A cursor is only as good as its snapshot, so the snapshot is (re)written whenever the shared store
 * does not hold it: an eviction (LRU, Redis `allkeys-lru`) or a failed write never leaves a fresh cursor
 * without its page. The check is one `EXISTS` (no value read), shared by concurrent puts of one page and
 * skipped for `recheckMs` after a page was written or seen.
 */
export interface PageSnapshots {
  /** Resolves when the snapshot is stored (or the store could not take it); callers need not wait. */
  put(contentId: string, page: unknown): Promise<void>;
  get<T>(contentId: string): Promise<T | undefined>;
}

/** @default 24 hours: the upstream's page-token lifetime. */
export const SNAPSHOT_TTL_MS = 24 * 60 * 60 * 1000;

export interface PageSnapshotOptions {
  /** @default SNAPSHOT_TTL_MS */
  ttlMs?: number;
  /** How long a write or a positive check is trusted before the store is asked again. @default 1000 */
  recheckMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export function createPageSnapshots(
  store: CacheStore,
  options: PageSnapshotOptions = {},
): PageSnapshots {
  const ttlMs = options.ttlMs ?? SNAPSHOT_TTL_MS;
  const recheckMs = options.recheckMs ?? 1_000;
  const now = options.now ?? Date.now;
  /** content id → when it was last written or seen in the store. */
  const confirmed = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  const MAX_CONFIRMED = 10_000;

  async function ensure(contentId: string, page: unknown): Promise<void> {
    const key = keys.pageSnapshot(contentId);
    if (!(await store.has(key))) {
      const value = encodeEntry({ freshUntil: now() + ttlMs, value: page });
      await store.setMany([{ key, value, ttlMs }]);
    }
    if (confirmed.size >= MAX_CONFIRMED) confirmed.clear();
    confirmed.set(contentId, now());
  }

  return {
    put(contentId, page) {
      const at = confirmed.get(contentId);
      if (at !== undefined && now() - at < recheckMs) return Promise.resolve();
      const inFlight = running.get(contentId);
      if (inFlight) return inFlight;
      const p = ensure(contentId, page)
        .catch(() => undefined)
        .finally(() => running.delete(contentId));
      running.set(contentId, p);
      return p;
    },
    async get<T>(contentId: string) {
      const [raw] = await store.getMany([keys.pageSnapshot(contentId)]);
      const entry = decodeEntry<T>(raw);
      return entry && entry.freshUntil > now() ? entry.value : undefined;
    },
  };
}
