/**
 * The backend's state (sessions, idempotency keys, the notification outbox) in Redis, for
 * `RedisStore`, which hands over its client, its prefix and its command runner (the one that turns
 * "no answer" into StoreUnavailableError).
 *
 * Keys, all under the store's prefix:
 * - `session:<id>`: hash of `body` (the record as JSON), `version` (what compare-and-set checks)
 *   and `member` (`<seq>:<id>`, its entry in the indexes below; the sequence number orders
 *   sessions of the same millisecond by creation, as the other stores do). Expires
 *   `SESSION_GRACE_MS` after the session's `expiresAt`, so an abandoned one leaves by itself.
 * - `session-secrets:<id>`: set of the hashes issued to a session (what a purge deletes with it);
 *   `secret:<hash>`: `<kind>:<session id>`, set only if absent, so a reused hash keeps its first
 *   owner. Both expire with the session.
 * - `handoff:<hash>`: hash of `session` and `liveUntil` (ms), a hand-off link's token or code
 *   pointing at its session; `session-handoff:<id>`: set of a session's hand-off hashes (what a
 *   purge deletes with it). Both expire with the session.
 * - channel `session-changes`: `<instance id> <session id>` for every session written, published
 *   by the script that writes it, so event streams on every instance hear of it.
 * - sorted sets of members: `sessions:reference:<reference>` and `sessions:created` by creation
 *   time (ms), `sessions:status:<status>` by expiry, `sessions:ended` by end time; counter
 *   `sessions:seq`. A member whose session Redis expired is dropped by the next read that meets it
 *   (lists) or by the purge (created, ended). A reference's set expires with its latest session,
 *   since one reference may never be listed again.
 * - `idempotency:<key>`: hash of `fingerprint` and, once completed, `result`; its TTL is the
 *   reservation's (min(ttl, pending ttl)) and then the result's.
 * - `outbox:<id>`: hash of `base` (what never changes, JSON), `try` (what each try sets, JSON),
 *   `state`, `createdMs`, `member`; sorted sets `outbox:state:<state>` by creation time, `outbox:due`
 *   (pending only) by next try, `outbox:settled` (delivered, failed) by last change; counter
 *   `outbox:seq`. No TTL: a pending notification must not vanish; the purge removes settled ones.
 *
 * The scripts that touch one record's indexes derive those keys from the prefix (a session's
 * status and reference are only known inside the script), so the store needs a single Redis node,
 * as the rest of the Redis store does.
 */
import { createHash } from 'node:crypto';
import type { createClient } from 'redis';
import type { SessionStatus } from '@onboarding-kit/contract';
import { applyOutboxUpdate, copySession, outboxChangedMs, outboxTry } from './rules/index.js';
import type {
  BackendPurgeCutoffs, BackendState, IdempotencyState, OutboxEntry, OutboxState, OutboxUpdate, SessionChangeListener, SessionRecord, SessionSecretKind,
} from './backend-state.js';
import { msOf } from './rules/iso-time.js';
import { SessionFeed } from './shared/session-feed.js';
import type { Clock, OnboardingRecord } from './store.js';

type Client = ReturnType<typeof createClient>;

export interface RedisScript {
  readonly sha: string;
  readonly source: string;
}

/** What `RedisStore` lends: its connection, its prefix, and how it runs commands and scripts. */
export interface RedisBackendContext {
  client: Client;
  prefix: string;
  op<T>(fn: () => Promise<T>): Promise<T>;
  script(script: RedisScript, keys: string[], args: string[]): Promise<unknown>;
  /** This instance, as its messages on the session channel name it. */
  instanceId: string;
  /** The store's clock (hand-off keys' liveness). */
  now: Clock;
}

/** How long a session outlives its expiry in Redis: the routes still answer `expired` for it, and the purge normally comes first. */
export const SESSION_GRACE_MS = 96 * 3600_000;

