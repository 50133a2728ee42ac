import type { Cluster, Redis } from 'ioredis';
import type { CuLedger, LedgerBudget } from './cu-ledger.js';
import {
  DEFAULT_FAIR_SHARE,
  OVERFLOW_PAYER,
  payerKey,
  SLOTS,
  SYSTEM_PAYER,
  WINDOWS,
} from './fair-share.js';

/**
 * The ledger of cu-ledger.ts in Redis, shared by every replica: one Lua script checks the plan's
 * caps, the payer's fair share (fair-share.ts: the same rule as the in-process ledger, line for line)
 * and adds the spend, atomically. Its memory is bounded: 61 + 25 buckets, and per window at most
 * `maxPayers` payer records of 8 numbers, each gone once its spending has left the window.
 *
 * KEYS: minute buckets, day buckets, block key, payers' minute rings, payers' day rings (one hash
 * slot: `{…}`). ARGV: cu, per-minute cap, per-day cap, payer, own per-minute cap, own per-day cap (-1:
 * none), contention, max payers.
 */
const TAKE = `
local t = redis.call('TIME')
local sec = tonumber(t[1])
local hour = math.floor(sec / 3600)
local cu = tonumber(ARGV[1])
local capM, capD = tonumber(ARGV[2]), tonumber(ARGV[3])
local payer = ARGV[4]
local ownM, ownD = tonumber(ARGV[5]), tonumber(ARGV[6])
local contention, maxPayers = tonumber(ARGV[7]), tonumber(ARGV[8])
local SYSTEM, OVERFLOW, K = '${SYSTEM_PAYER}', '${OVERFLOW_PAYER}', ${SLOTS}
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
if usedM + cu > capM then return {0, 'minute', wait(bm, usedM, capM, 60, 1)} end
local usedD, bd = sum(KEYS[2], hour - 24)
if usedD + cu > capD then return {0, 'day', wait(bd, usedD, capD, 24, 3600)} end

-- A ring: {lastSlot, c0 .. c(K-1)}, the last count being slot lastSlot (fair-share.ts).
local function empty(cur) local r = {cur} for i = 1, K do r[i + 1] = 0 end return r end
local function ring(raw, cur) if raw then return cjson.decode(raw) end return empty(cur) end
local function used(r, cur)
  local shift = math.max(0, cur - r[1])
  local u = 0
  for i = shift, K - 1 do u = u + r[i + 2] end
  return u
end
local function add(r, cur, n)
  local shift = math.max(0, cur - r[1])
  local nr = empty(math.max(cur, r[1]))
  for i = 0, K - 1 - shift do nr[i + 2] = r[i + shift + 2] end
  nr[K + 1] = nr[K + 1] + n
  return nr
end
local function ringWait(r, cur, excess, width)
  local shift = math.max(0, cur - r[1])
  local freed = 0
  for i = shift, K - 1 do
    freed = freed + r[i + 2]
    if freed >= excess then return math.max(1, (r[1] - K + 1 + i + K) * width - sec) end
  end
  return K * width
end
local function level(spent, pool)
  table.sort(spent)
  local left = math.max(0, pool)
  for i = 1, #spent do
    local each = left / (#spent - i + 1)
    if spent[i] >= each then return each end
    left = left - spent[i]
  end
  return math.huge
end
local function tracked(key, cur)
  if payer == SYSTEM or redis.call('HEXISTS', key, payer) == 1 then return payer end
  if redis.call('HLEN', key) < maxPayers then return payer end
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    if used(cjson.decode(all[i + 1]), cur) == 0 then redis.call('HDEL', key, all[i]) end
  end
  if redis.call('HLEN', key) < maxPayers then return payer end
  return OVERFLOW
end
local function judge(key, id, cur, width, cap, total, own, name, plan)
  local r = ring(redis.call('HGET', key, id), cur)
  local u = used(r, cur)
  if id == SYSTEM then
    if own < 0 or u + cu <= own then return nil end
    return {0, 'own-' .. name, ringWait(r, cur, u + cu - own, width)}
  end
  local contended = contention * cap
  if total + cu <= contended then return nil end
  local spent = {u + cu}
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    if all[i] ~= id then
      local v = used(cjson.decode(all[i + 1]), cur)
      if v == 0 then redis.call('HDEL', key, all[i])
      elseif all[i] ~= SYSTEM then spent[#spent + 1] = v end
    end
  end
  local l = math.max(level(spent, contended), cap / (#spent + 1))
  if u + cu <= l then return nil end
  -- When enough of its own spending has left the window, or the plan is no longer contended.
  return {0, 'share-' .. name, math.min(ringWait(r, cur, u + cu - l, width), plan())}
end
local WM, WD = ${WINDOWS.minute.width}, ${WINDOWS.day.width}
local curM, curD = math.floor(sec / WM), math.floor(sec / WD)
local idM, idD = tracked(KEYS[4], curM), tracked(KEYS[5], curD)
local no = judge(KEYS[4], idM, curM, WM, capM, usedM, ownM, 'minute',
  function() return wait(bm, usedM, contention * capM, 60, 1) end)
if no then return no end
no = judge(KEYS[5], idD, curD, WD, capD, usedD, ownD, 'day',
  function() return wait(bd, usedD, contention * capD, 24, 3600) end)
if no then return no end
redis.call('HINCRBY', KEYS[1], sec, cu)
redis.call('EXPIRE', KEYS[1], 62)
redis.call('HINCRBY', KEYS[2], hour, cu)
redis.call('EXPIRE', KEYS[2], 90000)
redis.call('HSET', KEYS[4], idM, cjson.encode(add(ring(redis.call('HGET', KEYS[4], idM), curM), curM, cu)))
redis.call('EXPIRE', KEYS[4], (K + 1) * WM)
redis.call('HSET', KEYS[5], idD, cjson.encode(add(ring(redis.call('HGET', KEYS[5], idD), curD), curD, cu)))
redis.call('EXPIRE', KEYS[5], (K + 1) * WD)
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
  gwCuTake2(...args: (string | number)[]): Promise<[number, string, number]>;
  gwCuReconcile(...args: (string | number)[]): Promise<number>;
};

export function createRedisLedger(redis: Redis | Cluster, prefix = 'gw:cu'): CuLedger {
  const keys = [
    `{${prefix}}:m`,
    `{${prefix}}:d`,
    `{${prefix}}:block`,
    `{${prefix}}:pm`,
    `{${prefix}}:pd`,
  ] as const;
  // Defined once per connection: ioredis then sends EVALSHA, the script's text only after a NOSCRIPT.
  const r = redis as (Redis | Cluster) & Partial<LedgerCommands>;
  if (typeof r.gwCuTake2 !== 'function') {
    redis.defineCommand('gwCuTake2', { numberOfKeys: 5, lua: TAKE });
    redis.defineCommand('gwCuReconcile', { numberOfKeys: 1, lua: RECONCILE });
  }
  const cmd = redis as unknown as LedgerCommands;
  return {
    async take({ cu, caps, payer, own, fair = DEFAULT_FAIR_SHARE }) {
      const res = await cmd.gwCuTake2(
        ...keys,
        Math.ceil(cu),
        caps.perMinute,
        caps.perDay,
        payerKey(payer),
        own?.perMinute ?? -1,
        own?.perDay ?? -1,
        fair.contention,
        fair.maxPayers,
      );
      if (res[0] === 1) return { ok: true, usedMinute: Number(res[2]) };
      return { ok: false, budget: res[1] as LedgerBudget, retryAfterSec: Number(res[2]) };
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
