import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { ActivityBlock } from './activity.js';

/**
 * Where address activity meets across replicas. The holder of a chain's socket publishes each block's
 * activity once, in order: `publish` is atomic and refuses a block at or below the chain's activity
 * cursor (two replicas that both lead for a moment never repeat one). The last `logSize` blocks are kept
 * (the resumable log); the followed addresses are a sorted set scored by when their interest expires, so
 * the holder reads the union every replica wants without anyone keeping a list of replicas.
 */
export interface ActivityBus {
  publish(block: ActivityBlock): Promise<boolean>;
  /** The last block whose activity was published, or undefined. */
  cursor(chainId: string): Promise<bigint | undefined>;
  /** Logged blocks above `after`, ascending, and the oldest block the log still holds. */
  since(chainId: string, after: bigint): Promise<{ blocks: ActivityBlock[]; oldest?: bigint }>;
  onBlock(listener: (b: ActivityBlock) => void): void;
  /** Keeps `addresses` followed on `chainId` until `untilMs` (epoch ms). */
  follow(chainId: string, addresses: readonly string[], untilMs: number): Promise<void>;
  /** The addresses followed now (at most `max`, the earliest-expiring dropped first when above). */
  followed(chainId: string, nowMs: number, max: number): Promise<string[]>;
  close(): Promise<void>;
}

export const DEFAULT_ACTIVITY_LOG = 1_024;
const slot = (chainId: string) => `gw:live:{${chainId}}:act`;
export const activityChannel = (url: string): string =>
  `gw:live:activity:db${Number(new URL(url).pathname.slice(1)) || 0}`;

const PUBLISH = `
local cur = redis.call('GET', KEYS[1])
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[4]) - 1)
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

export class RedisActivityBus implements ActivityBus {
  readonly #cmd: RedisClient;
  readonly #sub: RedisClient;
  readonly #listeners: ((b: ActivityBlock) => void)[] = [];
  readonly #channel: string;
  readonly #logSize: number;

  constructor(
    url: string,
    cluster: boolean,
    onError: (e: Error) => void,
    logSize = DEFAULT_ACTIVITY_LOG,
  ) {
    const opts = {
      maxRetriesPerRequest: 1,
      commandTimeout: 2_000,
      retryStrategy: (n: number) => Math.min(n * 100, 2_000),
    };
    this.#logSize = logSize;
    this.#channel = activityChannel(url);
    this.#cmd = connectRedis(url, { cluster, options: opts });
    this.#sub = connectRedis(url, { cluster, options: opts });
    this.#cmd.on('error', onError);
    this.#sub.on('error', onError);
    void this.#sub.subscribe(this.#channel).catch(onError);
    this.#sub.on('message', (_c: string, message: string) => {
      const b = parse(message);
      if (b) for (const l of this.#listeners) l(b);
    });
  }

  async publish(b: ActivityBlock): Promise<boolean> {
    const s = slot(b.chainId);
    const r = await this.#cmd.eval(
      PUBLISH,
      2,
      `${s}:n`,
      `${s}:log`,
      b.number,
      JSON.stringify(b),
      this.#channel,
      String(this.#logSize),
    );
    return r === 1;
  }

  async cursor(chainId: string): Promise<bigint | undefined> {
    const n = await this.#cmd.get(`${slot(chainId)}:n`);
    return n ? BigInt(n) : undefined;
  }

  async since(chainId: string, after: bigint) {
    const raw = await this.#cmd.lrange(`${slot(chainId)}:log`, 0, this.#logSize - 1);
    return ordered(
      raw.map(parse).filter((b): b is ActivityBlock => b !== undefined),
      after,
    );
  }

  onBlock(listener: (b: ActivityBlock) => void): void {
    this.#listeners.push(listener);
  }

  async follow(chainId: string, addresses: readonly string[], untilMs: number): Promise<void> {
    if (addresses.length === 0) return;
    const args = addresses.flatMap((a) => [untilMs, a]);
    // GT adds new members and only ever lengthens an interest, never shortens another replica's.
    await this.#cmd.zadd(`${slot(chainId)}:follow`, 'GT', ...args);
  }

  async followed(chainId: string, nowMs: number, max: number): Promise<string[]> {
    const key = `${slot(chainId)}:follow`;
    await this.#cmd.zremrangebyscore(key, '-inf', `(${nowMs}`);
    return this.#cmd.zrevrangebyscore(key, '+inf', nowMs, 'LIMIT', 0, max);
  }

  async close(): Promise<void> {
    this.#sub.disconnect();
    this.#cmd.disconnect();
  }
}

/** One process, no Redis: the same contract in memory. */
export class MemoryActivityBus implements ActivityBus {
  readonly #log = new Map<string, ActivityBlock[]>();
  readonly #cursor = new Map<string, bigint>();
  readonly #follow = new Map<string, Map<string, number>>();
  readonly #listeners: ((b: ActivityBlock) => void)[] = [];
  constructor(readonly logSize = DEFAULT_ACTIVITY_LOG) {}

  async publish(b: ActivityBlock): Promise<boolean> {
    const cur = this.#cursor.get(b.chainId);
    if (cur !== undefined && cur >= BigInt(b.number)) return false;
    this.#cursor.set(b.chainId, BigInt(b.number));
    const log = this.#log.get(b.chainId) ?? [];
    log.push(b);
    if (log.length > this.logSize) log.shift();
    this.#log.set(b.chainId, log);
    queueMicrotask(() => {
      for (const l of this.#listeners) l(b);
    });
    return true;
  }

  async cursor(chainId: string) {
    return this.#cursor.get(chainId);
  }

  async since(chainId: string, after: bigint) {
    return ordered(this.#log.get(chainId) ?? [], after);
  }

  onBlock(listener: (b: ActivityBlock) => void): void {
    this.#listeners.push(listener);
  }

  async follow(chainId: string, addresses: readonly string[], untilMs: number): Promise<void> {
    const m = this.#follow.get(chainId) ?? new Map<string, number>();
    for (const a of addresses) m.set(a, Math.max(m.get(a) ?? 0, untilMs));
    this.#follow.set(chainId, m);
  }

  async followed(chainId: string, nowMs: number, max: number): Promise<string[]> {
    const m = this.#follow.get(chainId) ?? new Map<string, number>();
    for (const [a, until] of m) if (until < nowMs) m.delete(a);
    return [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, max)
      .map(([a]) => a);
  }

  async close(): Promise<void> {}
}

function ordered(all: ActivityBlock[], after: bigint) {
  const sorted = all.sort((a, b) => (BigInt(a.number) < BigInt(b.number) ? -1 : 1));
  const oldest = sorted[0] ? BigInt(sorted[0].number) : undefined;
  return { blocks: sorted.filter((b) => BigInt(b.number) > after), oldest };
}

function parse(raw: string | null | undefined): ActivityBlock | undefined {
  if (!raw) return undefined;
  try {
    const b = JSON.parse(raw) as ActivityBlock;
    return typeof b.number === 'string' && typeof b.chainId === 'string' && Array.isArray(b.events)
      ? b
      : undefined;
  } catch {
    return undefined;
  }
}
