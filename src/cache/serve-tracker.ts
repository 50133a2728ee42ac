import type { ServeObserver } from './cached.js';

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

  served(info: { label?: string; freshMs: number; stale: boolean; swrMs?: number }): void {
    this.minFreshMs = Math.min(this.minFreshMs, info.freshMs);
    this.minSwrMs = Math.min(this.minSwrMs, info.swrMs ?? 0);
    if (info.stale) this.stale.add(info.label ?? 'other');
  }

  /** Something reached an upstream outside the read-through (never cached). */
  markUncacheable(): void {
    this.uncacheable = true;
    this.minFreshMs = 0;
    this.minSwrMs = 0;
  }
}
