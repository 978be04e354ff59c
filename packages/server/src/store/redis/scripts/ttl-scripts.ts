/**
 * Lua of what lives on Redis's own clock (a key's TTL is its expiry): leases, rate windows, places,
 * idempotency keys and attested hashes, each the rule of rules/leases.ts, rules/rate-window.ts,
 * rules/places.ts, rules/idempotency.ts or rules/attested-hashes.ts, held to it by LEASE_CASES,
 * RATE_CASES, PLACE_CASES, IDEMPOTENCY_CASES and ATTESTED_HASH_CASES in the conformance suite.
 */
import { lua } from './lua.js';

/** KEYS: 1 lease. ARGV: 1 owner, 2 ttl ms. Free, lapsed (Redis expired the key) or the owner's own: taken. */
export const ACQUIRE_LEASE = lua(`
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/**
 * Renews every lease given that the owner holds, each checked and extended in the same atomic
 * step, so none held by another owner is ever extended.
 * KEYS: the leases. ARGV: 1 owner, 2 ttl ms. Returns one flag (1 renewed, 0 not) per key, in order.
 */
export const RENEW_LEASES = lua(`
local renewed = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
`);

/** KEYS: 1 lease. ARGV: 1 owner. */
export const RELEASE_LEASE = lua(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`);

/**
 * Fixed window counter: the first counted request starts the window (the key's TTL); a request
 * over the limit is refused without being counted.
 * KEYS: 1 counter. ARGV: 1 limit, 2 window ms. Returns {allowed (0 or 1), count, ms left}.
 */
export const CONSUME_RATE = lua(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local left = redis.call('PTTL', KEYS[1])
if left <= 0 then
  count = 0
  left = tonumber(ARGV[2])
end
if count >= tonumber(ARGV[1]) then return { 0, count, left } end
if count == 0 then
  redis.call('SET', KEYS[1], 1, 'PX', left)
  count = 1
else
  count = redis.call('INCR', KEYS[1])
end
return { 1, count, left }
`);

/** Redis's clock in ms, and the key's places lapsed by then dropped (a place lapses at its very millisecond). */
const LIVE_PLACES = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
`;

/**
 * A place for the holder unless `limit` others hold theirs; the holder's own is extended. The key
 * lives as long as its last place.
 * KEYS: 1 the places. ARGV: 1 holder, 2 limit, 3 ttl ms. Returns 1 taken, 0 refused.
 */
export const TAKE_PLACE = lua(`${LIVE_PLACES}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1
`);

/** KEYS: 1 the places. ARGV: 1 holder. Returns 1 when the holder had a live place. */
export const LEAVE_PLACE = lua(`${LIVE_PLACES}
return redis.call('ZREM', KEYS[1], ARGV[1])
`);

/**
 * KEYS: 1 the key. ARGV: 1 fingerprint, 2 reservation ttl ms.
 * Returns {'reserved'}, {'pending', fingerprint} or {'done', fingerprint, result}.
 */
export const RESERVE_IDEMPOTENCY = lua(`
local held = redis.call('HMGET', KEYS[1], 'fingerprint', 'result')
if held[1] then
  if held[2] then return { 'done', held[1], held[2] } end
  return { 'pending', held[1] }
end
redis.call('HSET', KEYS[1], 'fingerprint', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return { 'reserved' }
`);

/** Only a reservation has the fingerprint a replay is compared with; a first result is final. KEYS: 1 the key. ARGV: 1 result, 2 ttl ms. */
export const COMPLETE_IDEMPOTENCY = lua(`
if redis.call('HEXISTS', KEYS[1], 'fingerprint') == 0 or redis.call('HEXISTS', KEYS[1], 'result') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'result', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/** A result, once recorded, is what a retry must get: a late release does not free it. KEYS: 1 the key. */
export const RELEASE_IDEMPOTENCY = lua(`
if redis.call('HEXISTS', KEYS[1], 'result') == 1 then return 0 end
return redis.call('DEL', KEYS[1])
`);

/**
 * `attestHash` for each key in turn: a live key keeps its first nonce and answers it; an absent
 * (or lapsed) one takes this entry's nonce for `keep` ms and answers ''.
 * KEYS: the hashes' keys. ARGV: 1 keep ms, then one nonce per key. Returns one nonce or '' per key.
 */
export const ATTEST_HASHES = lua(`
local earlier = {}
for i = 1, #KEYS do
  local held = redis.call('GET', KEYS[i])
  if held then
    earlier[i] = held
  else
    redis.call('SET', KEYS[i], ARGV[i + 1], 'PX', ARGV[1])
    earlier[i] = ''
  end
end
return earlier
`);
