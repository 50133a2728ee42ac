import type { CacheStore } from './store.js';

/**
 * Read-through over a CacheStore with in-flight coalescing: concurrent misses for one key (in this
 * process) share one load. Values are stored in an envelope that records when they stop being fresh;
 * a "negative" envelope remembers an error (a 404) so it can be replayed briefly without the upstream.
 */
export interface CachedLoad<T> {
  key: string;
  load: () => Promise<T>;
  /** TTL for a loaded value (0 = do not cache). */
  ttlMs: (value: T) => number;
  /** TTL for a failed load (0 = do not cache: the default for every error). */
  errorTtlMs?: (error: unknown) => number;
}

/** What a negative entry keeps of an error, to rebuild it on a hit. */
export interface SerializedError {
  name: string;
  message: string;
  data: Record<string, unknown>;
}

export interface ReadThroughOptions {
  store: CacheStore;
  /** @default Date.now */
  now?: () => number;
  serializeError?: (e: unknown) => SerializedError | undefined;
  deserializeError?: (e: SerializedError) => Error;
  /** Observes every outcome (metrics). */
  onEvent?: (event: 'hit' | 'miss' | 'coalesced' | 'negative-hit', key: string) => void;
}

interface Envelope {
  /** Fresh until (epoch ms). */
  e: number;
  v?: unknown;
  x?: SerializedError;
}

export function encodeEnvelope(env: Envelope): string {
  return JSON.stringify(env);
}

/** Remaining freshness of an encoded envelope, without a full parse of large values. */
export function envelopeRemainingMs(raw: string, now = Date.now()): number {
  const m = /^\{"e":(\d+)/.exec(raw);
  return m ? Math.max(0, Number(m[1]) - now) : 0;
}

export class ReadThrough {
  readonly #store: CacheStore;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #o: ReadThroughOptions;

  constructor(o: ReadThroughOptions) {
    this.#o = o;
    this.#store = o.store;
    this.#now = o.now ?? Date.now;
  }

  get store(): CacheStore {
    return this.#store;
  }

  /**
   * Loads many keys: one store round trip for all of them, then one load per miss (coalesced with any
   * identical load already running). Returns a value or an Error per item, in order — never throws.
   */
  async getMany<T>(items: readonly CachedLoad<T>[]): Promise<(T | Error)[]> {
    const raw = await this.#store.getMany(items.map((i) => i.key));
    const now = this.#now();
    return Promise.all(
      items.map(async (item, idx): Promise<T | Error> => {
        const hit = decode(raw[idx], now);
        if (hit) {
          if (hit.x) {
            this.#o.onEvent?.('negative-hit', item.key);
            return this.#o.deserializeError?.(hit.x) ?? new Error(hit.x.message);
          }
          this.#o.onEvent?.('hit', item.key);
          return hit.v as T;
        }
        try {
          return await this.#loadOnce(item);
        } catch (e) {
          return e instanceof Error ? e : new Error(String(e));
        }
      }),
    );
  }

  async get<T>(item: CachedLoad<T>): Promise<T> {
    const [v] = await this.getMany([item]);
    if (v instanceof Error) throw v;
    return v as T;
  }

  #loadOnce<T>(item: CachedLoad<T>): Promise<T> {
    const running = this.#inFlight.get(item.key);
    if (running) {
      this.#o.onEvent?.('coalesced', item.key);
      return running as Promise<T>;
    }
    this.#o.onEvent?.('miss', item.key);
    const p = this.#load(item).finally(() => this.#inFlight.delete(item.key));
    this.#inFlight.set(item.key, p);
    return p;
  }

  async #load<T>(item: CachedLoad<T>): Promise<T> {
    let value: T;
    try {
      value = await item.load();
    } catch (e) {
      const ttl = item.errorTtlMs?.(e) ?? 0;
      const ser = ttl > 0 ? this.#o.serializeError?.(e) : undefined;
      if (ser) void this.#store.setMany([{ key: item.key, value: encodeEnvelope({ e: this.#now() + ttl, x: ser }), ttlMs: ttl }]);
      throw e;
    }
    const ttl = item.ttlMs(value);
    if (ttl > 0) void this.#store.setMany([{ key: item.key, value: encodeEnvelope({ e: this.#now() + ttl, v: value }), ttlMs: ttl }]);
    return value;
  }
}

function decode(raw: string | undefined, now: number): Envelope | undefined {
  if (raw === undefined) return undefined;
  try {
    const env = JSON.parse(raw) as Envelope;
    return typeof env.e === 'number' && env.e > now ? env : undefined;
  } catch {
    return undefined; // a corrupt entry is a miss
  }
}
