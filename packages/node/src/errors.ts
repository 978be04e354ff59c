/**
 * What a call or a verification throws. No message ever holds the API key or a notify secret:
 * messages are built from the companion's error body, the method and the path only.
 */
import type { ApiErrorCode, UpstreamFailure } from './types.js';

/** Every error this package throws on purpose. */
export class OnboardingError extends Error {
  override name = 'OnboardingError';
}

export interface ApiErrorDetails {
  status: number;
  code: ApiErrorCode | (string & {});
  message: string;
  field?: string;
  externalId?: string;
  upstream?: UpstreamFailure;
  requestId?: string;
  /** Seconds the companion asked to wait (`Retry-After`), when it said. */
  retryAfterS?: number;
}

/** The companion answered with its error shape (`{"error": {"code", "message", ...}}`) or another non-2xx. */
export class OnboardingApiError extends OnboardingError {
  override name = 'OnboardingApiError';
  readonly status: number;
  /** The catalogue's code (docs/page-api.md#error-shape); `http_<status>` for an answer without the error shape. */
  readonly code: ApiErrorCode | (string & {});
  /** The request member the error names. */
  readonly field?: string;
  /** The upstream's identifier of the failed call, to quote to its support. */
  readonly externalId?: string;
  /** What the upstream itself said, on `upstream_*` errors. */
  readonly upstream?: UpstreamFailure;
  /** The companion's `X-Request-Id` of the answer, to find its log lines. */
  readonly requestId?: string;
  readonly retryAfterS?: number;

  constructor(details: ApiErrorDetails) {
    super(details.message);
    this.status = details.status;
    this.code = details.code;
    if (details.field !== undefined) this.field = details.field;
    if (details.externalId !== undefined) this.externalId = details.externalId;
    if (details.upstream !== undefined) this.upstream = details.upstream;
    if (details.requestId !== undefined) this.requestId = details.requestId;
    if (details.retryAfterS !== undefined) this.retryAfterS = details.retryAfterS;
  }
}

/** The companion could not be reached, or the connection failed before an answer (after the retries allowed). */
export class OnboardingConnectionError extends OnboardingError {
  override name = 'OnboardingConnectionError';
}

/** No answer within `timeoutMs` (after the retries allowed). */
export class OnboardingTimeoutError extends OnboardingConnectionError {
  override name = 'OnboardingTimeoutError';
}

export type SignatureFailure =
  /** No `Onboarding-Signature` header. */
  | 'missing_header'
  /** A header that is not `t=<seconds>,v1=<hex>[,v1=<hex>...]`. */
  | 'malformed_header'
  /** `t` is further from now than the tolerance: a replayed or delayed request. */
  | 'timestamp_out_of_tolerance'
  /** No `v1` matches these bytes with any of the secrets. */
  | 'no_matching_signature'
  /** Signed, but not a notification (not JSON, or without id, type, createdAt, data); or a body that is not raw bytes. */
  | 'invalid_payload';

/** A notification that must not be trusted: answer 4xx (the companion retries, then marks it failed). */
export class SignatureVerificationError extends OnboardingError {
  override name = 'SignatureVerificationError';
  readonly reason: SignatureFailure;

  constructor(reason: SignatureFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}
