/**
 * The Redis backend's sessions, their secrets and hand-off keys. Keys, under the store's prefix:
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
 * - sorted sets of members: `sessions:reference:<reference>` and `sessions:created` by creation
 *   time (ms), `sessions:status:<status>` by expiry, `sessions:ended` by end time; counter
 *   `sessions:seq`; `sessions:listing`, the listing's own index (./session-listing.ts). A member whose session Redis expired is dropped by the next read that meets it
 *   (lists) or by the purge (created, ended). A reference's set expires with its latest session,
 *   since one reference may never be listed again.
 *
 * The scripts that touch one record's indexes derive those keys from the prefix (a session's
 * status and reference are only known inside the script), so the store needs a single Redis node.
 */
import type { SessionStatus } from '@onboarding-kit/contract';
import type { SessionRecord, SessionSecretKind } from '../backend-state.js';
import { msOf } from '../rules/iso-time.js';
import { SESSION_MAX_AGE_MS } from '../../config/defaults.js';
import type { PurgeCutoffs, SecretOwner } from '../rules/sessions.js';
import type { StorePrimitives } from '../core/primitives.js';
import { PAGE, idOf, optionalMs, type RedisContext } from './context.js';
import {
  ADD_SECRET,
  CREATE_SESSION,
  FIND_HANDOFF_SESSION,
  PURGE_SESSION,
  PUT_HANDOFF_KEY,
  REPLACE_SESSION,
  REVOKE_SESSION_ACCESS,
} from './scripts/session-scripts.js';
import { sessionsPage } from './session-listing.js';

/**
 * How long a session outlives its expiry in Redis: the routes still answer `expired` for it, and
 * the purge, which takes sessions older than this from their creation, comes first.
 */
const SESSION_GRACE_MS = SESSION_MAX_AGE_MS;

type SessionPrimitives = Pick<
  StorePrimitives,
  | 'insertSession'
  | 'getSession'
  | 'secretOwner'
  | 'addSessionSecret'
  | 'replaceSession'
  | 'putHandoffKey'
  | 'findHandoffSession'
  | 'sessionsByReference'
  | 'sessionsByStatus'
  | 'sessionsPage'
  | 'revokeSessionAccess'
> & {
  /** Deletes the sessions the cutoffs name, with their secrets and hand-off keys; returns how many. */
  purgeSessions(cutoffs: PurgeCutoffs): Promise<number>;
};

/** A session's fields as the create and replace scripts take them, after the prefix, id (and version). */
const sessionFields = (s: SessionRecord): string[] => [
  JSON.stringify(s),
  s.reference,
  s.status,
  String(msOf(s.createdAt)),
  String(msOf(s.expiresAt)),
  optionalMs(s.endedAt),
  String(msOf(s.expiresAt) + SESSION_GRACE_MS),
];

/** Sessions of an index in its order, skipping (and dropping) members whose session Redis expired. */
function sessionsOf(
  { conn, keys }: RedisContext,
  key: string,
  from: string,
  to: string,
  rev: boolean,
  limit: number,
): Promise<SessionRecord[]> {
  const { client } = conn;
  return conn.op(async () => {
    const out: SessionRecord[] = [];
    let offset = 0;
    while (out.length < limit) {
      const count = Math.min(PAGE, limit - out.length);
      const members = await client.zRange(key, from, to, { BY: 'SCORE', ...(rev && { REV: true }), LIMIT: { offset, count } });
      const m = client.multi();
      for (const member of members) m.hGet(keys.k(`session:${idOf(member)}`), 'body');
      const bodies = (await m.execAsPipeline()) as unknown as (string | null)[];
      const lapsed = members.filter((_, i) => !bodies[i]);
      for (const body of bodies) if (body) out.push(JSON.parse(body) as SessionRecord);
      // Dropped members leave the index, so the next page starts after the live ones only.
      if (lapsed.length > 0) await client.zRem(key, lapsed);
      offset += members.length - lapsed.length;
      if (members.length < count) break;
    }
    return out.slice(0, limit);
  });
}

