/**
 * The backend's part of the store: sessions, idempotency keys and the notification outbox
 * (docs/backend-api.md). Every store (memory, SQLite, Redis) implements it next to `Store`, and
 * the conformance suite (test/store-conformance.ts) holds each to the same behaviour.
 *
 * The rules the routes rely on:
 * - Sessions change only by compare-and-set on `version` (`replaceSession`), so two instances
 *   racing to claim, submit or expire one session cannot both win.
 * - Secrets are looked up by their SHA-256 only; the store never sees a secret.
 * - Outbox inserts are idempotent by event id, so an event found twice (two instances, a retry
 *   after a crash) is queued once.
 * - Like every store operation, these reject with `StoreUnavailableError` when the store cannot be
 *   reached, and their outcome is then unknown.
 */
import type {
  AttestationVerdict,
  CheckResult,
  DocumentReading,
  ImageRoleName,
  IntegritySignal,
  KeptAnyway,
  LivenessReport,
  NotificationType,
  SessionChecks,
  SessionEvent,
  SessionStatus,
  SessionStep,
} from '@onboarding-kit/contract';
import type { OnboardingStatus } from '@onboarding-kit/contract';
import type { AttestedEntry } from './rules/attested-hashes.js';

/** What a creation's capture integrity left on its session (docs/backend-api.md#capture-integrity). */
export interface RecordedIntegrity {
  /** The page's claims, as sent; absent when it sent none. */
  liveness?: LivenessReport;
  signals?: IntegritySignal[];
  /** The companion's own verdict. */
  attestation: AttestationVerdict;
  /** How many keyframes the session keeps (`keyframes`). */
  keyframes: number;
}

/** A capture nonce issued to a session's page (docs/page-api.md#attestation). */
export interface IssuedNonce {
  nonce: string;
  /** The capture step it was issued for. */
  role: ImageRoleName;
  issuedAt: string;
  /** When a creation's attestation used it; a nonce is good for one creation. */
  consumedAt?: string;
}

/**
 * `client`: the element's secret and `capture`: the hosted page's token, both the session's
 * origin; `page`: the secret the hosted page got for its capture token, the origin too;
 * `device`: a secret issued by a hand-off claim to the device that claimed it.
 */
export type SessionSecretKind = 'client' | 'capture' | 'page' | 'device';

/** A hand-off link (docs/page-api.md#hand-off): only the hashes of its token and short code are kept. */
export interface SessionHandoffOffer {
  tokenHash: string;
  codeHash: string;
  expiresAt: string;
  /** `pending` until used (`claimed`), lapsed unused (`expired`) or withdrawn by the origin taking the session back. */
  state: 'pending' | 'claimed' | 'expired' | 'withdrawn';
}

/**
 * What the person answered on the computer before a hand-off, kept for the phone
 * (docs/page-api.md#hand-off). Personal data: sealed with the session's other personal fields.
 */
export interface SessionHandoffAnswers {
  /** When consent was given on the computer (ISO 8601). */
  consentAt: string;
  /** 11 digits. */
  cpf?: string;
  name?: string;
  documentType?: string;
}

/** Which device holds a session, and its latest hand-off link. */
export interface SessionHandoff {
  offer?: SessionHandoffOffer;
  /** SHA-256 of the device secret holding the session; absent while the origin holds it. */
  holderHash?: string;
}

/** One entry of a session's event log, which `GET /v1/session/events` replays and follows. */
export interface SessionLogEntry {
  /** The per-session sequence (the SSE `id:`). */
  seq: number;
  at: string;
  event: SessionEvent;
}

/** Told that a session changed (its new state is read from the store). */
export type SessionChangeListener = (sessionId: string) => void;

export interface SessionClaim {
  /** The creation's Idempotency-Key, or a random one when the page sent none. */
  key: string;
  /**
   * SHA-256 of the creation's validated body (without images' bytes: their hashes), to tell a
   * replay from another creation; absent while the creation is under way (it claims before its body is read).
   */
  fingerprint?: string;
  /** ISO 8601: a claim whose creation never finished may be taken over after the upstream timeout. */
  at: string;
}

