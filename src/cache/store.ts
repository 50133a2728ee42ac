import { LRUCache } from 'lru-cache';

/**
 * Where cached upstream answers live. Values are opaque strings (the read-through layer serializes);
 * the store knows neither GraphQL nor upstreams. A store never throws: a failing backend reads as a miss
 * and writes are dropped, and `health()` says so — the gateway keeps answering from the upstream.
 */
export interface CacheEntry {
  key: string;
  value: string;
  /** How long the backend keeps it. */
  ttlMs: number;
}

export type CacheHealth = 'ok' | 'degraded';

export interface CacheStore {
  readonly kind: 'memory' | 'redis' | 'tiered';
  /** One round trip for all keys; `undefined` for a miss (or a backend that could not answer). */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  /** One round trip for all entries; failures are counted, never thrown. */
  setMany(entries: readonly CacheEntry[]): Promise<void>;
  /**
   * Reads past any in-process tier, straight from the shared backend (refreshing the tier): for a reader
   * that found a local copy it cannot use (of an older version) while another replica may have stored a
   * newer one. Absent on single-tier stores.
   */
  readShared?(keys: readonly string[]): Promise<(string | undefined)[]>;
  /** Whether the (shared) backend still holds `key`, without reading its value; false when it cannot answer. */
  has(key: string): Promise<boolean>;
  health(): CacheHealth;
  /** Resolves once the backend answers, or after `timeoutMs` (a cache that is down must not hold start-up). */
  ready(timeoutMs?: number): Promise<void>;
  /** Resolves once the writes begun so far have landed (tests wait on it rather than sleep). */
  settled?(): Promise<void>;
  close(): Promise<void>;
}

/** Writes begun and not yet answered: what a store's `settled()` waits for. */
export class PendingWrites {
  readonly #running = new Set<Promise<unknown>>();

  track<T>(p: Promise<T>): Promise<T> {
    this.#running.add(p);
    const drop = () => this.#running.delete(p);
    p.then(drop, drop);
    return p;
  }

  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}

/** A value read with the time it expires (epoch ms), when the store knows it. */
export interface StoredWithExpiry {
  value: string;
  expiresAt?: number;
}

/** A shared backend that knows when each value expires (Redis: src/cache/expiry.ts). */
export interface SharedStore extends CacheStore {
  getManyWithExpiry(keys: readonly string[]): Promise<(StoredWithExpiry | undefined)[]>;
}

export interface MemoryStoreOptions {
  /** @default 50000 */
  maxEntries?: number;
  /** Upper bound of the bytes the entries hold (`entryBytes`: keys, values, bookkeeping). @default 96 MiB */
  maxBytes?: number;
  /** How often expired entries are dropped (the LRU only drops them when read or evicted). @default 30 s */
  purgeEveryMs?: number;
  /** The clock of the TTLs (tests move it rather than wait). @default performance.now */
  now?: () => number;
}

/** The in-process LRU: the default store, and the first tier in front of Redis. Evicts by size, expires by TTL. */
export class MemoryStore implements CacheStore {
  readonly kind = 'memory' as const;
  readonly #lru: LRUCache<string, string>;
  readonly #purge: NodeJS.Timeout | undefined;

  constructor({
    maxEntries = 50_000,
    maxBytes = 96 * 1024 * 1024,
    purgeEveryMs = 30_000,
    now,
  }: MemoryStoreOptions = {}) {
    this.#lru = new LRUCache<string, string>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: entryBytes,
      ttlAutopurge: false,
      // A given clock is read each time (no cached reading that only a real timer would clear).
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
    // One sweep now and then rather than a timer per entry (`ttlAutopurge`): expired entries that are
    // never read again give their memory back within `purgeEveryMs`, not only under size pressure.
    this.#purge =
      purgeEveryMs > 0 ? setInterval(() => this.purgeStale(), purgeEveryMs).unref() : undefined;
  }

  /** Drops every expired entry now; returns how many. */
  purgeStale(): number {
    const before = this.#lru.size;
    this.#lru.purgeStale();
    return before - this.#lru.size;
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return keys.map((k) => this.#lru.get(k));
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    for (const e of entries) if (e.ttlMs > 0) this.#lru.set(e.key, e.value, { ttl: e.ttlMs });
  }

  async has(key: string): Promise<boolean> {
    return this.#lru.has(key);
  }

  health(): CacheHealth {
    return 'ok';
  }

  async ready(): Promise<void> {}

  get size(): number {
    return this.#lru.size;
  }

  /** Bytes the entries hold now, as counted against `maxBytes`. */
  get bytes(): number {
    return this.#lru.calculatedSize;
  }

  clear(): void {
    this.#lru.clear();
  }

  async close(): Promise<void> {
    if (this.#purge) clearInterval(this.#purge);
    this.#lru.clear();
  }
}

/** What V8 keeps per LRU entry beyond its two strings (the node, the map slot, the TTL bookkeeping). */
const ENTRY_OVERHEAD_BYTES = 200;
// Any UTF-16 unit above Latin-1 makes V8 store the string with two bytes a character.
const TWO_BYTE = /[\u0100-\uffff]/;

/**
 * The heap bytes of one entry: V8 stores a string one byte per character when every character fits
 * in Latin-1, else two (a non-ASCII name in an answer doubles it). Measured once, when the entry is set.
 */
export function entryBytes(value: string, key: string): number {
  const width = (s: string) => (TWO_BYTE.test(s) ? 2 : 1) * s.length;
  return width(value) + width(key) + ENTRY_OVERHEAD_BYTES;
}
