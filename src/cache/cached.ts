import { LRUCache } from 'lru-cache';
import { traceCacheLookup } from '../telemetry/spans.js';
import type { CachedLoad, CacheEvent, ReadThroughOptions, ServeObserver } from './cached-types.js';
import {
  decode,
  type Envelope,
  encodeEnvelope,
  firstOf,
  PARSED_BYTES_PER_CHAR,
  PARSED_MAX_ENTRY_BYTES,
  type Running,
} from './envelope.js';
import type { CacheStore } from './store.js';

export type {
  CachedLoad,
  CacheEvent,
  ReadThroughOptions,
  SerializedError,
  ServeObserver,
} from './cached-types.js';
export { encodeEnvelope, PARSED_BYTES_PER_CHAR } from './envelope.js';

/**
 * Read-through over a CacheStore.
 * - Coalescing: concurrent misses for one key (in this process) share one load.
 * - Stale-while-revalidate: within `swrMs` past freshness an entry is served at once while one refresh runs.
 * - Stale-if-error: when a load fails transiently (5xx, timeout, 429), an entry within `staleIfErrorMs`
 *   past freshness is served instead, and the observer is told so (the response marks it stale).
 * - Negative entries: an error (a 404) can be remembered briefly and replayed without the upstream.
 * Values are stored in an envelope that records when they stop being fresh.
 */

export class ReadThrough {
  readonly #store: CacheStore;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, Running>();
  readonly #o: ReadThroughOptions;
  /**
   * The parsed envelope of each recently read entry, with the text it was parsed from: a read that
   * returns the same text (the LRU hands back the very same string; Redis an equal one) reuses it
   * instead of parsing again. Callers share these values and must never mutate them (they are not
   * frozen: Pothos brands objects with a symbol key for type resolution, which JSON never sees).
   * Under test, each reuse checks that the value still serializes to its text.
   */
  readonly #parsed: LRUCache<string, { raw: string; env: Envelope }> | undefined;
  readonly #verifyShared: boolean;

  constructor(options: ReadThroughOptions) {
    this.#o = options;
    const parsedMaxBytes = options.parsedMaxBytes ?? 32 * 1024 * 1024;
    this.#verifyShared = options.verifySharedValues ?? process.env.NODE_ENV === 'test';
    this.#parsed =
      parsedMaxBytes > 0
        ? new LRUCache({
            maxSize: parsedMaxBytes,
            sizeCalculation: (p, k) => (p.raw.length + k.length) * PARSED_BYTES_PER_CHAR,
          })
        : undefined;
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
  }

  get store(): CacheStore {
    return this.#store;
  }

