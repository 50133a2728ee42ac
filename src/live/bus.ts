import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { Head } from './head.js';

/**
 * Where heads meet across replicas. `publish` is atomic and monotonic: a head is published only when its
 * number is above the last one published for its chain (so two replicas that both believe they lead, for
 * a moment, never repeat a head), and the last `RECENT` heads are kept so a listener that missed a
 * message (its connection blipped) fills the gap. The lock names the one replica that holds a chain's
 * upstream websocket.
 */
export interface HeadBus {
  publish(head: Head): Promise<boolean>;
  last(chainId: string): Promise<Head | undefined>;
  /** Heads of `chainId` numbered above `after`, ascending (from the recent list). */
  since(chainId: string, after: bigint): Promise<Head[]>;
  onHead(listener: (head: Head) => void): void;
  /** Says that `chainId`'s upstream socket is up (the holder sends it with every lock renewal). */
  beat(chainId: string): Promise<void>;
  onBeat(listener: (chainId: string) => void): void;
  /** Takes or renews the chain's lock for `owner`; true while `owner` holds it. */
  lock(chainId: string, owner: string, ttlMs: number): Promise<boolean>;
  unlock(chainId: string, owner: string): Promise<void>;
  close(): Promise<void>;
}

export const RECENT = 256;
const slot = (chainId: string) => `gw:live:{${chainId}}`;
/**
 * Pub/sub ignores Redis's logical databases (a message published on db 3 reaches subscribers on db 5), but
 * the heads' keys live in one: the channel names the database, so gateways sharing a Redis server on
 * different databases never hear each other's heads.
 */
export const headChannel = (url: string): string =>
  `gw:live:heads:db${Number(new URL(url).pathname.slice(1)) || 0}`;

const PUBLISH = `
local cur = redis.call('HGET', KEYS[1], 'n')
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'n', ARGV[1], 'head', ARGV[2])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, ${RECENT - 1})
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

const LOCK = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not cur then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class RedisHeadBus implements HeadBus {
  readonly #cmd: RedisClient;
  readonly #sub: RedisClient;
  readonly #listeners: ((h: Head) => void)[] = [];
  readonly #beats: ((chainId: string) => void)[] = [];
  readonly #channel: string;

  constructor(url: string, cluster: boolean, onError: (e: Error) => void) {
    const opts = {
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      retryStrategy: (n: number) => Math.min(n * 100, 2_000),
    };
    const connect = () => connectRedis(url, { cluster, options: opts });
    this.#channel = headChannel(url);
    this.#cmd = connect();
    this.#sub = connect();
    this.#cmd.on('error', onError);
    this.#sub.on('error', onError);
    void this.#sub.subscribe(this.#channel).catch(onError);
    this.#sub.on('message', (_channel: string, message: string) => {
      if (message.startsWith('{"beat":')) {
        const chainId = (JSON.parse(message) as { beat: string }).beat;
        for (const l of this.#beats) l(chainId);
        return;
      }
      const head = parse(message);
      if (head) for (const l of this.#listeners) l(head);
    });
  }

  async publish(head: Head): Promise<boolean> {
    const s = slot(head.chainId);
    return (
      (await this.#cmd.eval(
        PUBLISH,
        2,
        `${s}:last`,
        `${s}:recent`,
        head.number,
        JSON.stringify(head),
        this.#channel,
      )) === 1
    );
  }

  async last(chainId: string): Promise<Head | undefined> {
    return parse(await this.#cmd.hget(`${slot(chainId)}:last`, 'head'));
  }

  async since(chainId: string, after: bigint): Promise<Head[]> {
    const raw = await this.#cmd.lrange(`${slot(chainId)}:recent`, 0, RECENT - 1);
    return raw
      .map(parse)
      .filter((h): h is Head => h !== undefined && BigInt(h.number) > after)
      .sort((a, b) => (BigInt(a.number) < BigInt(b.number) ? -1 : 1));
  }

  onHead(listener: (head: Head) => void): void {
    this.#listeners.push(listener);
  }

  async beat(chainId: string): Promise<void> {
    await this.#cmd.publish(this.#channel, JSON.stringify({ beat: chainId }));
  }

  onBeat(listener: (chainId: string) => void): void {
    this.#beats.push(listener);
  }

  async lock(chainId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.#cmd.eval(LOCK, 1, `${slot(chainId)}:lock`, owner, String(ttlMs))) === 1;
  }

  async unlock(chainId: string, owner: string): Promise<void> {
    await this.#cmd.eval(UNLOCK, 1, `${slot(chainId)}:lock`, owner);
  }

  async close(): Promise<void> {
    this.#sub.disconnect();
    this.#cmd.disconnect();
  }
}

/** One process, no Redis: the same contract in memory (this process always holds the lock). */
export class MemoryHeadBus implements HeadBus {
  readonly #last = new Map<string, Head[]>();
  readonly #listeners: ((h: Head) => void)[] = [];

  async publish(head: Head): Promise<boolean> {
    const list = this.#last.get(head.chainId) ?? [];
    const top = list.at(-1);
    if (top && BigInt(top.number) >= BigInt(head.number)) return false;
    list.push(head);
    if (list.length > RECENT) list.shift();
    this.#last.set(head.chainId, list);
    // Delivered on a later tick, as a pub/sub message would be.
    queueMicrotask(() => {
      for (const l of this.#listeners) l(head);
    });
    return true;
  }

  async last(chainId: string): Promise<Head | undefined> {
    return this.#last.get(chainId)?.at(-1);
  }

  async since(chainId: string, after: bigint): Promise<Head[]> {
    return (this.#last.get(chainId) ?? []).filter((h) => BigInt(h.number) > after);
  }

  onHead(listener: (head: Head) => void): void {
    this.#listeners.push(listener);
  }

  readonly #beats: ((chainId: string) => void)[] = [];

  async beat(chainId: string): Promise<void> {
    for (const l of this.#beats) l(chainId);
  }

  onBeat(listener: (chainId: string) => void): void {
    this.#beats.push(listener);
  }

  async lock(): Promise<boolean> {
    return true;
  }

  async unlock(): Promise<void> {}

  async close(): Promise<void> {}
}

function parse(raw: string | null | undefined): Head | undefined {
  if (!raw) return undefined;
  try {
    const h = JSON.parse(raw) as Head;
    return typeof h.number === 'string' && typeof h.chainId === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}
