import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { ActivityBus } from './activity-bus.js';
import { ICM_PREFIX } from './activity-source.js';
import type { HeadBus } from './bus.js';
import { type WebhookApi, WebhookApiError } from './webhook-api.js';

/**
 * Keeps one `address_activity` webhook per followed chain registered at the Data API, its addresses the
 * union every replica follows (the bus's followed set). One replica does it at a time (a lock beside the
 * head holder's); the webhook's id and registered addresses are kept in Redis, so a takeover carries on
 * where the last holder stopped and every replica knows which webhook ids are its own.
 */
export interface WebhookStore {
  /** Webhook id by chain. */
  ids(): Promise<Map<string, string>>;
  setId(chainId: string, id: string | undefined): Promise<void>;
  registered(chainId: string): Promise<string[]>;
  change(chainId: string, add: readonly string[], remove: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

const IDS = 'gw:live:wh:ids';
const addrs = (chainId: string) => `gw:live:wh:{${chainId}}:addrs`;

export class RedisWebhookStore implements WebhookStore {
  readonly #r: RedisClient;
  constructor(url: string, cluster: boolean, onError: (e: Error) => void) {
    this.#r = connectRedis(url, {
      cluster,
      options: { maxRetriesPerRequest: 1, commandTimeout: 2_000 },
    });
    this.#r.on('error', onError);
  }
  async ids() {
    return new Map(Object.entries(await this.#r.hgetall(IDS)));
  }
  async setId(chainId: string, id: string | undefined) {
    if (id === undefined) {
      await this.#r.hdel(IDS, chainId);
      await this.#r.del(addrs(chainId));
    } else await this.#r.hset(IDS, chainId, id);
  }
  async registered(chainId: string) {
    return this.#r.smembers(addrs(chainId));
  }
  async change(chainId: string, add: readonly string[], remove: readonly string[]) {
    if (add.length) await this.#r.sadd(addrs(chainId), ...add);
    if (remove.length) await this.#r.srem(addrs(chainId), ...remove);
  }
  async close() {
    this.#r.disconnect();
  }
}

export class MemoryWebhookStore implements WebhookStore {
  readonly #ids = new Map<string, string>();
  readonly #addrs = new Map<string, Set<string>>();
  async ids() {
    return new Map(this.#ids);
  }
  async setId(chainId: string, id: string | undefined) {
    if (id === undefined) {
      this.#ids.delete(chainId);
      this.#addrs.delete(chainId);
    } else this.#ids.set(chainId, id);
  }
  async registered(chainId: string) {
    return [...(this.#addrs.get(chainId) ?? [])];
  }
  async change(chainId: string, add: readonly string[], remove: readonly string[]) {
    const set = this.#addrs.get(chainId) ?? new Set<string>();
    for (const a of add) set.add(a);
    for (const a of remove) set.delete(a);
    this.#addrs.set(chainId, set);
  }
  async close() {}
}

export interface WebhookRegistrarOptions {
  chains: readonly string[];
  /** The public URL the Data API posts deliveries to. */
  url: string;
  api: WebhookApi;
  store: WebhookStore;
  bus: ActivityBus;
  heads: HeadBus;
  owner: string;
  /** Most addresses registered per chain (the Data API plan's bound). */
  maxAddresses: number;
  syncMs: number;
  now?: () => number;
  log: (level: 'info' | 'warn', message: string) => void;
}

/** Addresses per add/remove call. */
const BATCH = 500;

export class WebhookRegistrar {
  readonly #o: WebhookRegistrarOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(options: WebhookRegistrarOptions) {
    this.#o = options;
  }

  start(): void {
    const tick = () => {
      this.#running = this.#running.then(() => this.syncAll()).catch(() => {});
    };
    tick();
    this.#timer = setInterval(tick, this.#o.syncMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
    for (const c of this.#o.chains) await this.#o.heads.unlock(`${c}:wh`, this.#o.owner);
  }

  /** One pass over the chains this replica holds the registration of. */
  async syncAll(): Promise<void> {
    for (const chainId of this.#o.chains) {
      const ttl = Math.max(3 * this.#o.syncMs, 1_000);
      if (!(await this.#o.heads.lock(`${chainId}:wh`, this.#o.owner, ttl))) continue;
      await this.sync(chainId).catch((e: Error) =>
        this.#o.log('warn', `live ${chainId}: webhook registration: ${e.message}`),
      );
    }
  }

  async sync(chainId: string): Promise<void> {
    const { api, store, bus } = this.#o;
    const followed = await bus.followed(chainId, (this.#o.now ?? Date.now)(), this.#o.maxAddresses);
    const want = new Set(followed.filter((a) => !a.startsWith(ICM_PREFIX)));
    let id = (await store.ids()).get(chainId);
    if (id === undefined) {
      if (want.size === 0) return;
      const mine = (await api.list()).find(
        (w) =>
          w.eventType === 'address_activity' &&
          w.status === 'active' &&
          w.url === this.#o.url &&
          w.chainId === chainId,
      );
      const created = mine ?? (await api.create(chainId, this.#o.url, [...want]));
      id = created.id;
      await store.setId(chainId, id);
      const held = (created.metadata?.addresses ?? []).map((a) => a.toLowerCase());
      await store.change(chainId, held, []);
      this.#o.log('info', `live ${chainId}: webhook ${id} ${mine ? 'adopted' : 'created'}`);
    }
    const have = new Set(await store.registered(chainId));
    const add = [...want].filter((a) => !have.has(a));
    const remove = [...have].filter((a) => !want.has(a));
    try {
      for (let i = 0; i < add.length; i += BATCH) {
        const batch = add.slice(i, i + BATCH);
        await api.addAddresses(id, batch);
        await store.change(chainId, batch, []);
      }
      for (let i = 0; i < remove.length; i += BATCH) {
        const batch = remove.slice(i, i + BATCH);
        await api.removeAddresses(id, batch);
        await store.change(chainId, [], batch);
      }
    } catch (e) {
      // Deleted at the Data API: forget it, and register anew on the next pass.
      if (e instanceof WebhookApiError && e.status === 404) await store.setId(chainId, undefined);
      throw e;
    }
  }
}