  /** Resolves once the loads running now (refreshes no request waits for too) and their writes are done. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0)
      await Promise.allSettled([...this.#inFlight.values()].map((r) => r.p));
    await this.#store.settled?.();
  }

  /**
   * Loads many keys: one store round trip for all of them, then one load per miss (coalesced with any
   * identical load already running). Returns a value or an Error per item, in order — never throws.
   */
  getMany<T>(items: readonly CachedLoad<T>[], observer?: ServeObserver): Promise<(T | Error)[]> {
    // One span per lookup; the loads of its misses (upstream calls) run inside it.
    return traceCacheLookup(items.length, () => this.#getMany(items, observer));
  }

  async #getMany<T>(
    items: readonly CachedLoad<T>[],
    observer?: ServeObserver,
  ): Promise<(T | Error)[]> {
    const raw = await this.#store.getMany(items.map((i) => i.key));
    const envs = items.map((item, idx) => this.#decode(item.key, raw[idx]));
    // A local copy of another version: another replica may have stored this version in the shared tier
    // already (it saw the head first): one more read, past the local tier, before loading.
    const older = items.flatMap((item, idx) => {
      const env = envs[idx];
      return env && item.version !== undefined && env.h !== item.version ? [idx] : [];
    });
    if (older.length > 0 && this.#store.readShared) {
      const shared = await this.#store.readShared(older.map((idx) => items[idx]!.key));
      older.forEach((idx, j) => {
        const env = this.#decode(items[idx]!.key, shared[j]);
        if (env) envs[idx] = env;
      });
    }
    const now = this.#now();
    return Promise.all(items.map((item, idx) => this.#serve(item, envs[idx], now, observer)));
  }

  #decode(key: string, raw: string | undefined): Envelope | undefined {
    if (raw === undefined || !this.#parsed) return decode(raw);
    const memo = this.#parsed.get(key);
    if (memo && memo.raw === raw) {
      if (this.#verifyShared && JSON.stringify(memo.env) !== raw)
        throw new Error(`a shared cached value was mutated: ${key}`);
      return memo.env;
    }
    const env = decode(raw);
    if (env && raw.length * PARSED_BYTES_PER_CHAR <= PARSED_MAX_ENTRY_BYTES)
      this.#parsed.set(key, { raw, env });
    return env;
  }

  async get<T>(item: CachedLoad<T>, observer?: ServeObserver): Promise<T> {
    const [v] = await this.getMany([item], observer);
    if (v instanceof Error) throw v;
    return v as T;
  }

  async #serve<T>(
    item: CachedLoad<T>,
    env: Envelope | undefined,
    now: number,
    observer?: ServeObserver,
  ): Promise<T | Error> {
    const label = item.label ?? 'other';
    const event = (e: CacheEvent) => this.#o.onEvent?.(e, label);
    // An entry of another version is past its freshness, whatever its clock says (it may still serve
    // stale-if-error: it is the last answer known).
    const current = env !== undefined && (item.version === undefined || env.h === item.version);
    if (env && current && env.e > now) {
      observer?.served({
        key: item.key,
        label: item.label,
        freshMs: env.e - now,
        stale: false,
        swrMs: item.swrMs ?? 0,
      });
      if (env.x) {
        event('negative-hit');
        return this.#o.deserializeError?.(env.x) ?? new Error(env.x.message);
      }
      event('hit');
      return env.v as T;
    }
    if (env && current && !env.x && env.r !== undefined && env.r > now) {
      // Serve at once; one refresh (coalesced across requests) brings the entry up to date.
      event('stale-revalidate');
      // Nobody waits for it: it is the first to yield when the upstream budget runs short.
      this.#loadOnce(item, true).p.catch(() => event('refresh-failed'));
      observer?.served({ key: item.key, label: item.label, freshMs: 0, stale: false });
      return env.v as T;
    }
    const running = this.#loadOnce(item);
    const staleAtHand = env !== undefined && !env.x && env.s !== undefined && env.s > now;
    if (staleAtHand) {
      // Do not make a client wait out the whole retry cycle for an answer a stale entry can give: serve it
      // as soon as an attempt fails or the load outlives its budget; the load refreshes the entry behind.
      const first = await firstOf(running, this.#o.staleAfterMs);
      if (first === 'early') {
        running.p.catch(() => event('refresh-failed'));
        event('stale-if-slow');
        observer?.served({ key: item.key, label: item.label, freshMs: 0, stale: true });
        return env.v as T;
      }
    }
    try {
      const value = (await running.p) as T;
      observer?.served({
        key: item.key,
        label: item.label,
        freshMs: item.ttlMs(value),
        stale: false,
        swrMs: item.swrMs ?? 0,
      });
      return value;
    } catch (e) {
      if (staleAtHand && (this.#o.isTransient?.(e) ?? false)) {
        event('stale-if-error');
        observer?.served({ key: item.key, label: item.label, freshMs: 0, stale: true });
        return env.v as T;
      }
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  #loadOnce<T>(item: CachedLoad<T>, background = false): Running {
    // A load started at another version is not this version's answer: loads coalesce per version.
    const flightKey = item.version === undefined ? item.key : `${item.key}@${item.version}`;
    const running = this.#inFlight.get(flightKey);
    if (running) {
      this.#o.onEvent?.('coalesced', item.label ?? 'other');
      return running;
    }
    this.#o.onEvent?.('miss', item.label ?? 'other');
    let failed!: () => void;
    const failedAttempt = new Promise<void>((resolve) => (failed = resolve));
    const p = this.#load(item, failed, background).finally(() => this.#inFlight.delete(flightKey));
    const r: Running = { p, failedAttempt };
    this.#inFlight.set(flightKey, r);
    return r;
  }

  /**
   * Stores a value obtained along with another load (one upstream answer holding two separately cached
   * parts), as if `item` had just been loaded: the part is fresh for its own TTL.
   */
  prime<T>(
    item: Pick<CachedLoad<T>, 'key' | 'ttlMs' | 'swrMs' | 'staleIfErrorMs' | 'version'>,
    value: T,
  ): void {
    void this.#write(item, value);
  }

  #write<T>(
    item: Pick<CachedLoad<T>, 'key' | 'ttlMs' | 'swrMs' | 'staleIfErrorMs' | 'version'>,
    value: T,
  ): Promise<void> {
    const ttl = item.ttlMs(value);
    if (!(ttl > 0)) return Promise.resolve();
    const now = this.#now();
    const swr = item.swrMs ?? 0;
    const sie = item.staleIfErrorMs ?? 0;
    const env: Envelope = {
      e: now + ttl,
      ...(swr > 0 ? { r: now + ttl + swr } : {}),
      ...(sie > 0 ? { s: now + ttl + sie } : {}),
      ...(item.version !== undefined ? { h: item.version } : {}),
      v: value,
    };
    return this.#store
      .setMany([{ key: item.key, value: encodeEnvelope(env), ttlMs: ttl + Math.max(swr, sie) }])
      .catch(() => {});
  }

  #load<T>(item: CachedLoad<T>, onFailedAttempt: () => void, background: boolean): Promise<T> {
    const across = this.#o.acrossProcesses;
    if (!across) return this.#loadHere(item, onFailedAttempt, false, background);
    // Another process may be loading this key: take its value from the store rather than load it again.
    // Leases are per version, like in-process coalescing: a peer loading an older head is not waited for.
    return across(
      item.version === undefined ? item.key : `${item.key}@${item.version}`,
      () => this.#loadHere(item, onFailedAttempt, true, background),
      () => this.#readFresh<T>(item.key, item.version),
    );
  }

  async #readFresh<T>(key: string, version: string | undefined): Promise<T | undefined> {
    // What another process stored is in the shared tier (a local copy can only be older).
    const [raw] = await (this.#store.readShared ?? this.#store.getMany).call(this.#store, [key]);
    const env = decode(raw);
    return env && !env.x && env.e > this.#now() && (version === undefined || env.h === version)
      ? (env.v as T)
      : undefined;
  }

  async #loadHere<T>(
    item: CachedLoad<T>,
    onFailedAttempt: () => void,
    awaitWrite = false,
    background = false,
  ): Promise<T> {
    let value: T;
    try {
      value = await item.load(onFailedAttempt, background);
    } catch (e) {
      const ttl = item.errorTtlMs?.(e) ?? 0;
      const ser = ttl > 0 ? this.#o.serializeError?.(e) : undefined;
      if (ser)
        void this.#store.setMany([
          {
            key: item.key,
            value: encodeEnvelope({
              e: this.#now() + ttl,
              ...(item.version !== undefined ? { h: item.version } : {}),
              x: ser,
            }),
            ttlMs: ttl,
          },
        ]);
      throw e;
    }
    const written = this.#write(item, value);
    if (awaitWrite) await written;
    return value;
  }
}
