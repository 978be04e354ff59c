/**
 * The integrator's backend contract: sessions opened server to server for a person the integrator
 * knows, the page's view of its session, and the signed notifications the companion sends to the
 * integrator (docs/backend-api.md).
 */
import type { OnboardingStatus } from './envelope.js';
import type { PageHandoffState } from './handoff.js';
import type { ApiErrorCode } from './errors.js';
import type { KeptAnyway, Validation } from './page-api.js';
import type { DocumentReading } from './document-reading.js';
import type { SessionIntegrity } from './capture-integrity.js';
import type { SessionCheck, SessionChecks, SessionStep } from './session-checks.js';
import { isPersonName } from './person-name.js';
import { sessionOptionsOf, type ValidSessionOptions } from './session-options.js';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from './tax-id.js';

export const SESSION_STATUSES = ['open', 'submitted', 'completed', 'expired', 'cancelled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SESSION_LIMITS = {
  referenceMaxLength: 128,
  defaultExpiresInS: 1800,
  minExpiresInS: 60,
  maxExpiresInS: 86_400,
  metadataMaxEntries: 20,
  metadataKeyMaxLength: 40,
  metadataValueMaxLength: 500,
  documentTypesMax: 10,
  /** Largest `POST /v1/sessions` body. */
  maxBodyBytes: 16 * 1024,
  /** `GET /v1/sessions` answers at most this many per page, newest first. */
  listMax: 100,
  /** `GET /v1/sessions` answers this many per page when `limit` is absent. */
  listDefault: 20,
} as const;

export const SESSION_LOCALES = ['pt-BR', 'en', 'es'] as const;
export type SessionLocale = (typeof SESSION_LOCALES)[number];

/** Maps any BCP 47 tag to a supported locale: `en-GB` -> `en`, `es-AR` -> `es`, anything else -> `pt-BR`. */
export function resolveLocale(tag: string | null | undefined): SessionLocale {
  const lower = (tag ?? '').trim().toLowerCase();
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  if (lower === 'es' || lower.startsWith('es-')) return 'es';
  return 'pt-BR';
}

/** Body of `POST /v1/sessions`. */
export interface CreateSessionRequest {
  reference: string;
  cpf?: string;
  cnpj?: string;
  name?: string;
  documentTypes?: string[];
  locale?: string;
  returnUrl?: string;
  /** Seconds until the session expires (default 1800, at most 86400). */
  expiresIn?: number;
  metadata?: Record<string, string>;
  /** The upstream's instant checks to run once the photos are in (docs/backend-api.md). */
  checks?: SessionCheck[];
  /** Offer the CPF and name the upstream's OCR reads from the document, for the person to confirm (needs `ocr` in `checks`). */
  prefillFromDocument?: boolean;
  /** Optional steps added to the flow. */
  steps?: SessionStep[];
}

/** 201 (or 200 on an idempotent replay) answer of `POST /v1/sessions`. */
export interface CreateSessionResponse {
  id: string;
  /** Goes to the page only; the companion keeps its hash. */
  clientSecret: string;
  /** The hosted capture page of this session. */
  url: string;
  /** `open` when created; an idempotent replay answers the session's status now. */
  status: SessionStatus;
  expiresAt: string;
  reference: string;
}

export interface SessionHistoryEntry {
  status: OnboardingStatus;
  at: string;
  source: 'creation' | 'webhook' | 'poll';
}

/** The onboarding a session produced, as the backend sees it. */
export interface SessionOnboarding {
  tokenOnboarding: string;
  status: OnboardingStatus;
  externalId?: string;
  /** Status changes as the companion saw them; `null` once the companion no longer holds them (retention). */
  history: SessionHistoryEntry[] | null;
  /** Photos the person kept although a check of the page refused them, by role: the check that failed (absent: none). */
  keptAnyway?: KeptAnyway;
  /**
   * The `services` member of the upstream's report that brought the final status, exactly as the
   * upstream sent it (docs/backend-api.md#the-reports-services). Not part of the upstream's
   * contract: its shape is not shown, so read it as received and never rely on a member of it.
   * Absent until the final status, and when the report had none.
   */
  services?: unknown;
}

/** `GET /v1/sessions/{id}`, each entry of the list, and the `data` of session notifications: never a secret. */
export interface SessionView {
  id: string;
  /** What the element shows the person to read out to support (support-code.ts); `GET /v1/sessions?supportCode=` finds the session by it. */
  supportCode: string;
  reference: string;
  status: SessionStatus;
  createdAt: string;
  expiresAt: string;
  metadata: Record<string, string>;
  returnUrl?: string;
  onboarding?: SessionOnboarding;
  /** When `POST /v1/sessions/{id}/redact` erased the session's personal data (absent: never redacted). */
  redactedAt?: string;
  /** The instant checks asked for and their results (absent: none asked for). */
  checks?: SessionChecks;
  /** What the page read from the document photos; a record, never a verdict (absent: nothing read). */
  documentReading?: DocumentReading;
  /** What the page saw while it captured and whether its attestation holds (absent: no onboarding yet). */
  integrity?: SessionIntegrity;
}