export interface SessionRecord {
  id: string;
  /** Starts at 1; each `replaceSession` adds 1. */
  version: number;
  reference: string;
  status: SessionStatus;
  createdAt: string;
  expiresAt: string;
  taxId?: { kind: 'cpf' | 'cnpj'; value: string };
  name?: string;
  documentTypes: string[];
  locale: string;
  returnUrl?: string;
  metadata: Record<string, string>;
  /** An onboarding creation under way or done (one per session). */
  claim?: SessionClaim;
  /** The onboarding the session produced. */
  tokenOnboarding?: string;
  /** Its photos kept anyway (as its creation declared them), kept with the session so they outlive the onboarding's own retention. */
  keptAnyway?: KeptAnyway;
  /** Its final state, kept with the session so it outlives the onboarding's own retention. */
  outcome?: { status: OnboardingStatus; externalId?: string; at: string };
  /**
   * The `services` member of the upstream report that brought the final status, as the upstream
   * sent it (docs/backend-api.md#the-reports-services). Personal data: sealed with the prefill.
   */
  reportServices?: unknown;
  /** When the session became `completed`, `expired` or `cancelled` (ISO 8601); drives retention. */
  endedAt?: string;
  /** The hand-off between devices (absent: never offered). */
  handoff?: SessionHandoff;
  /**
   * The computer's answers sent with the latest hand-off offer, for the phone; gone on a take-back
   * and with an offer that sends none. Personal data: sealed with the prefill.
   */
  handoffAnswers?: SessionHandoffAnswers;
  /** The optional steps the session adds to the flow. */
  steps?: SessionStep[];
  /** The page offers what the OCR reads, for the person to confirm (needs the `ocr` check). */
  prefillFromDocument?: true;
  /**
   * The instant checks asked for (rules/checks.ts): before the onboarding, what was asked and no
   * result; from its creation, a result per check. Personal data (a check's result reads the
   * person's document and face): sealed with the prefill.
   */
  checks?: SessionChecks;
  /** What the page read from the document photos, as its creation sent it; a record only. Personal data: sealed with the prefill. */
  documentReading?: DocumentReading;
  /**
   * The page's document prefills so far (at most a few per session), and the OCR result of the
   * latest with the SHA-256 of the front photo it read, so the `ocr` check of a creation with the
   * same photo reuses it. Personal data: sealed with the prefill.
   */
  documentPrefill?: { attempts: number; ocr?: { frontSha256: string; result: CheckResult } };
  /**
   * The capture nonces issued to the page (integrity/nonce-rules.ts), at most a few per session;
   * a creation consumes those its attestation names, so no later creation uses one again.
   */
  captureNonces?: IssuedNonce[];
  /** The creation's capture integrity, once its onboarding is created. */
  integrity?: RecordedIntegrity;
  /**
   * The liveness challenge's keyframes the creation sent (JPEG, base64), for the evidence archive.
   * Personal data (the person's face): sealed with the prefill, erased by a redaction.
   */
  keyframes?: string[];
  /** SHA-256 of each capture token already exchanged for a page secret: none is exchanged twice. */
  exchangedCaptures?: string[];
  /** The latest events, oldest first (bounded; only the latest progress report is kept). */
  events?: SessionLogEntry[];
  /** The last event's `seq` (0 or absent: none yet). */
  eventSeq?: number;
  /** When the session's personal data was erased (rules/redaction.ts); absent: never. */
  redactedAt?: string;
  /**
   * At rest only, with a data key: `taxId`, `name`, `metadata`, `returnUrl`, `reportServices`, `handoffAnswers`, `checks`,
   * `documentReading` and `documentPrefill` sealed together
   * (rules/personal-data.ts). The store opens it before handing the session out, so callers never see it.
   */
  sealed?: string;
}

/** Where a session sits in `GET /v1/sessions` (rules/session-list.ts). */
export interface SessionPosition {
  createdMs: number;
  id: string;
}

/** A listing as a store runs it: every bound exclusive, `limit` above zero. */
export interface SessionQuery {
  reference?: string;
  status?: SessionStatus;
  createdAfterMs?: number;
  createdBeforeMs?: number;
  /** The last position of the previous page: only sessions listed after it. */
  after?: SessionPosition;
  /** Only sessions whose id starts with this (`ses_` and hex digits: a support code read back). */
  idPrefix?: string;
  limit: number;
}

export type IdempotencyState =
  /** The key was free and is now held by the caller, who must `complete` or `release` it. */
  | { state: 'reserved' }
  /** Another request holds it and has not finished. */
  | { state: 'pending'; fingerprint: string }
  | { state: 'done'; fingerprint: string; result: string };

export type OutboxState = 'pending' | 'delivered' | 'failed';

