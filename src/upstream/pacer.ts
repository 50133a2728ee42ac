import { LRUCache } from 'lru-cache';
import type { UpstreamGate } from './http.js';
import type { Transport } from './transport.js';

/**
 * Slowing down when the upstream says its budget is nearly spent: `observe` wraps the client's transport and reads
 * `ratelimit-remaining` from every answer; below `slowdownBelow`, `wait` spaces the next calls by (time to
 * reset) / remaining, at most `maxDelayMs` each (at 0: the reset, up to `maxDelayMs`). The reset comes from
 * `ratelimit-reset` (seconds), else the window of `ratelimit-policy` (`limit;w=60`). The wait happens before
 * a call starts, outside its per-attempt timeout.
 */
export interface Pacer {
  observe(inner: Transport): Transport;
  /** Reads one answer's headers (what `observe` does for every answer of its transport). */
  note(header: (name: string) => string | undefined): void;
  wait(): Promise<void>;
}

export function createPacer(options: {
  slowdownBelow: number;
  maxDelayMs?: number;
  now?: () => number;
  onPause?: (ms: number) => void;
}): Pacer {
  const maxDelayMs = options.maxDelayMs ?? 2_000;
  const now = options.now ?? Date.now;
  let nextAt = 0;
  let spacingMs = 0;
  return {
    async wait() {
      if (options.slowdownBelow <= 0 || spacingMs === 0) return;
      // Each call takes the next slot, so concurrent calls are spaced too.
      const slot = Math.max(now(), nextAt);
      nextAt = slot + spacingMs;
      const wait = slot - now();
      if (wait > 0) {
        options.onPause?.(wait);
        await new Promise((r) => setTimeout(r, wait));
      }
    },
    observe(inner) {
      if (options.slowdownBelow <= 0) return inner;
      return async (req) => {
        const res = await inner(req);
        note(res.header);
        return res;
      };
    },
    note: (header) => note(header),
  };
  function note(header: (name: string) => string | undefined): void {
    if (options.slowdownBelow <= 0) return;
    const raw = header('ratelimit-remaining') ?? null;
    const remaining = Number(raw);
    if (raw === null || !Number.isFinite(remaining)) return;
    if (remaining >= options.slowdownBelow) {
      spacingMs = 0;
      return;
    }
    const reset = Number(header('ratelimit-reset'));
    const window = Number(/w=(\d+)/.exec(header('ratelimit-policy') ?? '')?.[1]);
    const resetMs =
      (Number.isFinite(reset) && reset > 0
        ? reset
        : Number.isFinite(window) && window > 0
          ? window
          : 1) * 1000;
    spacingMs = Math.min(
      maxDelayMs,
      remaining <= 0 ? resetMs : Math.ceil(resetMs / (remaining + 1)),
    );
    nextAt = Math.max(nextAt, now() + spacingMs);
  }
}

/** How many credentials' pacers a client keeps (the least recently used go first). */
const PACERS = 1_000;

/**
 * One pacer per credential: the upstream counts a key's rate limit apart from every other key's, so
 * one caller's spent window slows that caller's calls only.
 */
export function createPacers(options: {
  slowdownBelow: number;
  maxDelayMs?: number;
}): UpstreamGate {
  const pacers = new LRUCache<string, Pacer>({ max: PACERS });
  const pacerFor = (id: string): Pacer => {
    let p = pacers.get(id);
    if (!p) {
      p = createPacer(options);
      pacers.set(id, p);
    }
    return p;
  };
  return {
    take: ({ credential }) =>
      options.slowdownBelow <= 0 ? Promise.resolve() : pacerFor(credential.id).wait(),
    observe: ({ header, credential }) => {
      if (options.slowdownBelow > 0) pacerFor(credential.id).note(header);
    },
  };
}

/** Gates in order: each attempt passes every `take`, and every answer is shown to each. */
export function gates(...list: (UpstreamGate | undefined)[]): UpstreamGate {
  const all = list.filter((g): g is UpstreamGate => g !== undefined);
  return {
    async take(a) {
      for (const g of all) await g.take(a);
    },
    observe(a) {
      for (const g of all) g.observe(a);
    },
  };
}
