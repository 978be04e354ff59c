/**
 * The companion's one HTTP error. Every failure a route answers leaves as a `CompanionError`,
 * rendered as `{"error": {code, message, field?, externalId?, upstream?}}` with a real HTTP status
 * (docs/page-api.md#error-shape): services and routes throw a `DomainError` (errors/domain-error.ts)
 * that the one `onError` turns into it, with the status of the contract's catalogue (`API_ERRORS`).
 */
import type { ApiError, ApiErrorCode, UpstreamFailure } from '@onboarding-kit/contract';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorDetails } from '../errors/domain-error.js';
import { refusalHeaders } from '../errors/error-answer.js';

export interface CompanionErrorDetails {
  /** The request member at fault (`cpf`, `images.selfie`, `password`...). */
  field?: string;
  /** The upstream's identifier of a failed call, for support. */
  externalId?: string;
  /** Why the upstream failed (`upstream_*` codes). */
  upstream?: UpstreamFailure;
  /** Headers of the answer (`Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  /** For the log only; never rendered. */
  cause?: unknown;
}

/** The error shape (`ApiErrorBody`), its code open to a host's own. */
export interface CompanionErrorBody {
  error: Omit<ApiError, 'code'> & { code: ApiErrorCode | (string & {}) };
}

export class CompanionError extends HTTPException {
  override readonly name = 'CompanionError';
  /**
   * A catalogue code on every answer of the companion's routes (they throw `DomainError`s); a host
   * that throws it from routes of its own may answer codes of its own.
   */
  readonly code: ApiErrorCode | (string & {});
  readonly field?: string;
  readonly externalId?: string;
  readonly upstream?: UpstreamFailure;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: ContentfulStatusCode, code: ApiErrorCode | (string & {}), message: string, details: CompanionErrorDetails = {}) {
    super(status, { message, ...(details.cause !== undefined && { cause: details.cause }) });
    this.code = code;
    if (details.field) this.field = details.field;
    if (details.externalId) this.externalId = details.externalId;
    if (details.upstream) this.upstream = { ...details.upstream };
    this.headers = { ...details.headers };
  }

  toBody(): CompanionErrorBody {
    const error: CompanionErrorBody['error'] = { code: this.code, message: this.message };
    if (this.field) error.field = this.field;
    if (this.externalId) error.externalId = this.externalId;
    if (this.upstream) error.upstream = { ...this.upstream };
    return { error };
  }

  /** The same answer when a host renders it with its own handler (Hono's default calls this). */
  override getResponse(): Response {
    return Response.json(this.toBody(), { status: this.status, headers: { ...this.headers, 'Cache-Control': 'no-store' } });
  }
}

/** The HTTP answer of a domain error: the catalogue's status, its retry and realm hints as headers. */
export function fromDomain(error: DomainError): CompanionError {
  return new CompanionError(error.status as ContentfulStatusCode, error.code, error.message, {
    ...(error.field && { field: error.field }),
    ...(error.externalId && { externalId: error.externalId }),
    ...(error.upstream && { upstream: error.upstream }),
    headers: refusalHeaders(error),
    ...(error.cause !== undefined && { cause: error.cause }),
  });
}

/**
 * A refusal of Hono middleware and of the public builders (`requireApiKey`, the admin key, body
 * reading, the evidence archive): a `CompanionError` at once, so a host that mounts them under an
 * error handler of its own still answers the error shape, with the catalogue's status.
 */
export function httpError<C extends ApiErrorCode>(code: C, message?: string, details?: DomainErrorDetails<C>): CompanionError {
  return fromDomain(new DomainError(code, message, details));
}
