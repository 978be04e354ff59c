/**
 * What can go wrong talking to the upstream, in terms the companion can map to its own errors.
 * Messages never carry a credential, an access token or personal data.
 */
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

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  /** HTTP status of the upstream answer, when there was one. */
  readonly httpStatus?: number;
  /** The upstream's `status.code`, when it sent one. */
  readonly code?: number;
  readonly externalId?: string;
  /** Which call failed, e.g. `POST /api/token-history-onboarding` (never with query strings). */
  readonly operation: string;

  constructor(
    kind: UpstreamErrorKind,
    operation: string,
    message: string,
    details: { httpStatus?: number; code?: number; externalId?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.kind = kind;
    this.operation = operation;
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.code !== undefined) this.code = details.code;
    if (details.externalId !== undefined) this.externalId = details.externalId;
  }
}

export function isUpstreamError(e: unknown): e is UpstreamError {
  return e instanceof UpstreamError;
}
