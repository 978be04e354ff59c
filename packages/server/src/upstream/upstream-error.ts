/**
 * What can go wrong talking to the upstream, in terms the companion can map to its own errors.
 * `message` is the companion's own text and never carries a credential, an access token or personal
 * data; what the upstream itself answered (its HTTP status, `status.code` and `status.message`) is
 * kept beside it, the message made safe to show by `safeUpstreamMessage`.
 */
import type { Outcome, UpstreamFailureType } from '@onboarding-kit/contract';

export type UpstreamErrorKind =
  /** No answer within the timeout. */
  | 'timeout'
  /** Network failure, or the upstream said it is unavailable (502/503/504). */
  | 'unavailable'
  /** The upstream refused the input (HTTP 400 or an in-body 4xx / REFUSED). */
  | 'refused'
  /** The upstream refused the companion itself (credentials, product, permissions). */
  | 'unauthorized'
  /** A technical failure reported by the upstream (HTTP 5xx, ERROR, in-body 5xx). */
  | 'failed'
  /** An answer the kit cannot read (not JSON, missing members). */
  | 'invalid_response';

export interface UpstreamErrorDetails {
  httpStatus?: number;
  code?: number;
  externalId?: string;
  /** The upstream's `status.message`, as it sent it (made safe here). */
  upstreamMessage?: string;
  /** Why it failed, when the caller knows better than `failureType` (a service the product does not enable). */
  type?: UpstreamFailureType;
  cause?: unknown;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  /** Why the upstream failed the call (docs/page-api.md#upstream-failures). */
  readonly type: UpstreamFailureType;
  /** HTTP status of the upstream answer, when there was one. */
  readonly httpStatus?: number;
  /** The upstream's `status.code`, when it sent one. */
  readonly code?: number;
  readonly externalId?: string;
  /** Which call failed, e.g. `POST /api/token-history-onboarding` (never with query strings). */
  readonly operation: string;
  /** As the upstream sent it (cut to a bound); only ever read through `upstreamMessage`. */
  #rawMessage: string | undefined;
  #secretValues: readonly string[] = [];

  constructor(kind: UpstreamErrorKind, operation: string, message: string, details: UpstreamErrorDetails = {}) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.kind = kind;
    this.operation = operation;
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.code !== undefined) this.code = details.code;
    if (details.externalId !== undefined) this.externalId = details.externalId;
    this.type = details.type ?? failureType(kind, operation, details.httpStatus, details.code);
    if (typeof details.upstreamMessage === 'string' && details.upstreamMessage.trim())
      this.#rawMessage = details.upstreamMessage.slice(0, 4 * UPSTREAM_MESSAGE_MAX);
  }

  /** The upstream's own `status.message`, safe to show a backend (see `safeUpstreamMessage`); absent when it sent none. */
  get upstreamMessage(): string | undefined {
    if (this.#rawMessage === undefined) return undefined;
    return safeUpstreamMessage(maskValues(this.#rawMessage, this.#secretValues)) || undefined;
  }

  /** Values the caller knows to be secret (the client's credentials, its access token), masked wherever the upstream echoed them. */
  maskCredentials(values: readonly string[]): this {
    this.#secretValues = [...this.#secretValues, ...values];
    return this;
  }
}

export function isUpstreamError(e: unknown): e is UpstreamError {
  return e instanceof UpstreamError;
}

const TOKEN_ENDPOINT = 'POST /api/token-generate';

/**
 * Why a call failed, from what its answer shows (docs/upstream-api.md#errors-and-classification):
 * the token endpoint refusing (401 or 403), or a real HTTP 401 that a fresh token did not cure, is the
 * credentials; an in-body 401 is the product (inactive or not found); a real 403 is a permission;
 * no answer, 408, 429 and any 5xx (real or in-body) are the upstream being unavailable.
 */
export function failureType(kind: UpstreamErrorKind, operation: string, httpStatus?: number, code?: number): UpstreamFailureType {
  if (kind === 'timeout' || kind === 'unavailable') return 'unavailable';
  if (operation === TOKEN_ENDPOINT && (httpStatus === 401 || httpStatus === 403 || kind === 'unauthorized')) return 'credentials';
  if (httpStatus === 403) return 'permission';
  if (httpStatus === 401) return 'credentials';
  if (code === 401) return 'product';
  if (httpStatus !== undefined && (httpStatus >= 500 || httpStatus === 408 || httpStatus === 429)) return 'unavailable';
  if (code !== undefined && code >= 500) return 'unavailable';
  return 'unknown';
}

/** Longest upstream message passed on. */
export const UPSTREAM_MESSAGE_MAX = 200;
const MASK = '[masked]';

/**
 * The upstream's `status.message` as the companion passes it on: the upstream may echo what it was
 * sent, so whatever looks like personal data or a secret is masked (CPFs and CNPJs formatted or
 * not, other runs of 9 or more digits, e-mail addresses, JWTs, Bearer values and any run of 24 or
 * more token characters, UUIDs included), control characters and repeated spaces go, and the text
 * is cut at `UPSTREAM_MESSAGE_MAX` characters. What cannot be told apart from text is kept: a
 * name the upstream echoed stays readable, so the message is for a backend or an operator, never
 * for a page.
 */
export function safeUpstreamMessage(text: string): string {
  const masked = text
    .slice(0, 4 * UPSTREAM_MESSAGE_MAX)
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\bBearer\s+\S+/gi, `Bearer ${MASK}`)
    .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g, MASK)
    .replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, MASK)
    .replace(/[A-Za-z0-9_+/=-]{24,}/g, MASK)
    .replace(/\b\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}\b/g, MASK)
    .replace(/\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g, MASK)
    .replace(/\d[\d .-]{7,}\d/g, (run) => (run.replace(/\D/g, '').length >= 9 ? MASK : run))
    .replace(/\s{2,}/g, ' ')
    .trim();
  return masked.length > UPSTREAM_MESSAGE_MAX ? `${masked.slice(0, UPSTREAM_MESSAGE_MAX - 1)}…` : masked;
}

function maskValues(text: string, values: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is masked whole.
  for (const v of [...values].filter((x) => x.length >= 4).sort((a, b) => b.length - a.length)) out = out.split(v).join(MASK);
  return out;
}

/**
 * `failureType` for a query's outcome that is no answer (upstream/upstream-client.ts returns those
 * classified rather than thrown): an `ERROR` without a status code but worth repeating is an HTTP
 * 5xx or an answer that was no envelope, so the upstream being unavailable.
 */
export function outcomeFailureType(outcome: Pick<Outcome, 'kind' | 'code' | 'retryable'>, operation: string): UpstreamFailureType {
  if (outcome.kind === 'no-access') return 'product';
  if (outcome.kind === 'error' && outcome.code === undefined && outcome.retryable) return 'unavailable';
  return failureType(outcome.kind === 'unauthorized' ? 'unauthorized' : 'failed', operation, undefined, outcome.code);
}
