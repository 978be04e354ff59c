/**
 * Lua of the onboardings. Redis runs a script alone, start to end, so each one is a
 * read-decide-write no other instance can interleave with: this is what keeps two instances
 * applying updates to one onboarding from moving a terminal status.
 */
import { lua } from './lua.js';

/**
 * The status rule of rules/status.ts (held to it by STATUS_TRANSITIONS in the conformance suite):
 * a terminal status is final, a repeat changes nothing but may fill a missing externalId. A real
 * change is published, with the record, on the change channel in the same atomic step, so no
 * instance can miss a change that happened; reaching a terminal status shortens the record's life
 * to the retention time.
 *
 * KEYS: 1 record hash, 2 in-process set, 3 finished sorted set.
 * ARGV: 1 token, 2 status, 3 at (ISO 8601), 4 at (ms), 5 history entry (JSON), 6 externalId or '',
 *       7 terminal statuses (space separated), 8 change channel, 9 origin instance id,
 *       10 retention after the outcome in ms or ''.
 * Returns false for an unknown token, else {changed (0 or 1), HGETALL of the record}.
 */
export const APPLY_STATUS = lua(`
local current = redis.call('HGET', KEYS[1], 'status')
if not current then return false end
local function terminal(s)
  for t in string.gmatch(ARGV[7], '%S+') do
    if t == s then return true end
  end
  return false
end
local changed = 0
if terminal(current) or current == ARGV[2] then
  if current == ARGV[2] and ARGV[6] ~= '' and redis.call('HEXISTS', KEYS[1], 'externalId') == 0 then
    redis.call('HSET', KEYS[1], 'externalId', ARGV[6])
  end
else
  changed = 1
  local history = redis.call('HGET', KEYS[1], 'history') or '[]'
  if history == '[]' then
    history = '[' .. ARGV[5] .. ']'
  else
    history = string.sub(history, 1, -2) .. ',' .. ARGV[5] .. ']'
  end
  redis.call('HSET', KEYS[1], 'status', ARGV[2], 'updatedAt', ARGV[3], 'history', history)
  if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'externalId', ARGV[6]) end
  if terminal(ARGV[2]) then
    redis.call('HSET', KEYS[1], 'finishedAt', ARGV[3])
    redis.call('SREM', KEYS[2], ARGV[1])
    redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
    if ARGV[10] ~= '' then
      local keep = tonumber(ARGV[10])
      local ttl = redis.call('PTTL', KEYS[1])
      if ttl < 0 or ttl > keep then redis.call('PEXPIRE', KEYS[1], keep) end
    end
  end
end
local flat = redis.call('HGETALL', KEYS[1])
if changed == 1 then
  local fields = {}
  for i = 1, #flat, 2 do fields[flat[i]] = flat[i + 1] end
  redis.call('PUBLISH', ARGV[8], cjson.encode({ o = ARGV[9], r = fields }))
end
return { changed, flat }
`);

/** KEYS: 1 onboarding hash. ARGV: 1 field of the hash. Returns 0 for an unknown onboarding. */
export const ADD_ACCESS_KEY = lua(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then redis.call('HSET', KEYS[1], ARGV[1], redis.call('HLEN', KEYS[1])) end
return 1
`);
