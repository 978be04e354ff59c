/**
 * What a backend gives `SharedStore` (./shared-store.ts): small operations on its own data, each
 * atomic on its own. The memory and SQLite backends decide them with the rules of ../rules/ inside
 * one synchronous step or transaction; the Redis backend decides the ones that read and write in
 * one step inside Lua scripts, which the rule tables hold to the same answers (test/store-conformance.ts).
 *
 * The shared store has already checked and shaped what it passes: limits are above zero, lease
 * names are distinct and at least one, sessions are at the version to write, outbox entries and
 * updates hold only the fields a try sets.
 */
import type { AttestedEntry } from '../rules/attested-hashes.js';
import type { SessionStatus } from '@onboarding-kit/contract';
import type {
  IdempotencyState,
  OutboxEntry,
  OutboxState,
  OutboxUpdate,
  SessionQuery,
  SessionRecord,
  SessionSecretKind,
} from '../backend-state.js';
import type { OnboardingCutoffs } from '../rules/onboardings.js';
import type { QueryCutoffs, StoredQueryEnd, StoredQueryRequest } from '../rules/query-requests.js';
import type { PurgeCutoffs, SecretOwner } from '../rules/sessions.js';
import type { OnboardingRecord, RateLimitDecision, StatusUpdate } from '../store.js';
import type { ChangeFeed } from './change-feed.js';
import type { SessionFeed } from './session-feed.js';

export interface StorePrimitives {
  /** Where changes made here are announced to this process's listeners (a shared backend also feeds it what other instances changed). */
  readonly feed: ChangeFeed;
  readonly sessionFeed: SessionFeed;

  /** Stores `record` whole, replacing any record of its token. */
  putOnboarding(record: OnboardingRecord): Promise<void>;
  getOnboarding(token: string): Promise<OnboardingRecord | null>;
  /** `applyStatusRules` on the stored record, read and written in one step; null for an unknown token. */
  applyStatus(token: string, update: StatusUpdate, at: string): Promise<{ record: OnboardingRecord; changed: boolean } | null>;
  addAccessKey(token: string, hash: string): Promise<boolean>;
  listInProcess(): Promise<string[]>;
  /** Deletes the onboardings `onboardingExpired` names; returns how many. */
  expireOnboardings(cutoffs: OnboardingCutoffs): Promise<number>;

  /** rules/leases.ts, on the backend's clock. */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** The names renewed, in the order given. */
  renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]>;
  releaseLease(name: string, owner: string): Promise<boolean>;
  /** rules/rate-window.ts, on the backend's clock. */
  consumeRate(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /**
   * rules/attested-hashes.ts `attestHash` for each entry in turn, in one step, on the backend's
   * clock: the nonce each hash was attested under before (null: never, or lapsed).
   */
  attestHashes(entries: readonly AttestedEntry[], keepMs: number): Promise<(string | null)[]>;
  /** rules/places.ts `takePlace`, on the backend's clock: whether `holder` has a place under `key`. */
  takePlace(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean>;
  /** rules/places.ts `leavePlace`: whether `holder` held a live place. */
  leavePlace(key: string, holder: string): Promise<boolean>;

  /** Stores a new session (at version 1) with its first secrets; false when its id exists. */
  insertSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<boolean>;
  getSession(id: string): Promise<SessionRecord | null>;
  /** Whom a secret's hash was first issued to. */
  secretOwner(hash: string): Promise<SecretOwner | undefined>;
  addSessionSecret(id: string, kind: SessionSecretKind, hash: string): Promise<boolean>;
  /** Writes `next` (at its new version) only over `expectedVersion` (rules/sessions.ts `versionMatches`). */
  replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean>;
  /** rules/sessions.ts `mayPointHandoffKey`, for a known session only. */
  putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean>;
  /** The session the key points at, in one step that reads a session row whether or not the key exists. */
  findHandoffSession(hash: string): Promise<SessionRecord | null>;
  /** Newest first (rules/sessions.ts `newestFirst`). */
  sessionsByReference(reference: string, limit: number): Promise<SessionRecord[]>;
  /** Soonest to expire first, only those expiring before `expiresBeforeMs` when given. */
  sessionsByStatus(status: SessionStatus, limit: number, expiresBeforeMs: number | undefined): Promise<SessionRecord[]>;
  /** rules/session-list.ts `pageOf` over every session held, `limit` above zero. */
  sessionsPage(query: SessionQuery): Promise<SessionRecord[]>;
  /** Deletes the session's secrets and the hand-off keys pointing at it (the session stays). */
  revokeSessionAccess(id: string): Promise<void>;

  /** rules/idempotency.ts, with the reservation's time to live already chosen. */
  reserveKey(key: string, fingerprint: string, reservationTtlMs: number): Promise<IdempotencyState>;
  completeKey(key: string, result: string, ttlMs: number): Promise<void>;
  releaseKey(key: string): Promise<void>;

  /** Queues `entry` unless one with its id exists. */
  insertEntry(entry: OutboxEntry): Promise<boolean>;
  /** Due entries (rules/outbox.ts `isDue`) in queue order. */
  dueEntries(nowMs: number, limit: number): Promise<OutboxEntry[]>;
  updateEntry(id: string, update: OutboxUpdate): Promise<boolean>;
  getEntry(id: string): Promise<OutboxEntry | null>;
  /** Replaces an entry's body (already sealed), nothing else; false for an unknown id. */
  rewriteEntryBody(id: string, body: string): Promise<boolean>;
  /** Entries a listing shows (rules/outbox.ts `listed`), newest first. */
  listEntries(state: OutboxState, failingOnly: boolean, limit: number): Promise<OutboxEntry[]>;
  /** Deletes purged sessions with their secrets and hand-off keys, and settled entries; returns how many records went. */
  purge(cutoffs: PurgeCutoffs): Promise<number>;

  /** Stores a request unless its id exists, and points its key (if any) at it. */
  insertQuery(record: StoredQueryRequest): Promise<boolean>;
  getQuery(id: string): Promise<StoredQueryRequest | null>;
  /** The request the key was last pointed at. */
  queryByKey(key: string): Promise<StoredQueryRequest | null>;
  /** rules/query-requests.ts `endQuery`, read and written in one step. */
  endQuery(id: string, end: StoredQueryEnd): Promise<boolean>;
  /** rules/query-requests.ts `rescheduled`, read and written in one step. */
  rescheduleQuery(id: string, nextCheckMs: number, checks: number): Promise<boolean>;
  /** `queryDue` ones, soonest first. */
  dueQueries(nowMs: number, limit: number): Promise<StoredQueryRequest[]>;
  /** `outcomeErased` ones lose their outcome (stamped `at`), `queryDeleted` ones go whole; returns how many records were touched. */
  purgeQueries(cutoffs: QueryCutoffs, at: string): Promise<number>;
  /** Removes what deleted or rewritten records left in the backend's files (SQLite: the WAL's earlier frames); absent where nothing lingers. */
  compact?(): Promise<void>;

  ping(): Promise<void>;
  close?(): Promise<void>;
}
