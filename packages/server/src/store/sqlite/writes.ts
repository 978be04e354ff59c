/**
 * The SQLite backend's writes of whole rows: an onboarding with its history and access keys, an
 * outbox entry, an attested hash. Callers run them inside their own transaction (or `run`), which maps errors.
 */
import type { OutboxEntry, OutboxUpdate } from '../backend-state.js';
import { attestHash, type AttestedEntry } from '../rules/attested-hashes.js';
import { msOf } from '../rules/iso-time.js';
import { outboxChangedMs } from '../rules/outbox.js';
import type { StoredQueryRequest } from '../rules/query-requests.js';
import type { PurgeCutoffs } from '../rules/sessions.js';
import type { OnboardingRecord } from '../store.js';
import { queryBody } from './rows.js';
import type { Statements } from './statements.js';

/** Replaces the onboarding's rows with `r`'s. */
export function writeOnboarding(sql: Statements, r: OnboardingRecord): void {
  sql.deleteHistory.run(r.tokenOnboarding);
  sql.deleteAccessKeys.run(r.tokenOnboarding);
  sql.deleteOnboarding.run(r.tokenOnboarding);
  sql.insertOnboarding.run(
    r.tokenOnboarding,
    r.status,
    r.createdAt,
    msOf(r.createdAt),
    r.updatedAt,
    r.externalId ?? null,
    r.accessKeyHash,
    r.finishedAt ?? null,
    r.finishedAt ? msOf(r.finishedAt) : null,
    r.sessionId ?? null,
    r.keptAnyway ? JSON.stringify(r.keptAnyway) : null,
  );
  r.history.forEach((h, seq) => sql.insertHistory.run(r.tokenOnboarding, seq, h.status, h.at, h.source));
  for (const hash of r.moreAccessKeyHashes ?? []) sql.insertAccessKey.run(r.tokenOnboarding, hash);
}

/** False when an entry with this id is already queued. */
export function insertOutboxRow(sql: Statements, e: OutboxEntry): boolean {
  return (
    sql.enqueue.run(
      e.id,
      e.type,
      e.body,
      e.orderKey,
      e.createdAt,
      msOf(e.createdAt),
      e.state,
      e.attempts,
      e.nextAttemptMs,
      e.lastAttemptAt ?? null,
      e.lastError ?? null,
      e.deliveredAt ?? null,
      outboxChangedMs(e),
    ).changes === 1
  );
}

/** False when no entry has this id. */
export function updateOutboxRow(sql: Statements, id: string, u: OutboxUpdate): boolean {
  const changed = u.deliveredAt ?? u.lastAttemptAt;
  return (
    sql.updateNotification.run(
      u.state,
      u.attempts,
      u.nextAttemptMs,
      u.lastAttemptAt ?? null,
      u.lastError ?? null,
      u.deliveredAt ?? null,
      changed ? msOf(changed) : null,
      id,
    ).changes === 1
  );
}

const optionalMsOf = (iso: string | undefined): number | null => (iso ? msOf(iso) : null);

/** False when a request with this id exists. */
export function insertQueryRow(sql: Statements, r: StoredQueryRequest): boolean {
  return (
    sql.insertQuery.run(
      r.id,
      r.key ?? null,
      r.status,
      msOf(r.createdAt),
      optionalMsOf(r.completedAt),
      r.nextCheckMs ?? null,
      queryBody(r),
      r.outcome ?? null,
    ).changes === 1
  );
}

/** Writes `r` over its row. */
export function replaceQueryRow(sql: Statements, r: StoredQueryRequest): void {
  sql.replaceQuery.run(r.status, optionalMsOf(r.completedAt), r.nextCheckMs ?? null, queryBody(r), r.outcome ?? null, r.id);
}

/** rules/attested-hashes.ts `attestHash` on one hash's row: the nonce it was attested under before, or null. */
export function attestRow(sql: Statements, { sha256, nonce }: AttestedEntry, keepMs: number, nowMs: number): string | null {
  const row = sql.getAttested.get(sha256) as { nonce: string; expires_ms: number } | undefined;
  const { earlier, write } = attestHash(row && { nonce: row.nonce, expiresAtMs: row.expires_ms }, nonce, keepMs, nowMs);
  if (write) sql.putAttested.run(sha256, write.nonce, write.expiresAtMs);
  return earlier;
}

/**
 * Retention's deletions, in the caller's transaction: `purged` counts the sessions and entries that
 * went; lapsed idempotency keys and attested hashes go too, uncounted (they are free already), but
 * `hashes` says whether a photo's hash went, which must not linger in the WAL either.
 */
export function purgeRows(
  sql: Statements,
  { sessionsEndedBeforeMs: ended, sessionsCreatedBeforeMs: created, outboxBeforeMs }: PurgeCutoffs,
  nowMs: number,
) {
  sql.purgeSecrets.run(ended, created);
  sql.purgeHandoffKeys.run(ended, created);
  const sessions = sql.purgeSessions.run(ended, created).changes;
  const entries = sql.purgeOutbox.run(outboxBeforeMs).changes;
  sql.sweepIdempotency.run(nowMs);
  return { purged: sessions + entries, hashes: sql.sweepAttested.run(nowMs).changes };
}
