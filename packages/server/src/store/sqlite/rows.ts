/** SQLite rows to records and back, and the reads a decision starts from. */
import type { KeptAnyway } from '@onboarding-kit/contract';
import type { OutboxEntry, OutboxState, SessionRecord } from '../backend-state.js';
import type { HeldKey } from '../rules/idempotency.js';
import type { Lease } from '../rules/leases.js';
import type { Place } from '../rules/places.js';
import type { HandoffKey } from '../rules/sessions.js';
import type { StoredQueryRequest } from '../rules/query-requests.js';
import type { OnboardingRecord, StatusEvent } from '../store.js';
import type { Statements } from './statements.js';

interface OnboardingRow {
  token: string;
  status: OnboardingRecord['status'];
  created_at: string;
  updated_at: string;
  external_id: string | null;
  access_key_hash: string;
  finished_at: string | null;
  session_id: string | null;
  kept_anyway: string | null;
}

export interface SessionRow {
  version: number;
  body: string;
}

export interface OutboxRow {
  id: string;
  type: OutboxEntry['type'];
  body: string;
  order_key: string;
  created_at: string;
  state: OutboxState;
  attempts: number;
  next_attempt_ms: number;
  last_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
}

function toOnboarding(row: OnboardingRow, history: StatusEvent[], more: string[]): OnboardingRecord {
  return {
    tokenOnboarding: row.token,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.external_id !== null && { externalId: row.external_id }),
    accessKeyHash: row.access_key_hash,
    history: history.map(({ status, at, source }) => ({ status, at, source })),
    ...(row.finished_at !== null && { finishedAt: row.finished_at }),
    ...(row.session_id !== null && { sessionId: row.session_id }),
    ...(more.length > 0 && { moreAccessKeyHashes: more }),
    ...(row.kept_anyway !== null && { keptAnyway: JSON.parse(row.kept_anyway) as KeptAnyway }),
  };
}

/** The version lives in its own column, where compare-and-set reads it; the body holds the rest. */
export function sessionBody(r: SessionRecord): string {
  const { version: _version, ...rest } = r;
  return JSON.stringify(rest);
}

export function toSession(row: SessionRow | undefined): SessionRecord | null {
  return row ? { ...(JSON.parse(row.body) as Omit<SessionRecord, 'version'>), version: row.version } : null;
}

export function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    type: row.type,
    body: row.body,
    orderKey: row.order_key,
    createdAt: row.created_at,
    state: row.state,
    attempts: row.attempts,
    nextAttemptMs: row.next_attempt_ms,
    ...(row.last_attempt_at !== null && { lastAttemptAt: row.last_attempt_at }),
    ...(row.last_error !== null && { lastError: row.last_error }),
    ...(row.delivered_at !== null && { deliveredAt: row.delivered_at }),
  };
}

/** An onboarding with its history and added access keys (call inside a transaction, so all three come from one commit). */
export function readOnboarding(sql: Statements, token: string): OnboardingRecord | null {
  const row = sql.getOnboarding.get(token) as OnboardingRow | undefined;
  if (!row) return null;
  const more = (sql.getAccessKeys.all(token) as Array<{ hash: string }>).map((k) => k.hash);
  return toOnboarding(row, sql.getHistory.all(token) as StatusEvent[], more);
}

export function readLease(sql: Statements, name: string): Lease | undefined {
  const row = sql.getLease.get(name) as { owner: string; expires_ms: number } | undefined;
  return row && { owner: row.owner, expiresAtMs: row.expires_ms };
}

export function readPlaces(sql: Statements, key: string): Place[] {
  return (sql.getPlaces.all(key) as Array<{ holder: string; expires_ms: number }>).map((r) => ({
    holder: r.holder,
    expiresAtMs: r.expires_ms,
  }));
}

/** Writes a key's places as a rule decided them (the lapsed ones gone with the rest); false (nothing written) when it refused. */
export function putPlaces(sql: Statements, key: string, places: readonly Place[] | null): boolean {
  if (!places) return false;
  sql.deletePlaces.run(key);
  for (const p of places) sql.insertPlace.run(key, p.holder, p.expiresAtMs);
  return true;
}

/** Writes the lease a rule decided on; false (nothing written) when it decided none. */
export function putLease(sql: Statements, name: string, lease: Lease | null): boolean {
  if (lease) sql.putLease.run(name, lease.owner, lease.expiresAtMs);
  return lease !== null;
}

export function readHeldKey(sql: Statements, key: string): HeldKey | undefined {
  const row = sql.getIdempotency.get(key) as { fingerprint: string; result: string | null; expires_ms: number } | undefined;
  return row && { fingerprint: row.fingerprint, ...(row.result !== null && { result: row.result }), expiresAtMs: row.expires_ms };
}

export function readHandoffKey(sql: Statements, hash: string): HandoffKey | undefined {
  const row = sql.getHandoffKey.get(hash) as { session_id: string; live_until_ms: number } | undefined;
  return row && { sessionId: row.session_id, liveUntilMs: row.live_until_ms };
}

export interface QueryRow {
  body: string;
  outcome: string | null;
}

/** The outcome lives in its own column, which retention empties; the body holds the rest. */
export function queryBody(r: StoredQueryRequest): string {
  const { outcome: _outcome, ...rest } = r;
  return JSON.stringify(rest);
}

export function readQuery(row: QueryRow | undefined): StoredQueryRequest | null {
  if (!row) return null;
  const rest = JSON.parse(row.body) as StoredQueryRequest;
  return row.outcome === null ? rest : { ...rest, outcome: row.outcome };
}