/** `GET /v1/sessions`: a page of sessions, newest first; `nextCursor` asks for the next page (null: none). */
export interface SessionList {
  data: SessionView[];
  nextCursor: string | null;
}

/** `GET /v1/session`, read by the page with its client secret. */
export interface PageSession {
  id: string;
  status: SessionStatus;
  expiresAt: string;
  prefill: { cpf?: string; cnpj?: string; name?: string };
  /** Document types offered, in order (empty: the element's own default). */
  documentTypes: string[];
  locale: string;
  returnUrl?: string;
  /** Which device holds the session (absent: the companion offers no hand-off, or an older one). */
  handoff?: PageHandoffState;
  /** Whether the page offers the CPF and name the document's OCR reads, to confirm before sending. */
  prefillFromDocument?: boolean;
  /** Optional steps the session adds to the flow. */
  steps?: SessionStep[];
}

/** Body of `POST /v1/session/exchange`: the capture token of a session's `url`, as the hosted page read it from its address. */
export interface CaptureExchangeRequest {
  captureToken: string;
}

/** 201 answer of `POST /v1/session/exchange`: the hosted page's own secret for the session (its Bearer from then on). */
export interface CaptureExchange {
  pageSecret: string;
  sessionId: string;
}

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

/** What the companion POSTs to `ONBOARDING_NOTIFY_URL`; receivers dedupe by `id`. */
export interface NotificationEvent<T = unknown> {
  id: string;
  type: NotificationType;
  createdAt: string;
  /** The sending companion's `ONBOARDING_ENVIRONMENT`: a receiver shared by both keeps test events apart. */
  environment: 'test' | 'production';
  data: T;
}

/** The header carrying a notification's signatures. */
export const NOTIFICATION_SIGNATURE_HEADER = 'Onboarding-Signature';

export interface ValidCreateSession extends ValidSessionOptions {
  reference: string;
  taxId?: { kind: 'cpf' | 'cnpj'; value: string };
  name?: string;
  documentTypes: string[];
  locale: string;
  returnUrl?: string;
  expiresInS: number;
  metadata: Record<string, string>;
}

const fail = (code: ApiErrorCode, message: string, field?: string): Validation<never> => ({
  ok: false,
  status: 400,
  error: { code, message, ...(field && { field }) },
});

const DOCUMENT_TYPE = /^[A-Z0-9_-]{1,40}$/;
// eslint-disable-next-line no-control-regex -- a reference is printable: control characters are what it refuses
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const KNOWN_FIELDS = new Set([
  'reference',
  'cpf',
  'cnpj',
  'name',
  'documentTypes',
  'locale',
  'returnUrl',
  'expiresIn',
  'metadata',
  'checks',
  'prefillFromDocument',
  'steps',
]);

/** Checks a `POST /v1/sessions` body; every refusal names its field. */
export function validateCreateSession(body: unknown): Validation<ValidCreateSession> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return fail('invalid_request', 'The body must be a JSON object.');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b))
    if (!KNOWN_FIELDS.has(key)) return fail('invalid_field', `Unknown field "${key.slice(0, 40)}".`, key.slice(0, 40));

  const { reference } = b;
  if (
    typeof reference !== 'string' ||
    reference.length < 1 ||
    reference.length > SESSION_LIMITS.referenceMaxLength ||
    CONTROL_CHARACTER.test(reference)
  ) {
    return fail(
      'invalid_field',
      `reference is required: the integrator's id for the person, 1 to ${SESSION_LIMITS.referenceMaxLength} printable characters.`,
      'reference',
    );
  }

  const tax = taxIdOf(b);
  if (!tax.ok) return tax;
  const taxId = tax.value;

  if (b.name !== undefined && (typeof b.name !== 'string' || !b.name.trim() || !isPersonName(b.name.trim())))
    return fail('invalid_field', 'name must be plain text of 1 to 200 characters: letters, spaces and common marks, no digits.', 'name');

  const types = documentTypesOf(b.documentTypes);
  if (!types.ok) return types;
  const documentTypes = types.value;

  let locale = 'pt-BR';
  if (b.locale !== undefined) {
    if (typeof b.locale !== 'string' || !(SESSION_LOCALES as readonly string[]).includes(b.locale))
      return fail('invalid_field', `locale must be one of ${SESSION_LOCALES.join(', ')}.`, 'locale');
    locale = b.locale;
  }

  let returnUrl: string | undefined;
  if (b.returnUrl !== undefined) {
    if (typeof b.returnUrl !== 'string' || b.returnUrl.length > 2048 || !isHttpUrl(b.returnUrl))
      return fail('invalid_field', 'returnUrl must be an absolute http(s) URL of at most 2048 characters.', 'returnUrl');
    returnUrl = b.returnUrl;
  }

  const expires = expiresInOf(b.expiresIn);
  if (!expires.ok) return expires;
  const expiresInS = expires.value;

  const meta = metadataOf(b.metadata);
  if (!meta.ok) return meta;
  const metadata = meta.value;

  const options = sessionOptionsOf(b);
  if (!options.ok) return options;

  return {
    ok: true,
    value: {
      reference,
      ...(taxId && { taxId }),
      ...(typeof b.name === 'string' && { name: b.name.trim() }),
      documentTypes,
      locale,
      ...(returnUrl && { returnUrl }),
      expiresInS,
      metadata,
      ...options.value,
    },
  };
}

