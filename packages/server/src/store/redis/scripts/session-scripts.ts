/**
 * Lua of the sessions, their secrets and hand-off keys (key names: ../sessions.ts). The hand-off
 * key rule is rules/sessions.ts `mayPointHandoffKey`; compare-and-set is `versionMatches`.
 */
import { lua } from './lua.js';

/** Shared Lua: a member's index entries and secrets, by the key names of the module doc. */
const SESSION_KEYS = `
local P = ARGV[1]
local function session_key(id) return P .. 'session:' .. id end
local function secrets_key(id) return P .. 'session-secrets:' .. id end
local function secret_key(hash) return P .. 'secret:' .. hash end
local function status_key(status) return P .. 'sessions:status:' .. status end
local function reference_key(reference) return P .. 'sessions:reference:' .. reference end
local function handoff_key(hash) return P .. 'handoff:' .. hash end
local function handoffs_key(id) return P .. 'session-handoff:' .. id end
local function listing_member(created_ms, id) return string.format('%015.0f', tonumber(created_ms)) .. ':' .. id end
local function revoke_access(id)
  local suffix = ':' .. id
  for _, h in ipairs(redis.call('SMEMBERS', secrets_key(id))) do
    local owner = redis.call('GET', secret_key(h))
    if owner and string.sub(owner, -#suffix) == suffix then redis.call('DEL', secret_key(h)) end
  end
  for _, h in ipairs(redis.call('SMEMBERS', handoffs_key(id))) do
    if redis.call('HGET', handoff_key(h), 'session') == id then redis.call('DEL', handoff_key(h)) end
  end
  redis.call('DEL', secrets_key(id), handoffs_key(id))
end
local function expire_secrets(id, at)
  redis.call('PEXPIREAT', secrets_key(id), at)
  for _, h in ipairs(redis.call('SMEMBERS', secrets_key(id))) do redis.call('PEXPIREAT', secret_key(h), at) end
  redis.call('PEXPIREAT', handoffs_key(id), at)
  for _, h in ipairs(redis.call('SMEMBERS', handoffs_key(id))) do
    if redis.call('HGET', handoff_key(h), 'session') == id then redis.call('PEXPIREAT', handoff_key(h), at) end
  end
end
-- A reference's index is cleaned only when that reference is listed or its sessions are purged, so
-- it expires no sooner than its latest session would: one left behind by a missed purge goes too.
-- (PTTL and TIME rather than PEXPIRETIME or PEXPIREAT GT, which need Redis 7.)
local function outlive(key, at)
  local t = redis.call('TIME')
  local left = tonumber(at) - (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
  local ttl = redis.call('PTTL', key)
  -- A session already past its key's expiry must not take the others' entries with it.
  if left > 0 and (ttl == -1 or ttl < left) then redis.call('PEXPIREAT', key, at) end
end
local function add_secret(id, kind, hash, at)
  if redis.call('SET', secret_key(hash), kind .. ':' .. id, 'NX', 'PXAT', at) then
    redis.call('SADD', secrets_key(id), hash)
    redis.call('PEXPIREAT', secrets_key(id), at)
  end
end
`;

/**
 * ARGV: 1 prefix, 2 id, 3 body (JSON, version 1), 4 reference, 5 status, 6 created ms,
 * 7 expires ms, 8 ended ms or '', 9 key expiry (ms since the epoch), 10 client secret hash,
 * 11 capture token hash. Returns 0 when the session exists, else 1.
 */
export const CREATE_SESSION = lua(`${SESSION_KEYS}
local id = ARGV[2]
local key = session_key(id)
if redis.call('EXISTS', key) == 1 then return 0 end
local member = string.format('%015.0f', redis.call('INCR', P .. 'sessions:seq')) .. ':' .. id
redis.call('HSET', key, 'body', ARGV[3], 'version', 1, 'member', member, 'reference', ARGV[4], 'status', ARGV[5], 'keyExpiresAt', ARGV[9])
redis.call('PEXPIREAT', key, ARGV[9])
redis.call('ZADD', reference_key(ARGV[4]), ARGV[6], member)
outlive(reference_key(ARGV[4]), ARGV[9])
redis.call('ZADD', status_key(ARGV[5]), ARGV[7], member)
redis.call('ZADD', P .. 'sessions:created', ARGV[6], member)
redis.call('ZADD', P .. 'sessions:listing', 0, listing_member(ARGV[6], id))
if ARGV[8] ~= '' then redis.call('ZADD', P .. 'sessions:ended', ARGV[8], member) end
add_secret(id, 'client', ARGV[10], ARGV[9])
add_secret(id, 'capture', ARGV[11], ARGV[9])
return 1
`);

/** ARGV: 1 prefix, 2 id, 3 kind, 4 hash. Returns 0 for an unknown session. */
export const ADD_SECRET = lua(`${SESSION_KEYS}
local at = redis.call('HGET', session_key(ARGV[2]), 'keyExpiresAt')
if not at then return 0 end
add_secret(ARGV[2], ARGV[3], ARGV[4], at)
return 1
`);

/**
 * Compare-and-set: writes only over `expectedVersion`, and moves the session's index entries in
 * the same step, so no reader sees it listed under a status it no longer has.
 * ARGV: 1 prefix, 2 id, 3 expected version, 4 body (JSON, next version), 5 reference, 6 status,
 * 7 created ms, 8 expires ms, 9 ended ms or '', 10 key expiry, 11 the writing instance's id.
 * Returns 1 when written; the change is then published on the session channel.
 */
