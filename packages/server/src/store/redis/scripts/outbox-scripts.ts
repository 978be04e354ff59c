/** Lua of the notification outbox (key names: ../outbox.ts). */
import type { OutboxState } from '../../backend-state.js';
import { lua } from './lua.js';

/** Shared Lua: places an entry in the state, due and settled indexes. KEYS: 1 entry, 2 due, 3 settled, then the state sets. */
const OUTBOX_INDEX = `
local function index(member, state, created, next_ms, changed)
  for i = 4, 6 do redis.call('ZREM', KEYS[i], member) end
  redis.call('ZADD', KEYS[3 + ARGV[2]], created, member)
  if state == 'pending' then
    redis.call('ZADD', KEYS[2], next_ms, member)
    redis.call('ZREM', KEYS[3], member)
  else
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZADD', KEYS[3], changed, member)
  end
end
`;

/** The state sets in the order the scripts index them (ARGV 2 is a 1-based position here). */
export const OUTBOX_STATES: OutboxState[] = ['pending', 'delivered', 'failed'];

/**
 * Inserts if absent, numbering the entry so entries of one millisecond keep their queue order.
 * KEYS: 1 entry, 2 due, 3 settled, 4-6 state sets, 7 the sequence counter.
 * ARGV: 1 state, 2 its position, 3 created ms, 4 next try ms, 5 last change ms, 6 base, 7 try, 8 id.
 */
export const ENQUEUE = lua(`${OUTBOX_INDEX}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local member = string.format('%015.0f', redis.call('INCR', KEYS[7])) .. ':' .. ARGV[8]
redis.call('HSET', KEYS[1], 'base', ARGV[6], 'try', ARGV[7], 'state', ARGV[1], 'createdMs', ARGV[3], 'member', member)
index(member, ARGV[1], ARGV[3], ARGV[4], ARGV[5])
return 1
`);

/** KEYS as ENQUEUE without the counter. ARGV: 1 state, 2 its position, 3 next try ms, 4 last change ms or '' (then creation), 5 try. */
export const UPDATE_OUTBOX = lua(`${OUTBOX_INDEX}
local cur = redis.call('HMGET', KEYS[1], 'member', 'createdMs')
if not cur[1] then return 0 end
local changed = ARGV[4]
if changed == '' then changed = cur[2] end
redis.call('HSET', KEYS[1], 'try', ARGV[5], 'state', ARGV[1])
index(cur[1], ARGV[1], cur[2], ARGV[3], changed)
return 1
`);

/** Deletes a settled entry still older than the cutoff. KEYS as UPDATE_OUTBOX. ARGV: 1 member, 2 cutoff ms. */
export const PURGE_OUTBOX = lua(`
local member = ARGV[1]
local changed = redis.call('ZSCORE', KEYS[3], member)
if not changed or tonumber(changed) >= tonumber(ARGV[2]) then return 0 end
local cur = redis.call('HMGET', KEYS[1], 'member', 'state')
if cur[1] == member and cur[2] == 'pending' then return 0 end
for i = 2, 6 do redis.call('ZREM', KEYS[i], member) end
if cur[1] ~= member then return 0 end
return redis.call('DEL', KEYS[1])
`);

/** Replaces an entry's body in its `base` (which holds strings only), nothing else. KEYS: 1 entry. ARGV: 1 body. Returns 0 for an unknown entry. */
export const REWRITE_OUTBOX_BODY = lua(`
local base = redis.call('HGET', KEYS[1], 'base')
if not base then return 0 end
local b = cjson.decode(base)
b.body = ARGV[1]
redis.call('HSET', KEYS[1], 'base', cjson.encode(b))
return 1
`);
