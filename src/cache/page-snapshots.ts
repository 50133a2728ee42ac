import { LRUCache } from 'lru-cache';
import { keys } from './keys.js';
import type { CacheStore } from './store.js';

/**
 * Head pages (the first page of a list, fetched without a token) change as new items land. A cursor
 * into one must keep meaning the same position, so the exact page it points into is kept under a
 * content id that the cursor carries, for as long as the upstream's own page tokens live (24 h):
 * resuming re-reads that page and follows the `nextPageToken` the upstream issued with it.
 * Each distinct page is written once per process (a content id names immutable content).
 */
export interface PageSnapshots {
  put(contentId: string, page: unknown): void;
  get<T>(contentId: string): Promise<T | undefined>;
}

/** @default 24 hours: the upstream's page-token lifetime. */
export const SNAPSHOT_TTL_MS = 24 * 60 * 60 * 1000;

export function createPageSnapshots(store: CacheStore, ttlMs = SNAPSHOT_TTL_MS): PageSnapshots {
  const written = new LRUCache<string, true>({ max: 10_000, ttl: Math.min(ttlMs, 60 * 60 * 1000) });
  return {
    put(contentId, page) {
      if (written.has(contentId)) return;
      written.set(contentId, true);
      void store.setMany([{ key: keys.pageSnapshot(contentId), value: JSON.stringify(page), ttlMs }]);
    },
    async get<T>(contentId: string) {
      const [raw] = await store.getMany([keys.pageSnapshot(contentId)]);
      if (raw === undefined) return undefined;
      try {
        return JSON.parse(raw) as T;
      } catch {
        return undefined;
      }
    },
  };
}