export const REPLACE_SESSION = lua(`${SESSION_KEYS}
local id = ARGV[2]
local key = session_key(id)
local cur = redis.call('HMGET', key, 'version', 'member', 'reference', 'status')
if not cur[1] or cur[1] ~= ARGV[3] then return 0 end
local member = cur[2]
redis.call('ZREM', reference_key(cur[3]), member)
redis.call('ZREM', status_key(cur[4]), member)
redis.call('ZADD', reference_key(ARGV[5]), ARGV[7], member)
outlive(reference_key(ARGV[5]), ARGV[10])
redis.call('ZADD', status_key(ARGV[6]), ARGV[8], member)
redis.call('ZADD', P .. 'sessions:created', ARGV[7], member)
if ARGV[9] ~= '' then redis.call('ZADD', P .. 'sessions:ended', ARGV[9], member) else redis.call('ZREM', P .. 'sessions:ended', member) end
redis.call('HSET', key, 'body', ARGV[4], 'version', tonumber(ARGV[3]) + 1, 'reference', ARGV[5], 'status', ARGV[6], 'keyExpiresAt', ARGV[10])
redis.call('PEXPIREAT', key, ARGV[10])
expire_secrets(id, ARGV[10])
redis.call('PUBLISH', P .. 'session-changes', ARGV[11] .. ' ' .. id)
return 1
`);

/**
 * Points a hand-off key at a session unless another session's live key has the hash.
 * ARGV: 1 prefix, 2 hash, 3 session id, 4 live until ms, 5 now ms. Returns 1 when written,
 * 0 when held by another or the session is unknown.
 */
export const PUT_HANDOFF_KEY = lua(`${SESSION_KEYS}
local id = ARGV[3]
local at = redis.call('HGET', session_key(id), 'keyExpiresAt')
if not at then return 0 end
local key = handoff_key(ARGV[2])
local held = redis.call('HMGET', key, 'session', 'liveUntil')
if held[1] and held[1] ~= id and tonumber(held[2]) > tonumber(ARGV[5]) then return 0 end
redis.call('HSET', key, 'session', id, 'liveUntil', ARGV[4])
redis.call('PEXPIREAT', key, at)
redis.call('SADD', handoffs_key(id), ARGV[2])
redis.call('PEXPIREAT', handoffs_key(id), at)
return 1
`);

/**
 * The body of the session a hand-off key points at, or nil, in one round trip that reads a
 * session key whether or not the hand-off key exists (an absent one reads `session:`, which no
 * session has). ARGV: 1 prefix, 2 hash.
 */
export const FIND_HANDOFF_SESSION = lua(`${SESSION_KEYS}
local id = redis.call('HGET', handoff_key(ARGV[2]), 'session') or ''
return redis.call('HGET', session_key(id), 'body')
`);

/**
 * Deletes one session with its secrets and index entries if it still meets a cutoff (checked
 * here, so a session changed since it was listed is judged as it is now).
 * ARGV: 1 prefix, 2 member, 3 ended-before ms, 4 created-before ms. Returns 1 when a session went.
 */
export const PURGE_SESSION = lua(`${SESSION_KEYS}
local member = ARGV[2]
local id = string.sub(member, string.find(member, ':', 1, true) + 1)
local created = redis.call('ZSCORE', P .. 'sessions:created', member)
local ended = redis.call('ZSCORE', P .. 'sessions:ended', member)
local due = (created and tonumber(created) < tonumber(ARGV[4])) or (ended and tonumber(ended) < tonumber(ARGV[3]))
if not due then return 0 end
redis.call('ZREM', P .. 'sessions:created', member)
redis.call('ZREM', P .. 'sessions:ended', member)
if created then redis.call('ZREM', P .. 'sessions:listing', listing_member(created, id)) end
local key = session_key(id)
local cur = redis.call('HMGET', key, 'member', 'reference', 'status')
if cur[1] ~= member then return 0 end
redis.call('ZREM', reference_key(cur[2]), member)
redis.call('ZREM', status_key(cur[3]), member)
revoke_access(id)
redis.call('DEL', key)
return 1
`);

/** Deletes a session's secrets and the hand-off keys pointing at it; the session stays. ARGV: 1 prefix, 2 id. */
export const REVOKE_SESSION_ACCESS = lua(`${SESSION_KEYS}
revoke_access(ARGV[2])
return 1
`);

/**
 * Puts every session of `sessions:created` in the listing index (sessions written before the
 * index existed), once: `sessions:listing-ready` then says it is done. ARGV: 1 prefix.
 */
export const FILL_LISTING = lua(`${SESSION_KEYS}
if redis.call('EXISTS', P .. 'sessions:listing-ready') == 1 then return 0 end
local all = redis.call('ZRANGE', P .. 'sessions:created', 0, -1, 'WITHSCORES')
for i = 1, #all, 2 do
  local m = all[i]
  redis.call('ZADD', P .. 'sessions:listing', 0, listing_member(all[i + 1], string.sub(m, string.find(m, ':', 1, true) + 1)))
end
redis.call('SET', P .. 'sessions:listing-ready', '1')
return 1
`);