export interface OutboxEntry {
  /** The event id (`evt_...`): inserts are idempotent by it. */
  id: string;
  type: NotificationType;
  /** The exact JSON body sent on every try. */
  body: string;
  /** Deliveries with the same key go in the order they were queued (a session id, a query key). */
  orderKey: string;
  createdAt: string;
  state: OutboxState;
  attempts: number;
  /** Milliseconds since the epoch of the next try (pending only). */
  nextAttemptMs: number;
  lastAttemptAt?: string;
  /** Why the last try failed: `HTTP 500`, `timeout`, `connection refused`... never a body or a secret. */
  lastError?: string;
  deliveredAt?: string;
}

export interface OutboxUpdate {
  state: OutboxState;
  attempts: number;
  nextAttemptMs: number;
  lastAttemptAt?: string;
  lastError?: string;
  deliveredAt?: string;
}

/** Where a standalone query request stands (docs/backend-api.md#standalone-queries). */
export type QueryRequestStatus = 'pending' | 'completed' | 'failed';

/**
 * One `POST /v1/queries` the companion answered with an id (`qry_...`): synchronous queries are
 * stored completed; an asynchronous inspection stays pending until its consultation finishes it.
 */
export interface QueryRequestRecord {
  id: string;
  /** The service as the caller named it. */
  service: string;
  status: QueryRequestStatus;
  createdAt: string;
  completedAt?: string;
  /** The inspection's key (asynchronous inspections only). */
  key?: string;
  /** The session whose `document_inspection` check this inspection is: its end goes to the session, not to `query.completed`. */
  sessionId?: string;
  /** The outcome as answered or as the inspection finished (sealed at rest); absent while pending and once retention erased it. */
  outcome?: Record<string, unknown>;
  /** When retention erased the outcome. */
  outcomeErasedAt?: string;
  /** Pending only: when the upstream is next consulted (ms since the epoch), and how many consultations were made. */
  nextCheckMs?: number;
  checks?: number;
}

/** How a pending request ends. */
export interface QueryRequestEnd {
  status: 'completed' | 'failed';
  completedAt: string;
  outcome?: Record<string, unknown>;
}

export interface QueryPurgeCutoffs {
  /** Outcomes of requests completed (or failed) before this are erased; the request itself stays. */
  outcomesCompletedBefore: Date;
  /** Requests created before this are deleted whole. */
  createdBefore: Date;
}

export interface BackendPurgeCutoffs {
  /** Sessions that ended (completed, expired) before this. */
  sessionsEndedBefore: Date;
  /** Any session created before this, ended or not. */
  sessionsCreatedBefore: Date;
  /** Delivered and failed outbox entries whose last change is older than this. */
  outboxBefore: Date;
}

export interface BackendState {
  /** Stores a new session (`version` 1) with the hashes of its first client secret and its capture token. */
  createSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<void>;
  getSession(id: string): Promise<SessionRecord | null>;
  /** The session a secret (by its SHA-256, hex) belongs to, or null. */
  findSessionBySecret(kind: SessionSecretKind, secretHash: string): Promise<SessionRecord | null>;
  /** Adds a secret to a session (an idempotent replay issues a new client secret); false for an unknown session. */
  addSessionSecret(id: string, kind: SessionSecretKind, secretHash: string): Promise<boolean>;
  /**
   * Writes `next` (with `version` = `expectedVersion` + 1) only if the stored session still has
   * `expectedVersion`: true when written, false when someone changed it first or it is gone.
   */
  replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean>;
  /**
   * Listens to changes of one session written by `replaceSession`, wherever written (a shared
   * store tells every instance); the listener re-reads the session. Returns the unsubscribe
   * function. Listeners may be told more than once of one change, and after a gap in a shared
   * store's feed they are told anyway, so no change made during it goes unnoticed.
   */
  subscribeSession(id: string, listener: SessionChangeListener): () => void;
  /**
   * Points a hand-off key (the hash of a link's token or short code) at a session, live until
   * `liveUntilMs`: false (nothing changed) while another session's live key has that hash, so no
   * two live codes are alike. A lapsed key keeps pointing at its session until overwritten or
   * purged with it, so a late claim can be told the link expired.
   */
  putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean>;
  /**
   * The session a hand-off key points at, live or lapsed, or null: found in one read of the
   * store's own, which costs the same whether the key exists or not.
   */
  findHandoffSession(hash: string): Promise<SessionRecord | null>;
  /** Sessions of one `reference`, newest first, at most `limit`. */
  listSessionsByReference(reference: string, limit: number): Promise<SessionRecord[]>;
  /** The sessions a query lists, in listing order (rules/session-list.ts), at most `query.limit`. */
  listSessions(query: SessionQuery): Promise<SessionRecord[]>;
  /**
   * Deletes every secret and hand-off key of a session, so no page opens it again; the session
   * itself stays. Then whatever the deletion left in the store's files is cleaned away.
   */
  revokeSessionAccess(id: string): Promise<void>;
  /**
   * Rewrites a queued or settled notification's body with `redact(body)` (its state, tries and
   * order unchanged); false for an unknown id.
   */
  redactNotification(id: string, redact: (entry: OutboxEntry) => string): Promise<boolean>;