/** Seconds until the session expires, the default when absent. */
function expiresInOf(value: unknown): Validation<number> {
  if (value === undefined) return { ok: true, value: SESSION_LIMITS.defaultExpiresInS };
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < SESSION_LIMITS.minExpiresInS ||
    value > SESSION_LIMITS.maxExpiresInS
  ) {
    return fail(
      'invalid_field',
      `expiresIn must be a whole number of seconds from ${SESSION_LIMITS.minExpiresInS} to ${SESSION_LIMITS.maxExpiresInS}.`,
      'expiresIn',
    );
  }
  return { ok: true, value };
}

/** The person's CPF or company's CNPJ, normalised; at most one of the two. */
function taxIdOf(b: Record<string, unknown>): Validation<ValidCreateSession['taxId']> {
  if (b.cpf !== undefined && b.cnpj !== undefined) return fail('invalid_request', 'Send either cpf or cnpj, not both.', 'cnpj');
  if (b.cpf !== undefined) {
    if (typeof b.cpf !== 'string' || !isValidCpf(b.cpf)) return fail('invalid_cpf', 'The CPF is not valid: check its 11 digits.', 'cpf');
    return { ok: true, value: { kind: 'cpf', value: normalizeCpf(b.cpf)! } };
  }
  if (b.cnpj !== undefined) {
    if (typeof b.cnpj !== 'string' || !isValidCnpj(b.cnpj))
      return fail('invalid_cnpj', 'The CNPJ is not valid: check its 14 characters.', 'cnpj');
    return { ok: true, value: { kind: 'cnpj', value: normalizeCnpj(b.cnpj)! } };
  }
  return { ok: true, value: undefined };
}

/** The document types offered, upper-cased and without repeats; none when the field is absent. */
function documentTypesOf(value: unknown): Validation<string[]> {
  if (value === undefined) return { ok: true, value: [] };
  if (!Array.isArray(value) || value.length < 1 || value.length > SESSION_LIMITS.documentTypesMax) {
    return fail(
      'invalid_field',
      `documentTypes must be a list of 1 to ${SESSION_LIMITS.documentTypesMax} document types.`,
      'documentTypes',
    );
  }
  for (const t of value) {
    if (typeof t !== 'string' || !DOCUMENT_TYPE.test(t.trim().toUpperCase()))
      return fail('invalid_field', 'Each document type is 1 to 40 letters, digits, "_" or "-" (CNH, RG, PASSPORT...).', 'documentTypes');
  }
  return { ok: true, value: [...new Set(value.map((t: string) => t.trim().toUpperCase()))] };
}

function metadataOf(value: unknown): Validation<Record<string, string>> {
  const metadata: Record<string, string> = {};
  if (value === undefined) return { ok: true, value: metadata };
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return fail('invalid_field', 'metadata must be an object of string values.', 'metadata');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > SESSION_LIMITS.metadataMaxEntries)
    return fail('invalid_field', `metadata holds at most ${SESSION_LIMITS.metadataMaxEntries} values.`, 'metadata');
  for (const [k, v] of entries) {
    if (k.length < 1 || k.length > SESSION_LIMITS.metadataKeyMaxLength)
      return fail('invalid_field', `Each metadata key is 1 to ${SESSION_LIMITS.metadataKeyMaxLength} characters.`, 'metadata');
    if (typeof v !== 'string' || v.length > SESSION_LIMITS.metadataValueMaxLength)
      return fail(
        'invalid_field',
        `metadata.${k} must be a string of at most ${SESSION_LIMITS.metadataValueMaxLength} characters.`,
        `metadata.${k}`,
      );
    metadata[k] = v;
  }
  return { ok: true, value: metadata };
}

/** An absolute http(s) URL (return URLs, notification receivers, public base URLs). */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Where the person goes back to the integrator: the session's `returnUrl` with `session` (its id)
 * and `status` added, or null when it is not an absolute http(s) URL.
 */
export function returnHref(returnUrl: string, sessionId: string, status: string): string | null {
  if (!isHttpUrl(returnUrl)) return null;
  const url = new URL(returnUrl);
  url.searchParams.set('session', sessionId);
  url.searchParams.set('status', status);
  return url.href;
}
