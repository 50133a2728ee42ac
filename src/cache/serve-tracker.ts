import type { ServeObserver } from './read-through-types.js';

/**
 * Per-request record of how its upstream data was served: the shortest freshness among everything the
 * response contains (a whole-response cache may keep the response no longer than that), and which
 * resources were served stale because the upstream failed (the response says so in its extensions).
 */
export class ServeTracker implements ServeObserver {
  minFreshMs = Number.POSITIVE_INFINITY;
  /** The shortest stale-while-revalidate window among the parts (0 when any part has none). */
  minSwrMs = Number.POSITIVE_INFINITY;
  readonly stale = new Set<string>();
  /** Set when something uncacheable (a mutation's call, a never-cached method) went into the response. */
  uncacheable = false;
  /** The surrogate keys of every upstream request the response was built from (src/cache/surrogate-keys.ts). */
  readonly tags = new Set<string>();

  tagged(tags: readonly string[]): void {
    for (const t of tags) this.tags.add(t);
  }

  served(info: { label?: string; freshMs: number; stale: boolean; swrMs?: number }): void {
    this.minFreshMs = Math.min(this.minFreshMs, info.freshMs);
    this.minSwrMs = Math.min(this.minSwrMs, info.swrMs ?? 0);
    if (info.stale) this.stale.add(info.label ?? 'other');
  }

  /**
   * How long a whole answer built from these parts may be kept by a cache (ours or an HTTP one), capped at
   * `maxMs`, and how long past that it may be served while revalidating; undefined when it may not be kept
   * at all (a part never cached or served stale, or nothing fresh). One rule for the response cache and
   * Cache-Control (the answer's own errors are the caller's to check).
   */
  keepable(maxMs: number): { ttlMs: number; swrMs: number } | undefined {
    if (this.uncacheable || this.stale.size > 0) return undefined;
    const ttlMs = Math.floor(Math.min(maxMs, this.minFreshMs));
    if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) return undefined;
    return { ttlMs, swrMs: Number.isFinite(this.minSwrMs) ? this.minSwrMs : 0 };
  }

  /** Something reached an upstream outside the read-through (never cached). */
  markUncacheable(): void {
    this.uncacheable = true;
    this.minFreshMs = 0;
    this.minSwrMs = 0;
  }
}
