import { LRUCache } from 'lru-cache';
import { traceCacheLookup } from '../telemetry/spans.js';
import {
  decodeEntry,
  encodeEntry,
  PARSED_BYTES_PER_CHAR,
  PARSED_MAX_ENTRY_BYTES,
  type StoredEntry,
  storedEntryOf,
} from './entry.js';
import { firstOf, type Running } from './in-flight.js';
import { PrimeMemo } from './prime-memo.js';
import type {
  CachedLoad,
  CacheEvent,
  ReadThroughOptions,
  ServeObserver,
} from './read-through-types.js';
import type { CacheStore } from './store.js';

/** What a primed value is stored as: its key, freshness windows and version. */
type PrimeItem<T = unknown> = Pick<
  CachedLoad<T>,
  'key' | 'ttlMs' | 'swrMs' | 'staleIfErrorMs' | 'version'
>;

/**
 * Read-through over a CacheStore.
 * - Coalescing: concurrent misses for one key (in this process) share one load.
 * - Stale-while-revalidate: within `swrMs` past freshness an entry is served at once while one refresh runs.
 * - Stale-if-error: when a load fails transiently (5xx, timeout, 429), an entry within `staleIfErrorMs`
 *   past freshness is served instead, and the observer is told so (the response marks it stale).
 * - Negative entries: an error (a 404) can be remembered briefly and replayed without the upstream.
 * Values are stored as entries (src/cache/entry.ts) that record when they stop being fresh.
 */

export class ReadThrough {
  readonly #store: CacheStore;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, Running>();
  readonly #o: ReadThroughOptions;
  /**
   * The parsed form of each recently read entry, with the text it was parsed from: a read that
   * returns the same text (the LRU hands back the very same string; Redis an equal one) reuses it
   * instead of parsing again. Callers share these values and must never mutate them (they are not
   * frozen: Pothos brands objects with a symbol key for type resolution, which JSON never sees).
   * Under test, each reuse checks that the value still serializes to its text.
   */
  readonly #parsed: LRUCache<string, { raw: string; entry: StoredEntry }> | undefined;
  readonly #verifyShared: boolean;
  readonly #primed = new PrimeMemo();

  constructor(options: ReadThroughOptions) {
    this.#o = options;
    const parsedMaxBytes = options.parsedMaxBytes ?? 32 * 1024 * 1024;
    this.#verifyShared = options.verifySharedValues ?? false;
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
    const entries = items.map((item, idx) => this.#decode(item.key, raw[idx]));
    // A local copy of another version (or a versioned one read without): another replica may have stored
    // this version in the shared tier already (it saw the head first): one more read before loading.
    const older = items.flatMap((item, idx) => {
      const entry = entries[idx];
      return entry && entry.version !== item.version ? [idx] : [];
    });
    if (older.length > 0 && this.#store.readShared) {
      const shared = await this.#store.readShared(older.map((idx) => items[idx]!.key));
      older.forEach((idx, j) => {
        const entry = this.#decode(items[idx]!.key, shared[j]);
        if (entry) entries[idx] = entry;
      });
    }
    const now = this.#now();
    return Promise.all(items.map((item, idx) => this.#serve(item, entries[idx], now, observer)));
  }

  #decode(key: string, raw: string | undefined): StoredEntry | undefined {
    if (raw === undefined || !this.#parsed) return decodeEntry(raw);
    const memo = this.#parsed.get(key);
    if (memo && memo.raw === raw) {
      if (this.#verifyShared && encodeEntry(memo.entry) !== raw)
        throw new Error(`a shared cached value was mutated: ${key}`);
      return memo.entry;
    }
    const entry = decodeEntry(raw);
    if (entry && raw.length * PARSED_BYTES_PER_CHAR <= PARSED_MAX_ENTRY_BYTES)
      this.#parsed.set(key, { raw, entry });
    return entry;
  }

  async get<T>(item: CachedLoad<T>, observer?: ServeObserver): Promise<T> {
    const [v] = await this.getMany([item], observer);
    if (v instanceof Error) throw v;
    return v as T;
  }

  async #serve<T>(
    item: CachedLoad<T>,
    entry: StoredEntry | undefined,
    now: number,
    observer?: ServeObserver,
  ): Promise<T | Error> {
    const label = item.label ?? 'other';
    const event = (e: CacheEvent) => this.#o.onEvent?.(e, label);
    // An entry of another version is past its freshness, whatever its clock says (it may still serve
    // stale-if-error: it is the last answer known). So is a versioned entry read without a version: its
    // clock was set for its head (a live chain's 60 s bound), and the chain is no longer live.
    const current = entry !== undefined && entry.version === item.version;
    if (entry && current && entry.freshUntil > now) {
      observer?.served({
        key: item.key,
        label: item.label,
        freshMs: entry.freshUntil - now,
        stale: false,
        swrMs: item.swrMs ?? 0,
      });
      if (entry.error) {
        event('negative-hit');
        return this.#o.deserializeError?.(entry.error) ?? new Error(entry.error.message);
      }
      event('hit');
      return entry.value as T;
    }
    if (entry && current && !entry.error && (entry.revalidateUntil ?? 0) > now) {
      // Serve at once; one refresh (coalesced across requests) brings the entry up to date.
      event('stale-revalidate');
      // Nobody waits for it: it is the first to yield when the upstream budget runs short.
      this.#loadOnce(item, true).p.catch(() => event('refresh-failed'));
      observer?.served({ key: item.key, label: item.label, freshMs: 0, stale: false });
      return entry.value as T;
    }
    const running = this.#loadOnce(item);
    const staleAtHand = entry !== undefined && !entry.error && (entry.staleIfErrorUntil ?? 0) > now;
    if (staleAtHand) {
      // Do not make a client wait out the whole retry cycle for an answer a stale entry can give: serve it
      // as soon as an attempt fails or the load outlives its budget; the load refreshes the entry behind.
      const first = await firstOf(running, this.#o.staleAfterMs);
      if (first === 'early') {
        running.p.catch(() => event('refresh-failed'));
        event('stale-if-slow');
        observer?.served({ key: item.key, label: item.label, freshMs: 0, stale: true });
        return entry.value as T;
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
        return entry.value as T;
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
   * Stores values obtained along with another load (one upstream answer holding separately cached
   * parts, or the entities a page holds), each as if it had just been loaded: fresh for its own TTL.
   * One store write for all of them; a part that never changes (`once`) and that this process stored
   * lately is skipped (src/cache/prime-memo.ts).
   */
  prime(items: readonly { item: PrimeItem & { once?: boolean }; value: unknown }[]): void {
    const now = this.#now();
    const entries = [];
    const claim = (key: string, ttlMs: number) => this.#primed.claim(key, ttlMs, now);
    for (const { item, value } of items) {
      // A part stored lately is skipped before it is encoded: the encoding is most of its cost.
      const e = storedEntryOf(item, value, now, item.once ? claim : undefined);
      if (e) entries.push(e);
    }
    if (entries.length > 0) void this.#store.setMany(entries).catch(() => {});
  }

  #write<T>(item: PrimeItem<T>, value: T): Promise<void> {
    const e = storedEntryOf(item, value, this.#now());
    return e ? this.#store.setMany([e]).catch(() => {}) : Promise.resolve();
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
    const entry = decodeEntry<T>(raw);
    return entry && !entry.error && entry.freshUntil > this.#now() && entry.version === version
      ? entry.value
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
            value: encodeEntry({
              freshUntil: this.#now() + ttl,
              ...(item.version !== undefined ? { version: item.version } : {}),
              error: ser,
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
