import {
  type CacheEntry,
  type CacheHealth,
  type CacheStore,
  type MemoryStore,
  PendingWrites,
  type SharedStore,
} from './store.js';

/**
 * A small in-process LRU in front of a shared store (Redis). Reads go to the LRU first and send only the
 * misses to the shared store in one round trip, promoting what they find; writes go to both.
 * The LRU keeps an entry no longer than the shared store was told to (each value there carries its
 * expiry: src/cache/expiry.ts), and at most `l1MaxTtlMs`, so replicas converge on the shared copy quickly.
 * A value without a known expiry is not copied.
 */
export class TieredStore implements CacheStore {
  readonly kind = 'tiered' as const;
  readonly #writes = new PendingWrites();

  constructor(
    readonly l1: MemoryStore,
    readonly l2: SharedStore,
    readonly l1MaxTtlMs = 60_000,
    readonly now: () => number = Date.now,
    /** Told each read's keys found and not found, per tier (metrics: the LRU's and Redis's hit ratios). */
    readonly onRead?: (tier: 'lru' | 'redis', hits: number, misses: number) => void,
  ) {}

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const out = await this.l1.getMany(keys);
    const missIdx = out.flatMap((v, i) => (v === undefined ? [i] : []));
    this.onRead?.('lru', keys.length - missIdx.length, missIdx.length);
    if (missIdx.length === 0) return out;
    const found = await this.readShared(missIdx.map((i) => keys[i]!));
    missIdx.forEach((i, j) => {
      out[i] = found[j];
    });
    return out;
  }

  async readShared(keys: readonly string[]): Promise<(string | undefined)[]> {
    const found = await this.l2.getManyWithExpiry(keys);
    const hits = found.filter((v) => v !== undefined).length;
    this.onRead?.('redis', hits, found.length - hits);
    const promote: CacheEntry[] = [];
    const now = this.now();
    const out = found.map((v, i) => {
      if (v === undefined) return undefined;
      const left = v.expiresAt === undefined ? 0 : v.expiresAt - now;
      if (left > 0)
        promote.push({ key: keys[i]!, value: v.value, ttlMs: Math.min(this.l1MaxTtlMs, left) });
      return v.value;
    });
    await this.l1.setMany(promote);
    return out;
  }

  setMany(entries: readonly CacheEntry[]): Promise<void> {
    return this.#writes.track(this.#setMany(entries));
  }

  async #setMany(entries: readonly CacheEntry[]): Promise<void> {
    await this.l1.setMany(
      entries.map((e) => ({ ...e, ttlMs: Math.min(e.ttlMs, this.l1MaxTtlMs) })),
    );
    await this.l2.setMany(entries);
  }

  settled(): Promise<void> {
    return this.#writes.settled();
  }

  /** Asks the shared store: an entry only this process's LRU still holds is not there for the other replicas. */
  has(key: string): Promise<boolean> {
    return this.l2.has(key);
  }

  health(): CacheHealth {
    return this.l2.health();
  }

  ready(timeoutMs?: number): Promise<void> {
    return this.l2.ready(timeoutMs);
  }

  async close(): Promise<void> {
    await Promise.all([this.l1.close(), this.l2.close()]);
  }
}
