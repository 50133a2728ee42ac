import type { RedisOptions } from 'ioredis';
import { readExpiry, withExpiry } from './expiry.js';
import { connectRedis, isCluster, type RedisClient } from './redis-connect.js';
import {
  type CacheEntry,
  type CacheHealth,
  PendingWrites,
  type SharedStore,
  type StoredWithExpiry,
} from './store.js';

/**
 * Redis (or Redis Cluster) through ioredis. Built to never hold a request hostage:
 * - no offline queue: while disconnected a command fails at once and the caller reads a miss;
 * - a command timeout bounds every round trip;
 * - ioredis reconnects by itself with a capped backoff, and `health()` reports 'degraded' meanwhile.
 * Reads of one batch are one MGET on a single Redis; on a cluster, where one MGET cannot span slots,
 * per-key GETs sent together are auto-pipelined by ioredis into one pipeline per node. Writes are one pipeline.
 * Each value is stored with its expiry in front (src/cache/expiry.ts), so a tier in front of this store
 * knows how long what it copies may live.
 */
export interface RedisStoreOptions {
  url: string;
  /** Longest wait for one command. @default 250 */
  commandTimeoutMs?: number;
  /** Treat the URL's host as one seed node of a Redis Cluster. @default false */
  cluster?: boolean;
  /** Called on backend errors (counted by metrics, logged). */
  onError?: (op: 'get' | 'set' | 'connection', error: Error) => void;
  /** @default Date.now */
  now?: () => number;
}

export class RedisStore implements SharedStore {
  readonly kind = 'redis' as const;
  readonly client: RedisClient;
  readonly #onError: NonNullable<RedisStoreOptions['onError']>;
  readonly #now: () => number;
  readonly #writes = new PendingWrites();

  constructor(options: RedisStoreOptions) {
    this.#onError = options.onError ?? (() => {});
    this.#now = options.now ?? Date.now;
    const common: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2_000,
      lazyConnect: false,
      // Reconnect forever, at most every 2 s: the cache comes back on its own after Redis does.
      retryStrategy: (times) => Math.min(times * 100, 2_000),
    };
    this.client = connectRedis(options.url, {
      cluster: options.cluster ?? false,
      options: common,
      clusterOptions: {
        enableOfflineQueue: false,
        enableAutoPipelining: true,
        clusterRetryStrategy: (times) => Math.min(times * 100, 2_000),
      },
    });
    // Without a listener ioredis prints every connection error; we count them instead.
    this.client.on('error', (e: Error) => this.#onError('connection', e));
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    return (await this.getManyWithExpiry(keys)).map((v) => v?.value);
  }

  async getManyWithExpiry(keys: readonly string[]): Promise<(StoredWithExpiry | undefined)[]> {
    if (keys.length === 0) return [];
    if (this.client.status !== 'ready') return keys.map(() => undefined);
    try {
      const values = isCluster(this.client)
        ? await Promise.all(keys.map((k) => this.client.get(k)))
        : await this.client.mget(...keys);
      return values.map((v) => (v === null ? undefined : readExpiry(v)));
    } catch (e) {
      this.#onError('get', e as Error);
      return keys.map(() => undefined);
    }
  }

  setMany(entries: readonly CacheEntry[]): Promise<void> {
    return this.#writes.track(this.#setMany(entries));
  }

  settled(): Promise<void> {
    return this.#writes.settled();
  }

  async #setMany(entries: readonly CacheEntry[]): Promise<void> {
    const live = entries.filter((e) => e.ttlMs > 0);
    if (live.length === 0 || this.client.status !== 'ready') return;
    try {
      const now = this.#now();
      const stored = (e: CacheEntry) => withExpiry(e.value, now + e.ttlMs);
      if (isCluster(this.client)) {
        // Keys of one batch live in different slots: auto-pipelining groups them per node.
        await Promise.all(
          live.map((e) => this.client.set(e.key, stored(e), 'PX', Math.ceil(e.ttlMs))),
        );
        return;
      }
      const pipe = this.client.pipeline();
      for (const e of live) pipe.set(e.key, stored(e), 'PX', Math.ceil(e.ttlMs));
      const results = await pipe.exec();
      const failed = results?.find(([err]) => err);
      if (failed?.[0]) this.#onError('set', failed[0]);
    } catch (e) {
      this.#onError('set', e as Error);
    }
  }

  async has(key: string): Promise<boolean> {
    if (this.client.status !== 'ready') return false;
    try {
      return (await this.client.exists(key)) === 1;
    } catch (e) {
      this.#onError('get', e as Error);
      return false;
    }
  }

  health(): CacheHealth {
    return this.client.status === 'ready' ? 'ok' : 'degraded';
  }

  async ready(timeoutMs = 2_000): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.client.once('ready', done);
    });
  }

  /** Lets writes in flight land (QUIT waits for pending replies), within a bound. */
  async close(): Promise<void> {
    if (this.client.status !== 'ready') {
      this.client.disconnect();
      return;
    }
    const timer = setTimeout(() => this.client.disconnect(), 1_000);
    await this.client.quit().catch(() => this.client.disconnect());
    clearTimeout(timer);
  }
}
