/**
 * The companion's one error shape, `{"error": {code, message, field?, externalId?}}`, with a real
 * HTTP status, and the mapping of upstream failures onto it. Messages are written here, never
 * copied from the upstream, so nothing secret or personal can ride along.
 */
import type { ApiError, ApiErrorBody, ApiErrorCode } from '@onboarding-kit/contract';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { UpstreamError } from '../upstream/upstream-error.js';

export class CompanionError extends Error {
  override readonly name = 'CompanionError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode | (string & {}),
    message: string,
    readonly extra: { field?: string; externalId?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    const error: ApiError = { code: this.code, message: this.message };
    if (this.extra.field) error.field = this.extra.field;
    if (this.extra.externalId) error.externalId = this.extra.externalId;
    return { error };
  }
}

export function errorResponse(c: Context, err: CompanionError): Response {
  for (const [k, v] of Object.entries(err.extra.headers ?? {})) c.header(k, v);
  c.header('Cache-Control', 'no-store');
  return c.json(err.toBody(), err.status);
}

/** The one answer for an unknown token and for a missing or wrong access key: nothing to probe. */
export const notFound = () => new CompanionError(404, 'not_found', 'No such onboarding.');

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
