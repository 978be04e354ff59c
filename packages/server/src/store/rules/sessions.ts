/**
 * Sessions in a store: written only by compare-and-set on `version`, listed in one order by every
 * store, purged with their secrets and hand-off keys, and hand-off keys that no two live sessions share.
 */
import type { BackendPurgeCutoffs, SessionRecord, SessionSecretKind } from '../backend-state.js';
import { msOf } from './iso-time.js';
import { copySession } from './copies.js';

/** A session as stored at `version` (a copy: the caller's object is never kept). */
export const atVersion = (s: SessionRecord, version: number): SessionRecord => copySession({ ...s, version });

/** Compare-and-set: the write goes through only over the version the writer read. */
export const versionMatches = (current: Pick<SessionRecord, 'version'> | undefined | null, expectedVersion: number): boolean =>
  current !== undefined && current !== null && current.version === expectedVersion;

/** A secret's hash keeps its first owner (128 random bits: only a replayed call repeats one). */
export interface SecretOwner {
  kind: SessionSecretKind;
  sessionId: string;
}

/** The session a secret opens, when it was issued for that kind of caller. */
export const secretOpens = (owner: SecretOwner | undefined, kind: SessionSecretKind): string | null =>
  owner && owner.kind === kind ? owner.sessionId : null;

/** Retention in ms since the epoch: strictly before a cutoff goes. */
export interface PurgeCutoffs {
  sessionsEndedBeforeMs: number;
  sessionsCreatedBeforeMs: number;
  outboxBeforeMs: number;
}

export const purgeCutoffs = (c: BackendPurgeCutoffs): PurgeCutoffs => ({
  sessionsEndedBeforeMs: c.sessionsEndedBefore.getTime(),
  sessionsCreatedBeforeMs: c.sessionsCreatedBefore.getTime(),
  outboxBeforeMs: c.outboxBefore.getTime(),
});

/** Whether retention removes a session: ended before the one cutoff, or created before the other. */
export const sessionPurged = (s: Pick<SessionRecord, 'createdAt' | 'endedAt'>, c: PurgeCutoffs): boolean =>
  (s.endedAt !== undefined && msOf(s.endedAt) < c.sessionsEndedBeforeMs) || msOf(s.createdAt) < c.sessionsCreatedBeforeMs;

/** Newest first; sessions of one millisecond newest inserted first (`seq`: insertion number). */
export const newestFirst = (x: { s: SessionRecord; seq: number }, y: { s: SessionRecord; seq: number }): number =>
  msOf(y.s.createdAt) - msOf(x.s.createdAt) || y.seq - x.seq;

/** Soonest to expire first; ties by insertion. */
export const soonestExpiryFirst = (x: { s: SessionRecord; seq: number }, y: { s: SessionRecord; seq: number }): number =>
  msOf(x.s.expiresAt) - msOf(y.s.expiresAt) || x.seq - y.seq;

/** A listing's `limit`, never below zero. */
export const atMost = (limit: number): number => Math.max(0, limit);

/** A hand-off key: the hash of a link's token or short code, pointing at its session. */
export interface HandoffKey {
  sessionId: string;
  liveUntilMs: number;
}

/** Whether `sessionId` may point the key at itself: free, lapsed, or already its own, so no two live codes are alike. */
export const mayPointHandoffKey = (held: HandoffKey | undefined, sessionId: string, nowMs: number): boolean =>
  !held || held.sessionId === sessionId || held.liveUntilMs <= nowMs;
