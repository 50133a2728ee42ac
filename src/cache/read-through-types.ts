import type { CacheStore } from './store.js';

/** The read-through's vocabulary (src/cache/read-through.ts): what a caller asks for, and what it is told. */
export interface CachedLoad<T> {
  key: string;
  /** Label for metrics (the upstream resource kind). */
  label?: string;
  /**
   * Loads the value; `onFailedAttempt` is to be told when one of its upstream attempts failed and is
   * about to be retried (a stale entry may then be served at once).
   */
  /** `background`: no request waits for this load (a stale-while-revalidate refresh). */
  load: (onFailedAttempt: () => void, background?: boolean) => Promise<T>;
  /** Freshness for a loaded value (0 = do not cache). */
  ttlMs: (value: T) => number;
  /** Past freshness: served at once while one refresh runs. @default 0 */
  swrMs?: number;
  /** Past freshness: served when the refresh fails transiently. @default 0 */
  staleIfErrorMs?: number;
  /** TTL for a failed load (0 = do not cache: the default for every error). */
  errorTtlMs?: (error: unknown) => number;
  /**
   * The version an entry must carry to be served as fresh (a live chain's head: src/live). One key per
   * resource, whatever the version: an entry of an older version is stale at once and is overwritten by
   * the next load, so a new head neither leaves the old entries behind nor grows the store. Without a
   * version (the chain is not live: its socket is away), an entry written with one is not fresh either:
   * its freshness was set for that head (`LIVE_HEAD_TTL_MS`), not for the class TTL that applies now.
   */
  version?: string;
}

/** What a negative entry keeps of an error, to rebuild it on a hit. */
export interface SerializedError {
  name: string;
  message: string;
  data: Record<string, unknown>;
}

export type CacheEvent =
  | 'hit'
  | 'miss'
  | 'coalesced'
  | 'negative-hit'
  | 'stale-revalidate'
  | 'stale-if-error'
  | 'stale-if-slow'
  | 'refresh-failed';

/** Told how each item of a read was served: the response cache and stale marks are built from it. */
export interface ServeObserver {
  /** `freshMs`: how long the served value stays fresh (0 when stale or uncacheable). */
  served(info: {
    key: string;
    label?: string;
    freshMs: number;
    stale: boolean;
    swrMs?: number;
  }): void;
  /**
   * Told the surrogate keys of each upstream request a response reads, whether it is served from cache or
   * loaded (or fails: an answer with errors is never shared, whatever its tags).
   */
  tagged?(tags: readonly string[]): void;
}

export interface ReadThroughOptions {
  store: CacheStore;
  /** @default Date.now */
  now?: () => number;
  serializeError?: (e: unknown) => SerializedError | undefined;
  deserializeError?: (e: SerializedError) => Error;
  /** Errors for which a stale entry may be served instead (upstream unavailable or rate limited). */
  isTransient?: (e: unknown) => boolean;
  /** Observes every outcome (metrics). */
  onEvent?: (event: CacheEvent, label: string) => void;
  /**
   * With a stale entry at hand (within its stale-if-error window), the longest a load may take before the
   * stale entry is served; the load goes on in the background and refreshes the entry. @default Infinity
   */
  staleAfterMs?: number;
  /**
   * Bound of the parsed-entry memo, in bytes (estimated as `PARSED_BYTES_PER_CHAR` per character of the
   * stored text); 0 turns it off. @default 32 MiB
   */
  parsedMaxBytes?: number;
  /** Check on each reuse of a parsed value that no caller mutated it (costly). @default false */
  verifySharedValues?: boolean;
  /** Coalesces a miss with other processes (see miss-lease.ts); @default none: each process loads. */
  acrossProcesses?: import('./miss-lease.js').AcrossProcesses;
}
