/**
 * The shapes the companion's backend routes answer and its notifications carry
 * (docs/backend-api.md), declared here so that the SDK installs alone. test/contract-types.test.ts
 * checks them against @onboarding-kit/contract, so the two cannot drift apart.
 */

import type { SessionIntegrity } from './integrity-types.js';

export const SESSION_STATUSES = ['open', 'submitted', 'completed', 'expired', 'cancelled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export type OnboardingStatus = 'IN_PROCESS' | 'APPROVED' | 'REFUSED' | 'ERROR';

export type ImageRoleName = 'documentFront' | 'documentBack' | 'selfie';

/** The page's check that refused a photo the person kept anyway. */
export type KeptCheck =
  | 'too-small'
  | 'blurry'
  | 'too-dark'
  | 'too-bright'
  | 'no-face'
  | 'several-faces'
  | 'face-too-small'
  | 'face-off-center'
  | 'no-document';

export type KeptAnyway = Partial<Record<ImageRoleName, KeptCheck>>;

/** Body of `POST /v1/sessions`. */
export interface CreateSessionParams {
  /** The integrator's id for the person, 1 to 128 printable characters. */
  reference: string;
  cpf?: string;
  cnpj?: string;
  name?: string;
  documentTypes?: string[];
  locale?: string;
  returnUrl?: string;
  /** Seconds until the session expires (default 1800, 60 to 86400). */
  expiresIn?: number;
  metadata?: Record<string, string>;
  /** The upstream's instant checks to run once the photos are in. */
  checks?: SessionCheck[];
  /** Offer the CPF and name the document's OCR reads, for the person to confirm (needs `ocr` in `checks`). */
  prefillFromDocument?: boolean;
  /** Optional steps added to the flow. */
  steps?: SessionStep[];
}

export type SessionCheck = 'ocr' | 'face_match' | 'cnh_validation' | 'document_inspection';
export type SessionStep = 'proof-of-address';

/** One instant check of a session and where it stands (the companion's docs/backend-api.md#checks). */
export interface CheckResult {
  check: SessionCheck | 'proof_of_address';
  /** The upstream service called. */
  service: string;
  /** `pending`: no final answer yet; `done`: processed (`result` holds the upstream's data, a mismatch included); `refused`: the upstream's business refusal; `failed`: a technical failure, after the retries. */
  state: 'pending' | 'done' | 'refused' | 'failed';
  outcome?: QueryOutcomeKind;
  /** The upstream's `result`, non-contract members removed, as received. */
  result?: Record<string, unknown>;
  /** The upstream's message, masked. */
  message?: string;
  externalId?: string;
  requestedAt: string;
  completedAt?: string;
}

/** `checks` of a session: what was asked and each result; `completedAt` once none is pending. */
export interface SessionChecks {
  requested: CheckResult['check'][];
  results: CheckResult[];
  completedAt?: string;
}

/** What the page read from one document photo; a record, never a verdict. */
export interface SideReading {
  qr?: { payloadBase64: string };
  mrz?: {
    format: 'TD1' | 'TD2' | 'TD3';
    lines: string[];
    fields: Record<string, string>;
    checks: { field: 'documentNumber' | 'birthDate' | 'expirationDate' | 'personalNumber' | 'composite'; valid: boolean }[];
    valid: boolean;
  };
  documentKind?: 'CNH' | 'CIN' | 'PASSPORT';
}

export type DocumentReading = Partial<Record<'documentFront' | 'documentBack', SideReading>>;

/** Answer of `POST /v1/sessions`. */
export interface CreatedSession {
  id: string;
  /** For the page only; the companion keeps its hash and cannot show it again. */
  clientSecret: string;
  /** The hosted capture page of this session. */
  url: string;
  status: SessionStatus;
  expiresAt: string;
  reference: string;
}

export interface SessionHistoryEntry {
  status: OnboardingStatus;
  at: string;
  source: 'creation' | 'webhook' | 'poll';
}

export interface SessionOnboarding {
  tokenOnboarding: string;
  status: OnboardingStatus;
  externalId?: string;
  /** `null` once the onboarding's own record is gone (retention). */
  history: SessionHistoryEntry[] | null;
  keptAnyway?: KeptAnyway;
  /** The `services` member of the upstream's report that brought the final status, as the upstream sent it (its shape is not shown: read it as received). */
  services?: unknown;
}

/** A session as `GET /v1/sessions/{id}` shows it, and the `data` of every `session.*` notification. */
export interface SessionView {
  id: string;
  /** What the person reads out to support from the element's error screen (`K7QM-4XPD`); `list({ supportCode })` finds the session by it. */
  supportCode: string;
  reference: string;
  status: SessionStatus;
  createdAt: string;
  expiresAt: string;
  metadata: Record<string, string>;
  returnUrl?: string;
  /** Set once the session's personal data was erased (`sessions.redact`). */
  redactedAt?: string;
  onboarding?: SessionOnboarding;
  /** The instant checks asked for and their results (absent: none asked for). */
  checks?: SessionChecks;
  /** What the page read from the document photos; a record, never a verdict (absent: nothing read). */
  documentReading?: DocumentReading;
  /** Once the onboarding is created: the capture's liveness, signals and attestation (docs/backend-api.md#capture-integrity). */
  integrity?: SessionIntegrity;
}

/** Filters of `GET /v1/sessions`; every one optional. */
export interface ListSessionsParams {
  reference?: string;
  status?: SessionStatus;
  /** ISO 8601 time, or a Date. */
  createdAfter?: string | Date;
  createdBefore?: string | Date;
  /** 1 to 100 (the companion's default: 20). */
  limit?: number;
  /** `nextCursor` of a previous page. */
  cursor?: string;
  /** The code the person read out from the element's error screen (`K7QM-4XPD`, any case, with or without the hyphen). */
  supportCode?: string;
}

/** One page of `GET /v1/sessions`, newest first. */
export interface SessionPage {
  data: SessionView[];
  /** Pass it as `cursor` for the next page; `null` on the last one. */
  nextCursor: string | null;
}

export type QueryOutcomeKind =
  | 'success'
  | 'no-data'
  | 'refused'
  | 'error'
  | 'no-access'
  | 'missing-image'
  | 'face-not-found'
  | 'unauthorized'
  | 'failed';

/** The classified answer of one upstream query (docs/upstream-api.md#errors-and-classification). */
export interface QueryOutcome {
  kind: QueryOutcomeKind;
  /** True for `success` and `no-data`: the query was processed. */
  ok: boolean;
  code?: number;
  message?: string;
  externalId?: string;
  result?: Record<string, unknown>;
  retryable: boolean;
}

/** Body of `POST /v1/queries`: the service and its request fields, every field a string. */
export interface RunQueryParams {
  service: string;
  /** Ask for a `query.completed` notification even for a synchronous answer. */
  notify?: boolean;
  [field: string]: string | boolean | undefined;
}

/** Answer of `POST /v1/queries`. */
export interface QueryAnswer extends QueryOutcome {
  /** `qry_…`: read it again with `queries.retrieve`; `requestId` of its `query.completed`. */
  id: string;
  /** The inspection's key (asynchronous inspections only). */
  key?: string;
}

/** `GET /v1/queries/{id}`. */
export interface QueryRecord {
  id: string;
  service: string;
  status: 'pending' | 'completed' | 'failed';
  createdAt: string;
  completedAt?: string;
  key?: string;
  /** The outcome as `POST` answered it, or as the inspection finished; absent while pending, for an inspection given up, and once retention erased it. */
  result?: QueryOutcome & { key?: string };
  /** When retention erased `result`. */
  resultErasedAt?: string;
}

/** The upstream's report of one onboarding (`GET /v1/admin/onboardings/{token}`), non-contract members removed. */
export interface OnboardingReport {
  [member: string]: unknown;
}

export type Environment = 'test' | 'production';

export const NOTIFICATION_TYPES = [
  'session.submitted',
  'session.completed',
  'session.expired',
  'session.cancelled',
  'session.redacted',
  'session.checks_completed',
  'query.completed',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** `data` of `query.completed`: the request, then its outcome (whose members are absent for an inspection the companion gave up on). */
export type QueryCompletedData = Partial<QueryOutcome> & {
  /** The `id` (`qry_…`) that `POST /v1/queries` answered. */
  requestId: string;
  service: string;
  /** How the request ended. */
  status?: 'completed' | 'failed';
  /** The inspection's key. */
  key?: string;
};

interface NotificationOf<T extends NotificationType, D> {
  /** `evt_…`: the same event may arrive more than once; dedupe by it. */
  id: string;
  type: T;
  createdAt: string;
  environment: Environment;
  data: D;
}

export type SessionSubmitted = NotificationOf<'session.submitted', SessionView>;
export type SessionCompleted = NotificationOf<'session.completed', SessionView>;
export type SessionExpired = NotificationOf<'session.expired', SessionView>;
export type SessionCancelled = NotificationOf<'session.cancelled', SessionView>;
export type SessionRedacted = NotificationOf<'session.redacted', SessionView>;
export type SessionChecksCompleted = NotificationOf<'session.checks_completed', SessionView>;
export type QueryCompleted = NotificationOf<'query.completed', QueryCompletedData>;

/** Every notification the companion sends; `switch (event.type)` narrows `data`. */
export type OnboardingNotification =
  | SessionSubmitted
  | SessionCompleted
  | SessionExpired
  | SessionCancelled
  | SessionRedacted
  | SessionChecksCompleted
  | QueryCompleted;

/** The `upstream` member of an `upstream_*` error: what the upstream itself said. */
export interface UpstreamFailure {
  type: 'credentials' | 'product' | 'permission' | 'unavailable' | 'unknown';
  status?: number;
  code?: string;
  message?: string;
}

/** Every `code` of the companion's error catalogue (packages/contract/src/errors.ts). */
export const API_ERROR_CODES = [
  'invalid_json',
  'unsupported_media_type',
  'invalid_request',
  'invalid_cpf',
  'invalid_cnpj',
  'missing_tax_id',
  'invalid_field',
  'missing_field',
  'invalid_password',
  'missing_image',
  'invalid_image',
  'image_too_large',
  'payload_too_large',
  'upload_too_slow',
  'not_found',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'upstream_refused',
  'upstream_error',
  'upstream_unavailable',
  'upstream_timeout',
  'store_unavailable',
  'busy',
  'session_used',
  'session_expired',
  'session_cancelled',
  'session_mismatch',
  'session_handed_off',
  'idempotency_conflict',
  'idempotency_in_progress',
  'handoff_invalid',
  'handoff_expired',
  'handoff_used',
  'page_unavailable',
  'prefill_unavailable',
  'document_unreadable',
  'client_closed_request',
  'internal_error',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
