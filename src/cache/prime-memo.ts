import { createBytesLru } from './bytes-lru.js';

/**
 * Which facts that never change this process stored lately (src/loaders/request-loader.ts primes the
 * entities a page holds: blocks, plain transfers): a page read again (the latest transactions each
 * block, an address's list after a touch) holds mostly the same ones, and storing each again would
 * cost an encoding and a write per fact for nothing. Such a fact is skipped while this process wrote it
 * less than half its TTL ago; one the store lost since is read from the upstream when asked, never
 * wrong. Facts that move (an ICM message's status) are written every time: each write is fresher.
 */
export class PrimeMemo {
  readonly #seen;

  constructor(maxBytes = 4 * 1024 * 1024) {
    this.#seen = createBytesLru<{ until: number }>({
      maxBytes,
      sizeOf: () => 48,
    });
  }

  /** Whether `key` should be written now (and remembers it as written when so). */
  claim(key: string, ttlMs: number, now: number): boolean {
    const seen = this.#seen.get(key);
    if (seen && now < seen.until) return false;
    this.#seen.set(key, { until: now + ttlMs / 2 });
    return true;
  }
}
