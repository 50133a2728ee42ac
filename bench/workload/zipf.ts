/**
 * Seeded draws for the workload: a small PRNG (mulberry32) so a run's journeys are the same on every
 * side that replays them (gateway, direct, peer), a Zipf sampler over ranks 1..n, and exponential gaps
 * for Poisson arrivals.
 */
export type Rand = () => number;

export function seeded(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ranks 1..n with P(k) ∝ 1 / k^s, drawn by binary search over the cumulative distribution. */
export function zipf(n: number, s: number): (rand: Rand) => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 1; k <= n; k++) {
    sum += 1 / k ** s;
    cdf[k - 1] = sum;
  }
  for (let i = 0; i < n; i++) cdf[i]! /= sum;
  return (rand) => {
    const u = rand();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/** Share of draws that land on ranks 1..k (what the top k of a population receive). */
export function zipfHead(n: number, s: number, k: number): number {
  let top = 0;
  let all = 0;
  for (let i = 1; i <= n; i++) {
    const w = 1 / i ** s;
    all += w;
    if (i <= k) top += w;
  }
  return top / all;
}

/** The gap to the next arrival of a Poisson process of `ratePerSec`, in ms. */
export const poissonGapMs = (rand: Rand, ratePerSec: number): number =>
  (-Math.log(1 - rand()) / ratePerSec) * 1000;
