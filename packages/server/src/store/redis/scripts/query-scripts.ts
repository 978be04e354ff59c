/** Lua of the standalone query requests (key names: ../query-requests.ts). */
import { lua } from './lua.js';

/**
 * Inserts if absent. KEYS: 1 request, 2 key pointer, 3 due, 4 outcomes, 5 created.
 * ARGV: 1 body, 2 status, 3 outcome or '', 4 next check ms or '', 5 completed ms or '', 6 id, 7 created ms, 8 '1' when it has a key.
 */
export const INSERT_QUERY = lua(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'body', ARGV[1], 'status', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'outcome', ARGV[3]) end
if ARGV[8] == '1' then redis.call('SET', KEYS[2], ARGV[6]) end
redis.call('ZADD', KEYS[5], ARGV[7], ARGV[6])
if ARGV[2] == 'pending' and ARGV[4] ~= '' then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[6]) end
if ARGV[3] ~= '' and ARGV[5] ~= '' then redis.call('ZADD', KEYS[4], ARGV[5], ARGV[6]) end
return 1
`);

/**
 * Writes a pending request's next state (ended or rescheduled) only while it is still pending,
 * which is the condition rules/query-requests.ts decided on. KEYS: 1 request, 2 due, 3 outcomes.
 * ARGV: 1 body, 2 status, 3 outcome or '', 4 next check ms or '', 5 completed ms or '', 6 id.
 */
export const WRITE_PENDING_QUERY = lua(`
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'body', ARGV[1], 'status', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'outcome', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[6]) else redis.call('ZREM', KEYS[2], ARGV[6]) end
if ARGV[3] ~= '' and ARGV[5] ~= '' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6]) end
return 1
`);

/** Erases an outcome held since before the cutoff. KEYS: 1 request, 2 outcomes. ARGV: 1 id, 2 cutoff ms, 3 body without it. */
export const ERASE_QUERY_OUTCOME = lua(`
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not score or tonumber(score) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('HEXISTS', KEYS[1], 'outcome') == 0 then return 0 end
redis.call('HDEL', KEYS[1], 'outcome')
redis.call('HSET', KEYS[1], 'body', ARGV[3])
return 1
`);

/** Deletes a request created before the cutoff. KEYS: 1 request, 2 key pointer, 3 due, 4 outcomes, 5 created. ARGV: 1 id, 2 cutoff ms. */
export const DELETE_QUERY = lua(`
local score = redis.call('ZSCORE', KEYS[5], ARGV[1])
if not score or tonumber(score) >= tonumber(ARGV[2]) then return 0 end
for i = 3, 5 do redis.call('ZREM', KEYS[i], ARGV[1]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return redis.call('DEL', KEYS[1])
`);