  /** Sessions in `status`, oldest `expiresAt` first; with `expiresBefore`, only those expiring before it. */
  listSessionsByStatus(status: SessionStatus, options: { limit: number; expiresBefore?: Date }): Promise<SessionRecord[]>;

  /**
   * Reserves `key` (already scoped by the caller: `sessions:<api-key-hash>:<Idempotency-Key>`)
   * for `ttlMs`, or tells what holds it. A pending reservation older than `pendingTtlMs` is free again.
   */
  reserveIdempotencyKey(key: string, fingerprint: string, options: { ttlMs: number; pendingTtlMs: number }): Promise<IdempotencyState>;
  /**
   * Remembers each attested hash with its nonce for `keepMs` unless it is remembered already
   * (rules/attested-hashes.ts), and answers, per entry, the nonce it was attested under before.
   */
  attestHashes(entries: readonly AttestedEntry[], keepMs: number): Promise<(string | null)[]>;
  /** Records the result of the request holding `key` (kept `ttlMs`). */
  completeIdempotencyKey(key: string, result: string, ttlMs: number): Promise<void>;
  /** Frees `key` after the request holding it failed, so a retry may run again. */
  releaseIdempotencyKey(key: string): Promise<void>;

  /** Adds an access key (by its hash) to an onboarding: a replayed creation answers a new one and earlier ones stay valid. False for an unknown token. */
  addAccessKey(tokenOnboarding: string, accessKeyHash: string): Promise<boolean>;

  /** Queues a notification; false (nothing changed) when an entry with this id exists. */
  enqueueNotification(entry: OutboxEntry): Promise<boolean>;
  /** Pending entries due at `nowMs`, in queue order, at most `limit`. */
  dueNotifications(nowMs: number, limit: number): Promise<OutboxEntry[]>;
  /** Records a try's result; false for an unknown id. */
  updateNotification(id: string, update: OutboxUpdate): Promise<boolean>;
  getNotification(id: string): Promise<OutboxEntry | null>;
  /** Entries in `state` (failed: gave up; pending with attempts > 0: failing), newest first, at most `limit`. */
  listNotifications(options: { state: OutboxState; failingOnly?: boolean; limit: number }): Promise<OutboxEntry[]>;

  /** Deletes ended sessions, old sessions (with their secrets and hand-off keys) and settled outbox entries; returns how many records went. */
  purgeBackendState(cutoffs: BackendPurgeCutoffs): Promise<number>;

  /** Stores a new query request; false (nothing changed) when its id exists. A key names its newest request. */
  insertQueryRequest(record: QueryRequestRecord): Promise<boolean>;
  getQueryRequest(id: string): Promise<QueryRequestRecord | null>;
  /** The newest request of an inspection key, or null. */
  findQueryRequestByKey(key: string): Promise<QueryRequestRecord | null>;
  /** Ends a pending request: true for the one call that ended it, false when it is not pending (or is unknown). */
  finishQueryRequest(id: string, end: QueryRequestEnd): Promise<boolean>;
  /** Sets a pending request's next consultation; false when it is not pending. */
  rescheduleQueryRequest(id: string, nextCheckMs: number, checks: number): Promise<boolean>;
  /** Pending requests whose next consultation is due at `nowMs`, soonest first, at most `limit`. */
  dueQueryRequests(nowMs: number, limit: number): Promise<QueryRequestRecord[]>;
  /** Erases old outcomes and deletes old requests (rules/query-requests.ts); returns how many records were touched. */
  purgeQueryRequests(cutoffs: QueryPurgeCutoffs): Promise<number>;
}
