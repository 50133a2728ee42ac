import { LRUCache } from 'lru-cache';

/**
 * An LRU bounded in bytes, for caches a request can fill with text it chose (query documents, cursor
 * bodies, list keys): entry counts alone let 1,000 entries of 900 KB hold 900 MB. A key or value past
 * `maxEntryBytes` is not kept at all (it is recomputed when asked again).
 */
export interface BytesLruOptions<V> {
  maxBytes: number;
  /** @default maxBytes / 16 */
  maxEntryBytes?: number;
  /** Bytes one entry holds besides its key's characters. @default 64 */
  sizeOf?: (value: V, key: string) => number;
}

export function createBytesLru<V extends {}>(options: BytesLruOptions<V>): LRUCache<string, V> {
  const sizeOf = options.sizeOf ?? (() => 64);
  return new LRUCache<string, V>({
    maxSize: options.maxBytes,
    maxEntrySize: options.maxEntryBytes ?? Math.floor(options.maxBytes / 16),
    sizeCalculation: (value, key) => Math.max(1, key.length + sizeOf(value, key)),
  });
}
