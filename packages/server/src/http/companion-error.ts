/**
 * The companion's one error. Every failure a route answers is a `CompanionError`, rendered as
 * `{"error": {code, message, field?, externalId?}}` with a real HTTP status
 * (docs/page-api.md#error-shape). Messages are written here and in the routes, never copied from
 * the upstream or from a caught error, so nothing secret or personal rides along
 * (docs/upstream-api.md, rule 9).
 */
import type { ApiError, ApiErrorBody, ApiErrorCode } from '@onboarding-kit/contract';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { UpstreamError } from '../upstream/upstream-error.js';

export interface CompanionErrorDetails {
  /** The request member at fault (`cpf`, `images.selfie`, `password`...). */
  field?: string;
  /** The upstream's identifier of a failed call, for support. */
  externalId?: string;
  /** Headers of the answer (`Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  /** For the log only; never rendered. */
  cause?: unknown;
}

export class CompanionError extends HTTPException {
  override readonly name = 'CompanionError';
  readonly code: ApiErrorCode | (string & {});
  readonly field?: string;
  readonly externalId?: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: ContentfulStatusCode, code: ApiErrorCode | (string & {}), message: string, details: CompanionErrorDetails = {}) {
    super(status, { message, ...(details.cause !== undefined && { cause: details.cause }) });
    this.code = code;
    if (details.field) this.field = details.field;
    if (details.externalId) this.externalId = details.externalId;
    this.headers = { ...details.headers };
  }

  toBody(): ApiErrorBody {
    const error: ApiError = { code: this.code, message: this.message };
    if (this.field) error.field = this.field;
    if (this.externalId) error.externalId = this.externalId;
    return { error };
  }

  /** The same answer when a host renders it with its own handler (Hono's default calls this). */
  override getResponse(): Response {
    return Response.json(this.toBody(), { status: this.status, headers: { ...this.headers, 'Cache-Control': 'no-store' } });
  }
}

/** The one answer for an unknown token and for a missing or wrong access key: nothing to probe. */
export const notFound = () => new CompanionError(404, 'not_found', 'No such onboarding.');

/** A failed upstream call as the page sees it (docs/page-api.md#error-shape; docs/upstream-api.md, rule 2). */
export function fromUpstream(e: UpstreamError, environment: string): CompanionError {
  const ext = e.externalId ? { externalId: e.externalId } : {};
  const support = e.externalId ? ` Quote externalId ${e.externalId} (${environment} environment) to support.` : ` (${environment} environment)`;
  switch (e.kind) {
    case 'timeout':
      return new CompanionError(504, 'upstream_timeout', `The verification service did not answer in time.${support}`, ext);
    case 'unavailable':
      return new CompanionError(503, 'upstream_unavailable', `The verification service is unavailable; try again shortly.${support}`, { ...ext, headers: { 'Retry-After': '5' } });
    case 'refused':
      return new CompanionError(400, 'upstream_refused', `The verification service refused the submitted data.${support}`, ext);
    default:
      return new CompanionError(502, 'upstream_error', `The verification service failed.${support}`, ext);
  }
}
