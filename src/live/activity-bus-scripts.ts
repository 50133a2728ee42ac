/** The Lua scripts of the Redis activity bus (src/live/activity-bus.ts), each one atomic step. */

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
export const PUBLISH = `${TRIM}
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
export const PUBLISH_WEBHOOK = `${TRIM}
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
export const READ_CLAIMS = `
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
export const COMMIT_CLAIM = `
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
export const RENEW_CLAIMS = `
local gone = {}
for i = 3, #ARGV do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if (not s) or tonumber(s) < tonumber(ARGV[1]) then table.insert(gone, ARGV[i])
  else redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[i]) end
end
return gone`;
