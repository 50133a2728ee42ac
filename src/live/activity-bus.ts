import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { ActivityBlock, ActivityEvent } from './activity.js';
import {
  admit,
  type Claim,
  type ClaimVerdict,
  interleave,
  type ShareLimits,
} from './follow-shares.js';

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
  /**
   * The addresses followed now: every admitted claim's, interleaved across clients (a prefix is a fair
   * share), then what `follow` keeps (ICM message ids); at most `max`.
   */
  followed(chainId: string, nowMs: number, max: number): Promise<string[]>;
  /**
   * A subscription claims its addresses on `chainId` until `untilMs`, within its client's share
   * (src/live/follow-shares.ts): refused, or admitted with the claims it displaced (already dropped, and
   * announced to every replica's `onDropped`).
   */
  claim(
    chainId: string,
    want: { id: string; client: string; addresses: readonly string[] },
    untilMs: number,
    limits: ShareLimits,
  ): Promise<ClaimVerdict>;
  /** Keeps the claims `ids` until `untilMs`; answers those no longer held (dropped or lapsed). */
  renew(chainId: string, ids: readonly string[], untilMs: number): Promise<string[]>;
  release(chainId: string, id: string): Promise<void>;
  /** Claims dropped to make room for others, on any replica. */
  onDropped(listener: (chainId: string, ids: readonly string[]) => void): void;
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

// KEYS: claims (id by expiry), meta (id → {c, n, s}), addresses (id → comma list), version.
// ARGV: now, whether to return the addresses. Forgets lapsed claims; answers the version and the claims.
const READ_CLAIMS = `
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
for _, id in ipairs(gone) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
end
local addrs = {}
if ARGV[2] == '1' then addrs = redis.call('HGETALL', KEYS[3]) end
return {redis.call('GET', KEYS[4]) or '0', redis.call('HGETALL', KEYS[2]), addrs}`;

// KEYS: as above. ARGV: version read, until, id, client, count, addresses, evicted ids...
// Applies a claim decided on the state at that version; 0 when another change came first (decide again).
const COMMIT_CLAIM = `
if (redis.call('GET', KEYS[4]) or '0') ~= ARGV[1] then return 0 end
local seq = redis.call('INCR', KEYS[4])
for i = 7, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
  redis.call('HDEL', KEYS[3], ARGV[i])
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], cjson.encode({c = ARGV[4], n = tonumber(ARGV[5]), s = seq}))
redis.call('HSET', KEYS[3], ARGV[3], ARGV[6])
return 1`;

// KEYS: claims. ARGV: now, until, ids... Lengthens the claims still held; answers the others.
const RENEW_CLAIMS = `
local gone = {}
for i = 3, #ARGV do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if (not s) or tonumber(s) < tonumber(ARGV[1]) then table.insert(gone, ARGV[i])
  else redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[i]) end
end
return gone`;

/** Redis's flat HGETALL reply as pairs. */
const pairs = (flat: string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
};

export class RedisActivityBus implements ActivityBus {
  readonly #cmd: RedisClient;
  readonly #sub: RedisClient;
  readonly #listeners: ((b: ActivityBlock) => void)[] = [];
  readonly #channel: string;
  readonly #dropChannel: string;
  readonly #dropListeners: ((chainId: string, ids: readonly string[]) => void)[] = [];
  readonly #logSize: number;

  #droppedMessage(message: string): void {
    try {
      const m = JSON.parse(message) as { chainId?: unknown; ids?: unknown };
      if (typeof m.chainId !== 'string' || !Array.isArray(m.ids)) return;
      const ids = m.ids.filter((i): i is string => typeof i === 'string');
      for (const l of this.#dropListeners) l(m.chainId, ids);
    } catch {}
  }

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
    this.#dropChannel = `${this.#channel}:dropped`;
    this.#cmd = connectRedis(url, { cluster, options: opts });
    this.#sub = connectRedis(url, { cluster, options: opts });
    this.#cmd.on('error', onError);
    this.#sub.on('error', onError);
    void this.#sub.subscribe(this.#channel, this.#dropChannel).catch(onError);
    this.#sub.on('message', (channel: string, message: string) => {
      if (channel === this.#dropChannel) return this.#droppedMessage(message);
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
    const [{ held, addresses }, rest] = await Promise.all([
      this.#claims(chainId, nowMs, true),
      this.#cmd.zrevrangebyscore(key, '+inf', nowMs, 'LIMIT', 0, max),
    ]);
    const byClient = new Map<string, string[]>();
    for (const c of held.sort((a, b) => a.seq - b.seq))
      byClient.set(c.client, [...(byClient.get(c.client) ?? []), ...(addresses.get(c.id) ?? [])]);
    return [...new Set([...interleave(byClient), ...rest])].slice(0, max);
  }

  #claimKeys(chainId: string): string[] {
    const s = slot(chainId);
    return [`${s}:claims`, `${s}:cmeta`, `${s}:caddr`, `${s}:cver`];
  }

  async #claims(chainId: string, nowMs: number, withAddresses: boolean) {
    const [ver, meta, addrs] = (await this.#cmd.eval(
      READ_CLAIMS,
      4,
      ...this.#claimKeys(chainId),
      String(nowMs),
      withAddresses ? '1' : '0',
    )) as [string, string[], string[]];
    const held: Claim[] = [];
    for (const [id, raw] of pairs(meta)) {
      try {
        const m = JSON.parse(raw) as { c: string; n: number; s: number };
        held.push({ id, client: m.c, count: m.n, seq: m.s });
      } catch {}
    }
    const addresses = new Map(pairs(addrs).map(([id, list]) => [id, list ? list.split(',') : []]));
    return { ver, held, addresses };
  }

  async claim(
    chainId: string,
    want: { id: string; client: string; addresses: readonly string[] },
    untilMs: number,
    limits: ShareLimits,
  ): Promise<ClaimVerdict> {
    const count = want.addresses.length;
    // Decided here on the state read, applied only if nothing changed since (else read and decide again).
    for (let attempt = 0; attempt < 8; attempt++) {
      const { ver, held } = await this.#claims(chainId, Date.now(), false);
      const verdict = admit(held, { id: want.id, client: want.client, count }, limits);
      if (!verdict.ok) return verdict;
      const applied = await this.#cmd.eval(
        COMMIT_CLAIM,
        4,
        ...this.#claimKeys(chainId),
        ver,
        String(untilMs),
        want.id,
        want.client,
        String(count),
        want.addresses.join(','),
        ...verdict.evict,
      );
      if (applied !== 1) continue;
      if (verdict.evict.length > 0)
        await this.#cmd.publish(this.#dropChannel, JSON.stringify({ chainId, ids: verdict.evict }));
      return verdict;
    }
    throw new Error(`activity: claims on chain ${chainId} kept changing; try again`);
  }

  async renew(chainId: string, ids: readonly string[], untilMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const [claims] = this.#claimKeys(chainId);
    return (await this.#cmd.eval(
      RENEW_CLAIMS,
      1,
      claims!,
      String(Date.now()),
      String(untilMs),
      ...ids,
    )) as string[];
  }

  async release(chainId: string, id: string): Promise<void> {
    const [claims, meta, addrs, ver] = this.#claimKeys(chainId);
    await this.#cmd.multi().zrem(claims!, id).hdel(meta!, id).hdel(addrs!, id).incr(ver!).exec();
  }

  onDropped(listener: (chainId: string, ids: readonly string[]) => void): void {
    this.#dropListeners.push(listener);
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
