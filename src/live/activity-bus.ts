import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { ActivityBlock, ActivityEvent } from './activity.js';

/**
 * Where address activity meets across replicas. The holder of a chain's socket publishes each block's
 * activity once, in order: `publish` is atomic and refuses a block at or below the chain's activity
 * cursor (two replicas that both lead for a moment never repeat one). The last `logSize` blocks are kept
 * (the resumable log); the followed addresses are a sorted set scored by when their interest expires, so
 * the holder reads the union every replica wants without anyone keeping a list of replicas.
 */
export interface ActivityBus {
  publish(block: ActivityBlock): Promise<boolean>;
  /**
   * A transaction's event from the Data API's webhook (message `messageId`): published to every replica
   * unless the node (or an earlier message) already published that transaction, the message was seen
   * before, or its block is `window` blocks or more below the activity cursor.
   */
  publishWebhook(event: ActivityEvent, messageId: string, head: string): Promise<WebhookOutcome>;
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

export type WebhookOutcome = 'delivered' | 'duplicate' | 'replayed' | 'stale';

/** Webhook deduplication: blocks a transaction and a message id are remembered (0: webhooks off). */
export interface WebhookDedupe {
  window: number;
  /** Most transactions and message ids remembered per chain; above it the oldest go, and their blocks are refused. */
  cap: number;
}

export const DEFAULT_ACTIVITY_LOG = 1_024;
const slot = (chainId: string) => `gw:live:{${chainId}}:act`;
export const activityChannel = (url: string): string =>
  `gw:live:activity:db${Number(new URL(url).pathname.slice(1)) || 0}`;

// Trims a chain's remembered transactions or message ids to `cap`, raising the floor below which a
// webhook delivery is refused, so a forgotten one can never be accepted again.
const TRIM = `
local function trim(key, floorKey, cap)
  local over = redis.call('ZCARD', key) - cap
  if over <= 0 then return end
  local top = redis.call('ZRANGE', key, over - 1, over - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', key, 0, over - 1)
  local f = tonumber(redis.call('GET', floorKey) or '-1')
  if tonumber(top[2]) > f then redis.call('SET', floorKey, top[2]) end
end`;

// KEYS: cursor, log, seen transactions, floor. ARGV: block, json, channel, log size, window, cap, tx...
const PUBLISH = `${TRIM}
local cur = redis.call('GET', KEYS[1])
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[4]) - 1)
local w = tonumber(ARGV[5])
if w > 0 then
  local n = tonumber(ARGV[1])
  for i = 7, #ARGV do redis.call('ZADD', KEYS[3], n, ARGV[i]) end
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', n - w)
  trim(KEYS[3], KEYS[4], tonumber(ARGV[6]))
end
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

// KEYS: cursor, seen transactions, seen messages, floor. ARGV: block, tx, message id, window, cap, channel, json.
const PUBLISH_WEBHOOK = `${TRIM}
local n = tonumber(ARGV[1])
local w = tonumber(ARGV[4])
local cur = redis.call('GET', KEYS[1])
local floor = tonumber(redis.call('GET', KEYS[4]) or '-1')
if n <= floor or (cur and n <= tonumber(cur) - w) then return 'stale' end
if cur then redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(cur) - w) end
if redis.call('ZADD', KEYS[3], 'NX', n, ARGV[3]) == 0 then return 'replayed' end
trim(KEYS[3], KEYS[4], tonumber(ARGV[5]))
if redis.call('ZADD', KEYS[2], 'NX', n, ARGV[2]) == 0 then return 'duplicate' end
trim(KEYS[2], KEYS[4], tonumber(ARGV[5]))
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 'delivered'`;

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
    readonly dedupe: WebhookDedupe = { window: 0, cap: 0 },
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
    const { window, cap } = this.dedupe;
    const r = await this.#cmd.eval(
      PUBLISH,
      4,
      `${s}:n`,
      `${s}:log`,
      `${s}:seen`,
      `${s}:floor`,
      b.number,
      JSON.stringify(b),
      this.#channel,
      String(this.#logSize),
      String(window),
      String(cap),
      ...(window > 0 ? b.events.map((e) => e.txHash) : []),
    );
    return r === 1;
  }

  async publishWebhook(e: ActivityEvent, messageId: string, head: string) {
    const s = slot(e.chainId);
    const block: ActivityBlock = {
      chainId: e.chainId,
      number: e.blockNumber,
      head,
      events: [e],
      webhook: true,
    };
    return (await this.#cmd.eval(
      PUBLISH_WEBHOOK,
      4,
      `${s}:n`,
      `${s}:seen`,
      `${s}:msgs`,
      `${s}:floor`,
      e.blockNumber,
      e.txHash,
      messageId,
      String(Math.max(1, this.dedupe.window)),
      String(Math.max(1, this.dedupe.cap)),
      this.#channel,
      JSON.stringify(block),
    )) as WebhookOutcome;
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

export function ordered(all: ActivityBlock[], after: bigint) {
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
