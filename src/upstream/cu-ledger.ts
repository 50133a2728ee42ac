import type { Cluster, Redis } from 'ioredis';

/**
 * The plan's spending, shared by every replica: CUs per second over the last minute and per hour over
 * the last day, checked and added in one step (a Lua script in Redis; in-process without Redis).
 *
 * Why buckets, not rate-limiter-flexible's fixed windows: a fixed window starts at its first use, so
 * two of ours can fall inside one upstream window and together spend twice its limit. Checking the sum
 * of the 61 one-second buckets that touch the last minute before every spend bounds what ANY 60 s span
 * holds, however the upstream aligns its windows (likewise the 25 hours that touch the last day).
 */
export interface LedgerCaps {
  perMinute: number;
  perDay: number;
}

export type LedgerVerdict =
  | { ok: true; usedMinute: number }
  | { ok: false; budget: 'minute' | 'day' | 'upstream'; retryAfterSec: number };

export interface CuLedger {
  /** Spends `cu` if the last minute and the last day stay within `caps`; else says which and when. */
  take(cu: number, caps: LedgerCaps): Promise<LedgerVerdict>;
  /** Raises the last minute's count to `used` (the upstream counted more: someone else spends too). */
  reconcile(used: number): Promise<void>;
  /** Spends nothing for `ms` (the upstream answered 429 or said its window is spent). */
  block(ms: number): Promise<void>;
}

const MINUTE_SPAN = 60;
const DAY_SPAN = 24;

/** Seconds until enough of the oldest buckets leave the window for `cu` to fit under `cap`. */
function waitFor(
  buckets: [number, number][],
  used: number,
  cu: number,
  cap: number,
  span: number,
  width: number,
  nowSec: number,
): number {
  buckets.sort((a, b) => a[0] - b[0]);
  let left = used;
  for (const [b, n] of buckets) {
    left -= n;
    if (left + cu <= cap) return Math.max(1, (b + span + 1) * width - nowSec);
  }
  return span * width;
}

export function createMemoryLedger(now: () => number = Date.now): CuLedger {
  const minute = new Map<number, number>();
  const day = new Map<number, number>();
  let blockedUntil = 0;
  const sum = (m: Map<number, number>, oldest: number): number => {
    let used = 0;
    for (const [b, n] of m) {
      if (b < oldest) m.delete(b);
      else used += n;
    }
    return used;
  };
  return {
    async take(cu, caps) {
      const ms = now();
      if (ms < blockedUntil)
        return {
          ok: false,
          budget: 'upstream',
          retryAfterSec: Math.ceil((blockedUntil - ms) / 1000),
        };
      const sec = Math.floor(ms / 1000);
      const hour = Math.floor(sec / 3600);
      const usedM = sum(minute, sec - MINUTE_SPAN);
      if (usedM + cu > caps.perMinute)
        return {
          ok: false,
          budget: 'minute',
          retryAfterSec: waitFor([...minute], usedM, cu, caps.perMinute, MINUTE_SPAN, 1, sec),
        };
      const usedD = sum(day, hour - DAY_SPAN);
      if (usedD + cu > caps.perDay)
        return {
          ok: false,
          budget: 'day',
          retryAfterSec: waitFor([...day], usedD, cu, caps.perDay, DAY_SPAN, 3600, sec),
        };
      minute.set(sec, (minute.get(sec) ?? 0) + cu);
      day.set(hour, (day.get(hour) ?? 0) + cu);
      return { ok: true, usedMinute: usedM + cu };
    },
    async reconcile(used) {
      const sec = Math.floor(now() / 1000);
      const usedM = sum(minute, sec - MINUTE_SPAN);
      if (used > usedM) minute.set(sec, (minute.get(sec) ?? 0) + used - usedM);
    },
    async block(ms) {
      blockedUntil = Math.max(blockedUntil, now() + ms);
    },
  };
}

