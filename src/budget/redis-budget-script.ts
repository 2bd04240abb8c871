// The one Lua script of the Redis budget store (redis-budget-store.ts). Redis runs a script
// atomically, so pruning, counting and taking a slot are one step for every host; all times are
// Redis's own clock (TIME), so hosts with skewed clocks still share one window.
//
// KEYS[1]: the organization's log, a sorted set. Members `o:<id>` are open slots (score: when the
//          slot is abandoned, its request's deadline plus a margin), `c:<id>` closed ones (score:
//          when the response ended). A slot counts until score + window (an open one that has not
//          expired counts as ending now), then ZREMRANGEBYSCORE drops it; PEXPIRE drops the whole
//          key once its newest slot stops counting.
// KEYS[2]: the 429 block: present while it holds, expiring with it (PX).
// ARGV: op (reserve | release | block | read), windowMs, marginMs, limit, slotTtlMs, slot id, blockMs.
// Returns { taken (0/1), waitMs, blockLeftMs, nowMs, { member, score, ... } }.
export const BUDGET_SCRIPT = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local op = ARGV[1]
local window = tonumber(ARGV[2])
local margin = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window - margin)
local function blockLeft()
  local p = redis.call('PTTL', KEYS[2])
  if p < 0 then return 0 end
  return p
end
local taken = 0
local wait = 0
if op == 'reserve' then
  local limit = tonumber(ARGV[4])
  local count = redis.call('ZCARD', KEYS[1])
  local blocked = blockLeft()
  if blocked == 0 and count < limit then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), 'o:' .. ARGV[6])
    taken = 1
  else
    local freeAt = now
    if count >= limit then
      local all = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
      local frees = {}
      for i = 1, #all, 2 do
        local s = tonumber(all[i + 1])
        if string.sub(all[i], 1, 2) == 'o:' and s > now then s = now end
        frees[#frees + 1] = s + window
      end
      table.sort(frees)
      local k = count - limit + 1
      if k > #frees then k = #frees end
      freeAt = frees[k]
    end
    wait = math.max(blocked, freeAt - now) + margin
  end
elseif op == 'release' then
  local s = redis.call('ZSCORE', KEYS[1], 'o:' .. ARGV[6])
  if s then
    local ended = math.min(now, tonumber(s))
    redis.call('ZREM', KEYS[1], 'o:' .. ARGV[6])
    redis.call('ZADD', KEYS[1], ended, 'c:' .. ARGV[6])
  end
elseif op == 'block' then
  local ms = math.min(tonumber(ARGV[7]), window)
  if ms > blockLeft() then redis.call('SET', KEYS[2], '1', 'PX', ms) end
end
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] then
  redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(newest[2]) + window + margin - now))
end
return { taken, wait, blockLeft(), now, redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES') }
`;