/** Onboarding hash fields of the access keys added by replays; the value orders them (HLEN at insertion only grows). */
const MORE_KEY_FIELD = 'moreAccessKeyHash:';

/** Members read per round trip when a list must skip some (lapsed sessions, entries not failing). */
const PAGE = 200;

const lua = (source: string): RedisScript => ({ source, sha: createHash('sha1').update(source).digest('hex') });

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
const CREATE_SESSION = lua(`${SESSION_KEYS}
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
if ARGV[8] ~= '' then redis.call('ZADD', P .. 'sessions:ended', ARGV[8], member) end
add_secret(id, 'client', ARGV[10], ARGV[9])
add_secret(id, 'capture', ARGV[11], ARGV[9])
return 1
`);

/** ARGV: 1 prefix, 2 id, 3 kind, 4 hash. Returns 0 for an unknown session. */
const ADD_SECRET = lua(`${SESSION_KEYS}
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
const REPLACE_SESSION = lua(`${SESSION_KEYS}
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
const PUT_HANDOFF_KEY = lua(`${SESSION_KEYS}
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
 * Deletes one session with its secrets and index entries if it still meets a cutoff (checked
 * here, so a session changed since it was listed is judged as it is now).
 * ARGV: 1 prefix, 2 member, 3 ended-before ms, 4 created-before ms. Returns 1 when a session went.
 */
const PURGE_SESSION = lua(`${SESSION_KEYS}
local member = ARGV[2]
local id = string.sub(member, string.find(member, ':', 1, true) + 1)
local created = redis.call('ZSCORE', P .. 'sessions:created', member)
local ended = redis.call('ZSCORE', P .. 'sessions:ended', member)
local due = (created and tonumber(created) < tonumber(ARGV[4])) or (ended and tonumber(ended) < tonumber(ARGV[3]))
if not due then return 0 end
redis.call('ZREM', P .. 'sessions:created', member)
redis.call('ZREM', P .. 'sessions:ended', member)
local key = session_key(id)
local cur = redis.call('HMGET', key, 'member', 'reference', 'status')
if cur[1] ~= member then return 0 end
redis.call('ZREM', reference_key(cur[2]), member)
redis.call('ZREM', status_key(cur[3]), member)
local suffix = ':' .. id
for _, h in ipairs(redis.call('SMEMBERS', secrets_key(id))) do
  local owner = redis.call('GET', secret_key(h))
  if owner and string.sub(owner, -#suffix) == suffix then redis.call('DEL', secret_key(h)) end
end
for _, h in ipairs(redis.call('SMEMBERS', handoffs_key(id))) do
  if redis.call('HGET', handoff_key(h), 'session') == id then redis.call('DEL', handoff_key(h)) end
end
redis.call('DEL', secrets_key(id), handoffs_key(id), key)
return 1
`);

/**
 * KEYS: 1 the key. ARGV: 1 fingerprint, 2 reservation ttl ms.
 * Returns {'reserved'}, {'pending', fingerprint} or {'done', fingerprint, result}.
 */
const RESERVE_IDEMPOTENCY = lua(`
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
const COMPLETE_IDEMPOTENCY = lua(`
if redis.call('HEXISTS', KEYS[1], 'fingerprint') == 0 or redis.call('HEXISTS', KEYS[1], 'result') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'result', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/** A result, once recorded, is what a retry must get: a late release does not free it. KEYS: 1 the key. */
const RELEASE_IDEMPOTENCY = lua(`
if redis.call('HEXISTS', KEYS[1], 'result') == 1 then return 0 end
return redis.call('DEL', KEYS[1])
`);

/** KEYS: 1 onboarding hash. ARGV: 1 field of the hash. Returns 0 for an unknown onboarding. */
const ADD_ACCESS_KEY = lua(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then redis.call('HSET', KEYS[1], ARGV[1], redis.call('HLEN', KEYS[1])) end
return 1
`);

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
const OUTBOX_STATES: OutboxState[] = ['pending', 'delivered', 'failed'];

/**
 * Inserts if absent, numbering the entry so entries of one millisecond keep their queue order.
 * KEYS: 1 entry, 2 due, 3 settled, 4-6 state sets, 7 the sequence counter.
 * ARGV: 1 state, 2 its position, 3 created ms, 4 next try ms, 5 last change ms, 6 base, 7 try, 8 id.
 */
const ENQUEUE = lua(`${OUTBOX_INDEX}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local member = string.format('%015.0f', redis.call('INCR', KEYS[7])) .. ':' .. ARGV[8]
redis.call('HSET', KEYS[1], 'base', ARGV[6], 'try', ARGV[7], 'state', ARGV[1], 'createdMs', ARGV[3], 'member', member)
index(member, ARGV[1], ARGV[3], ARGV[4], ARGV[5])
return 1
`);

/** KEYS as ENQUEUE without the counter. ARGV: 1 state, 2 its position, 3 next try ms, 4 last change ms or '' (then creation), 5 try. */
const UPDATE_OUTBOX = lua(`${OUTBOX_INDEX}
local cur = redis.call('HMGET', KEYS[1], 'member', 'createdMs')
if not cur[1] then return 0 end
local changed = ARGV[4]
if changed == '' then changed = cur[2] end
redis.call('HSET', KEYS[1], 'try', ARGV[5], 'state', ARGV[1])
index(cur[1], ARGV[1], cur[2], ARGV[3], changed)
return 1
`);

/** Deletes a settled entry still older than the cutoff. KEYS as UPDATE_OUTBOX. ARGV: 1 member, 2 cutoff ms. */
const PURGE_OUTBOX = lua(`
local member = ARGV[1]
local changed = redis.call('ZSCORE', KEYS[3], member)
if not changed or tonumber(changed) >= tonumber(ARGV[2]) then return 0 end
local cur = redis.call('HMGET', KEYS[1], 'member', 'state')
if cur[1] == member and cur[2] == 'pending' then return 0 end
for i = 2, 6 do redis.call('ZREM', KEYS[i], member) end
if cur[1] ~= member then return 0 end
return redis.call('DEL', KEYS[1])
`);

const idOf = (member: string): string => member.slice(member.indexOf(':') + 1);
const optionalMs = (iso: string | undefined): string => (iso === undefined ? '' : String(msOf(iso)));

/** The fields an onboarding hash gets for a session id and added access keys (beside those redis-store.ts writes). */
export function onboardingExtraFields(r: Pick<OnboardingRecord, 'sessionId' | 'moreAccessKeyHashes'>): Record<string, string> {
  const fields: Record<string, string> = {};
  if (r.sessionId !== undefined) fields.sessionId = r.sessionId;
  // Values 1..n sit below any HLEN a later addition gets, so the order of issue holds.
  (r.moreAccessKeyHashes ?? []).forEach((h, i) => (fields[MORE_KEY_FIELD + h] = String(i + 1)));
  return fields;
}

/** The session id and added access keys of an onboarding hash, as `OnboardingRecord` holds them. */
export function onboardingExtrasFrom(h: Record<string, string>): Pick<OnboardingRecord, 'sessionId' | 'moreAccessKeyHashes'> {
  const more = Object.entries(h)
    .filter(([field]) => field.startsWith(MORE_KEY_FIELD))
    .sort(([, x], [, y]) => Number(x) - Number(y))
    .map(([field]) => field.slice(MORE_KEY_FIELD.length));
  return {
    ...(h.sessionId !== undefined && { sessionId: h.sessionId }),
    ...(more.length > 0 && { moreAccessKeyHashes: more }),
  };
}

export class RedisBackendState implements BackendState {
  /** Listeners of sessions on this instance; RedisStore feeds it what the session channel brings. */
  readonly sessionFeed = new SessionFeed();

  constructor(
    private readonly ctx: RedisBackendContext,
    /** The key of an onboarding's hash, as redis-store.ts names it. */
    private readonly onboardingKey: (token: string) => string,
  ) {}

  private k(name: string): string {
    return `${this.ctx.prefix}${name}`;
  }

  private run(script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    return this.ctx.op(() => this.ctx.script(script, keys, args));
  }

  async createSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<void> {
    const s = copySession({ ...record, version: 1 });
    const created = await this.run(CREATE_SESSION, [], [
      this.ctx.prefix, s.id, JSON.stringify(s), s.reference, s.status, String(msOf(s.createdAt)), String(msOf(s.expiresAt)),
      optionalMs(s.endedAt), String(msOf(s.expiresAt) + SESSION_GRACE_MS), secrets.client, secrets.capture,
    ]);
    if (Number(created) !== 1) throw new Error(`Session ${s.id} exists already.`);
  }

  async getSession(id: string): Promise<SessionRecord | null> {
    const body = await this.ctx.op(() => this.ctx.client.hGet(this.k(`session:${id}`), 'body'));
    return body ? (JSON.parse(body) as SessionRecord) : null;
  }

  async findSessionBySecret(kind: SessionSecretKind, secretHash: string): Promise<SessionRecord | null> {
    const owner = await this.ctx.op(() => this.ctx.client.get(this.k(`secret:${secretHash}`)));
    if (!owner) return null;
    const sep = owner.indexOf(':');
    return owner.slice(0, sep) === kind ? this.getSession(owner.slice(sep + 1)) : null;
  }

  async addSessionSecret(id: string, kind: SessionSecretKind, secretHash: string): Promise<boolean> {
    return Number(await this.run(ADD_SECRET, [], [this.ctx.prefix, id, kind, secretHash])) === 1;
  }

  async replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean> {
    const s = copySession({ ...next, version: expectedVersion + 1 });
    const written = await this.run(REPLACE_SESSION, [], [
      this.ctx.prefix, s.id, String(expectedVersion), JSON.stringify(s), s.reference, s.status, String(msOf(s.createdAt)),
      String(msOf(s.expiresAt)), optionalMs(s.endedAt), String(msOf(s.expiresAt) + SESSION_GRACE_MS), this.ctx.instanceId,
    ]);
    // Listeners here hear at once; this instance skips its own message when the channel brings it back.
    if (Number(written) === 1) this.sessionFeed.emit(s.id);
    return Number(written) === 1;
  }

  subscribeSession(id: string, listener: SessionChangeListener): () => void {
    return this.sessionFeed.subscribe(id, listener);
  }

  /** A message of the session channel: `<instance id> <session id>`. */
  onSessionMessage(message: string): void {
    const sep = message.indexOf(' ');
    if (sep > 0 && message.slice(0, sep) !== this.ctx.instanceId) this.sessionFeed.emit(message.slice(sep + 1));
  }

  async putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
    return Number(await this.run(PUT_HANDOFF_KEY, [], [this.ctx.prefix, hash, sessionId, String(liveUntilMs), String(this.ctx.now())])) === 1;
  }

  async findHandoffKey(hash: string): Promise<string | null> {
    return (await this.ctx.op(() => this.ctx.client.hGet(this.k(`handoff:${hash}`), 'session'))) ?? null;
  }

  async listSessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
    return this.sessionsOf(this.k(`sessions:reference:${reference}`), '+inf', '-inf', true, limit);
  }

  async listSessionsByStatus(status: SessionStatus, { limit, expiresBefore }: { limit: number; expiresBefore?: Date }): Promise<SessionRecord[]> {
    return this.sessionsOf(this.k(`sessions:status:${status}`), '-inf', expiresBefore ? `(${expiresBefore.getTime()}` : '+inf', false, limit);
  }

  async reserveIdempotencyKey(key: string, fingerprint: string, { ttlMs, pendingTtlMs }: { ttlMs: number; pendingTtlMs: number }): Promise<IdempotencyState> {
    const reply = (await this.run(RESERVE_IDEMPOTENCY, [this.k(`idempotency:${key}`)], [fingerprint, String(Math.min(ttlMs, pendingTtlMs))])) as string[];
    if (reply[0] === 'done') return { state: 'done', fingerprint: reply[1]!, result: reply[2]! };
    if (reply[0] === 'pending') return { state: 'pending', fingerprint: reply[1]! };
    return { state: 'reserved' };
  }

  async completeIdempotencyKey(key: string, result: string, ttlMs: number): Promise<void> {
    await this.run(COMPLETE_IDEMPOTENCY, [this.k(`idempotency:${key}`)], [result, String(ttlMs)]);
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    await this.run(RELEASE_IDEMPOTENCY, [this.k(`idempotency:${key}`)], []);
  }

  async addAccessKey(tokenOnboarding: string, accessKeyHash: string): Promise<boolean> {
    return Number(await this.run(ADD_ACCESS_KEY, [this.onboardingKey(tokenOnboarding)], [MORE_KEY_FIELD + accessKeyHash])) === 1;
  }

  async enqueueNotification(entry: OutboxEntry): Promise<boolean> {
    const e = applyOutboxUpdate(entry, entry);
    const queued = await this.run(ENQUEUE, [...this.outboxKeys(e.id), this.k('outbox:seq')], [
      e.state, String(OUTBOX_STATES.indexOf(e.state) + 1), String(msOf(e.createdAt)), String(e.nextAttemptMs), String(outboxChangedMs(e)),
      JSON.stringify({ id: e.id, type: e.type, body: e.body, orderKey: e.orderKey, createdAt: e.createdAt }), JSON.stringify(outboxTry(e)), e.id,
    ]);
    return Number(queued) === 1;
  }

  async dueNotifications(nowMs: number, limit: number): Promise<OutboxEntry[]> {
    if (limit <= 0) return [];
    return this.ctx.op(async () => {
      const due = await this.ctx.client.zRange(this.k('outbox:due'), '-inf', nowMs, { BY: 'SCORE' });
      if (due.length === 0) return [];
      // Due by next try, served by queue order: creation time, then the insertion number the member starts with.
      const created = await this.ctx.client.zmScore(this.k('outbox:state:pending'), due);
      const order = due
        .map((member, i) => ({ member, created: created[i] }))
        .filter((x): x is { member: string; created: number } => x.created !== null && x.created !== undefined)
        .sort((x, y) => x.created - y.created || (x.member < y.member ? -1 : 1));
      const entries = await this.entries(order.slice(0, limit).map((x) => idOf(x.member)));
      return entries.filter((e): e is OutboxEntry => e !== null && e.state === 'pending' && e.nextAttemptMs <= nowMs);
    });
  }

  async updateNotification(id: string, update: OutboxUpdate): Promise<boolean> {
    const written = await this.run(UPDATE_OUTBOX, this.outboxKeys(id), [
      update.state, String(OUTBOX_STATES.indexOf(update.state) + 1), String(update.nextAttemptMs),
      optionalMs(update.deliveredAt ?? update.lastAttemptAt), JSON.stringify(outboxTry(update)),
    ]);
    return Number(written) === 1;
  }

  async getNotification(id: string): Promise<OutboxEntry | null> {
    return (await this.ctx.op(() => this.entries([id])))[0] ?? null;
  }

  async listNotifications({ state, failingOnly, limit }: { state: OutboxState; failingOnly?: boolean; limit: number }): Promise<OutboxEntry[]> {
    if (limit <= 0) return [];
    return this.ctx.op(async () => {
      const out: OutboxEntry[] = [];
      for (let offset = 0; out.length < limit; offset += PAGE) {
        const members = await this.ctx.client.zRange(this.k(`outbox:state:${state}`), '+inf', '-inf', { BY: 'SCORE', REV: true, LIMIT: { offset, count: PAGE } });
        for (const e of await this.entries(members.map(idOf))) {
          if (e && e.state === state && (!failingOnly || e.attempts > 0) && out.length < limit) out.push(e);
        }
        if (members.length < PAGE) break;
      }
      return out;
    });
  }

  async purgeBackendState({ sessionsEndedBefore, sessionsCreatedBefore, outboxBefore }: BackendPurgeCutoffs): Promise<number> {
    const ended = String(sessionsEndedBefore.getTime());
    const created = String(sessionsCreatedBefore.getTime());
    const [endedMembers, createdMembers, settled] = await this.ctx.op(() =>
      Promise.all([
        this.ctx.client.zRange(this.k('sessions:ended'), '-inf', `(${ended}`, { BY: 'SCORE' }),
        this.ctx.client.zRange(this.k('sessions:created'), '-inf', `(${created}`, { BY: 'SCORE' }),
        this.ctx.client.zRange(this.k('outbox:settled'), '-inf', `(${outboxBefore.getTime()}`, { BY: 'SCORE' }),
      ]),
    );
    let gone = 0;
    const sessions = [...new Set([...endedMembers, ...createdMembers])];
    // One script per record, in chunks: Redis runs each alone, and a sweep of thousands must not hold other clients up.
    for (let i = 0; i < sessions.length; i += PAGE) {
      const flags = await Promise.all(sessions.slice(i, i + PAGE).map((m) => this.run(PURGE_SESSION, [], [this.ctx.prefix, m, ended, created])));
      gone += flags.filter((f) => Number(f) === 1).length;
    }
    for (let i = 0; i < settled.length; i += PAGE) {
      const flags = await Promise.all(
        settled.slice(i, i + PAGE).map((m) => this.run(PURGE_OUTBOX, this.outboxKeys(idOf(m)), [m, String(outboxBefore.getTime())])),
      );
      gone += flags.filter((f) => Number(f) === 1).length;
    }
    return gone;
  }

  /** Keys of the outbox scripts: entry, due, settled, then the state sets (a state is named to the scripts by its position). */
  private outboxKeys(id: string): string[] {
    return [this.k(`outbox:${id}`), this.k('outbox:due'), this.k('outbox:settled'), ...OUTBOX_STATES.map((s) => this.k(`outbox:state:${s}`))];
  }

  private async entries(ids: string[]): Promise<(OutboxEntry | null)[]> {
    if (ids.length === 0) return [];
    const m = this.ctx.client.multi();
    for (const id of ids) m.hmGet(this.k(`outbox:${id}`), ['base', 'try']);
    const rows = (await m.execAsPipeline()) as unknown as (string | null)[][];
    return rows.map(([base, tried]) => (base && tried ? applyOutboxUpdate(JSON.parse(base) as OutboxEntry, JSON.parse(tried) as OutboxUpdate) : null));
  }

  /** Sessions of an index in its order, skipping (and dropping) members whose session Redis expired. */
  private sessionsOf(key: string, from: string, to: string, rev: boolean, limit: number): Promise<SessionRecord[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.ctx.op(async () => {
      const out: SessionRecord[] = [];
      let offset = 0;
      while (out.length < limit) {
        const count = Math.min(PAGE, limit - out.length);
        const members = await this.ctx.client.zRange(key, from, to, { BY: 'SCORE', ...(rev && { REV: true }), LIMIT: { offset, count } });
        const m = this.ctx.client.multi();
        for (const member of members) m.hGet(this.k(`session:${idOf(member)}`), 'body');
        const bodies = (await m.execAsPipeline()) as unknown as (string | null)[];
        const lapsed = members.filter((_, i) => !bodies[i]);
        for (const body of bodies) if (body) out.push(JSON.parse(body) as SessionRecord);
        // Dropped members leave the index, so the next page starts after the live ones only.
        if (lapsed.length > 0) await this.ctx.client.zRem(key, lapsed);
        offset += members.length - lapsed.length;
        if (members.length < count) break;
      }
      return out.slice(0, limit);
    });
  }
}