/** KEYS: minute hash, day hash, block key (one hash slot: `{…}`). ARGV: cu, per-minute cap, per-day cap. */
const TAKE = `
local t = redis.call('TIME')
local sec = tonumber(t[1])
local hour = math.floor(sec / 3600)
local cu = tonumber(ARGV[1])
local blocked = redis.call('PTTL', KEYS[3])
if blocked > 0 then return {0, 'upstream', math.ceil(blocked / 1000)} end
local function sum(key, oldest)
  local all = redis.call('HGETALL', key)
  local used, buckets = 0, {}
  for i = 1, #all, 2 do
    local b, n = tonumber(all[i]), tonumber(all[i + 1])
    if b < oldest then redis.call('HDEL', key, all[i]) else
      used = used + n
      buckets[#buckets + 1] = {b, n}
    end
  end
  return used, buckets
end
local function wait(buckets, used, cap, span, width)
  table.sort(buckets, function(a, b) return a[1] < b[1] end)
  for _, x in ipairs(buckets) do
    used = used - x[2]
    if used + cu <= cap then return math.max(1, (x[1] + span + 1) * width - sec) end
  end
  return span * width
end
local usedM, bm = sum(KEYS[1], sec - 60)
if usedM + cu > tonumber(ARGV[2]) then return {0, 'minute', wait(bm, usedM, tonumber(ARGV[2]), 60, 1)} end
local usedD, bd = sum(KEYS[2], hour - 24)
if usedD + cu > tonumber(ARGV[3]) then return {0, 'day', wait(bd, usedD, tonumber(ARGV[3]), 24, 3600)} end
redis.call('HINCRBY', KEYS[1], sec, cu)
redis.call('EXPIRE', KEYS[1], 62)
redis.call('HINCRBY', KEYS[2], hour, cu)
redis.call('EXPIRE', KEYS[2], 90000)
return {1, '', usedM + cu}
`;

/** KEYS: minute hash. ARGV: the upstream's count of the current minute. */
const RECONCILE = `
local sec = tonumber(redis.call('TIME')[1])
local all = redis.call('HGETALL', KEYS[1])
local used = 0
for i = 1, #all, 2 do
  if tonumber(all[i]) >= sec - 60 then used = used + tonumber(all[i + 1]) end
end
local want = tonumber(ARGV[1])
if want > used then
  redis.call('HINCRBY', KEYS[1], sec, want - used)
  redis.call('EXPIRE', KEYS[1], 62)
end
return 0
`;

type LedgerCommands = {
  gwCuTake(...args: (string | number)[]): Promise<[number, string, number]>;
  gwCuReconcile(...args: (string | number)[]): Promise<number>;
};

export function createRedisLedger(redis: Redis | Cluster, prefix = 'gw:cu'): CuLedger {
  const keys = [`{${prefix}}:m`, `{${prefix}}:d`, `{${prefix}}:block`] as const;
  // Defined once per connection: ioredis then sends EVALSHA, the script's text only after a NOSCRIPT.
  const r = redis as (Redis | Cluster) & Partial<LedgerCommands>;
  if (typeof r.gwCuTake !== 'function') {
    redis.defineCommand('gwCuTake', { numberOfKeys: 3, lua: TAKE });
    redis.defineCommand('gwCuReconcile', { numberOfKeys: 1, lua: RECONCILE });
  }
  const cmd = redis as unknown as LedgerCommands;
  return {
    async take(cu, caps) {
      const res = await cmd.gwCuTake(...keys, cu, caps.perMinute, caps.perDay);
      if (res[0] === 1) return { ok: true, usedMinute: Number(res[2]) };
      return {
        ok: false,
        budget: res[1] as 'minute' | 'day' | 'upstream',
        retryAfterSec: Number(res[2]),
      };
    },
    async reconcile(used) {
      await cmd.gwCuReconcile(keys[0], Math.ceil(used));
    },
    async block(ms) {
      // Never shortens a longer block another replica set.
      const left = await redis.pttl(keys[2]);
      if (left < ms) await redis.set(keys[2], '1', 'PX', Math.ceil(ms));
    },
  };
}