/** Deletes the sessions the cutoffs name, with their secrets and hand-off keys; returns how many. */
async function purgeSessions(
  { conn, keys }: RedisContext,
  { sessionsEndedBeforeMs, sessionsCreatedBeforeMs }: PurgeCutoffs,
): Promise<number> {
  const { client } = conn;
  const [ended, created] = [String(sessionsEndedBeforeMs), String(sessionsCreatedBeforeMs)];
  const [endedMembers, createdMembers] = await conn.op(() =>
    Promise.all([
      client.zRange(keys.k('sessions:ended'), '-inf', `(${ended}`, { BY: 'SCORE' }),
      client.zRange(keys.k('sessions:created'), '-inf', `(${created}`, { BY: 'SCORE' }),
    ]),
  );
  const members = [...new Set([...endedMembers, ...createdMembers])];
  let gone = 0;
  // One script per record, in chunks: Redis runs each alone, and a sweep of thousands must not hold other clients up.
  for (let i = 0; i < members.length; i += PAGE) {
    const flags = await Promise.all(members.slice(i, i + PAGE).map((m) => conn.run(PURGE_SESSION, [], [keys.prefix, m, ended, created])));
    gone += flags.filter((f) => Number(f) === 1).length;
  }
  return gone;
}

export function sessionPrimitives(ctx: RedisContext): SessionPrimitives {
  const { conn, keys, instanceId, now } = ctx;
  const { client } = conn;
  const { prefix } = keys;

  const getSession = async (id: string): Promise<SessionRecord | null> => {
    const body = await conn.op(() => client.hGet(keys.k(`session:${id}`), 'body'));
    return body ? (JSON.parse(body) as SessionRecord) : null;
  };

  return {
    async insertSession(s: SessionRecord, secrets: { client: string; capture: string }): Promise<boolean> {
      const created = await conn.run(CREATE_SESSION, [], [prefix, s.id, ...sessionFields(s), secrets.client, secrets.capture]);
      return Number(created) === 1;
    },

    getSession,

    async secretOwner(hash: string): Promise<SecretOwner | undefined> {
      const owner = await conn.op(() => client.get(keys.k(`secret:${hash}`)));
      if (!owner) return undefined;
      const sep = owner.indexOf(':');
      return { kind: owner.slice(0, sep) as SessionSecretKind, sessionId: owner.slice(sep + 1) };
    },

    async addSessionSecret(id: string, kind: SessionSecretKind, hash: string): Promise<boolean> {
      return Number(await conn.run(ADD_SECRET, [], [prefix, id, kind, hash])) === 1;
    },

    async replaceSession(s: SessionRecord, expectedVersion: number): Promise<boolean> {
      const written = await conn.run(REPLACE_SESSION, [], [prefix, s.id, String(expectedVersion), ...sessionFields(s), instanceId]);
      return Number(written) === 1;
    },

    async putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> {
      return Number(await conn.run(PUT_HANDOFF_KEY, [], [prefix, hash, sessionId, String(liveUntilMs), String(now())])) === 1;
    },

    async findHandoffSession(hash: string): Promise<SessionRecord | null> {
      const body = (await conn.run(FIND_HANDOFF_SESSION, [], [prefix, hash])) as string | null;
      return body ? (JSON.parse(body) as SessionRecord) : null;
    },

    sessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> {
      return sessionsOf(ctx, keys.k(`sessions:reference:${reference}`), '+inf', '-inf', true, limit);
    },

    sessionsByStatus(status: SessionStatus, limit: number, expiresBeforeMs: number | undefined): Promise<SessionRecord[]> {
      return sessionsOf(
        ctx,
        keys.k(`sessions:status:${status}`),
        '-inf',
        expiresBeforeMs === undefined ? '+inf' : `(${expiresBeforeMs}`,
        false,
        limit,
      );
    },

    sessionsPage: (query) => sessionsPage(ctx, query),

    async revokeSessionAccess(id: string): Promise<void> {
      await conn.run(REVOKE_SESSION_ACCESS, [], [prefix, id]);
    },

    purgeSessions: (cutoffs) => purgeSessions(ctx, cutoffs),
  };
}
