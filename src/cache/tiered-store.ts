import type { CacheEntry, CacheHealth, CacheStore, MemoryStore } from './store.js';

/**
 * A small in-process LRU in front of a shared store (Redis). Reads go to the LRU first and send only the
 * misses to the shared store in one round trip, promoting what they find; writes go to both.
 * The LRU keeps an entry no longer than the shared store was told to (and at most `l1MaxTtlMs`), so
 * replicas converge on the shared copy quickly.
 */
export class TieredStore implements CacheStore {
  readonly kind = 'tiered' as const;

  constructor(
    readonly l1: MemoryStore,
    readonly l2: CacheStore,
    readonly l1MaxTtlMs = 60_000,
    /** Remaining life of a value found in the shared store (the read-through layer's envelope knows it). */
    readonly remainingTtlMs: (value: string) => number = () => 5_000,
  ) {}

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    const out = await this.l1.getMany(keys);
    const missIdx = out.flatMap((v, i) => (v === undefined ? [i] : []));
    if (missIdx.length === 0) return out;
    const found = await this.l2.getMany(missIdx.map((i) => keys[i]!));
    const promote: CacheEntry[] = [];
    missIdx.forEach((i, j) => {
      const v = found[j];
      if (v !== undefined) {
        out[i] = v;
        promote.push({
          key: keys[i]!,
          value: v,
          ttlMs: Math.min(this.l1MaxTtlMs, this.remainingTtlMs(v)),
        });
      }
    });
    await this.l1.setMany(promote);
    return out;
  }

  async setMany(entries: readonly CacheEntry[]): Promise<void> {
    await this.l1.setMany(
      entries.map((e) => ({ ...e, ttlMs: Math.min(e.ttlMs, this.l1MaxTtlMs) })),
    );
    await this.l2.setMany(entries);
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
