/**
 * Errors of the admin routes, always answered as `{"error": {code, message, field?, externalId?}}`
 * with a real HTTP status. Upstream failures become 502/504 with a fixed message: whatever the
 * upstream or the client said (URLs, tokens, bodies) never reaches the operator's error body.
 */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, ApiErrorBody, ApiErrorCode } from '@onboarding-kit/contract';
import { EvidencePasswordError } from '../evidence/errors.js';

export class AdminHttpError extends Error {
  override readonly name = 'AdminHttpError';
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode | 'invalid_password',
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    const error: ApiError = { code: this.code, message: this.message };
    if (this.field) error.field = this.field;
    return { error };
  }
}

export function errorResponse(c: Context, error: AdminHttpError): Response {
  c.header('Cache-Control', 'no-store');
  return c.json(error.toBody(), error.status);
}

/** Reads a numeric HTTP status an upstream error may carry (`status`, `httpStatus`, `response.status`). */
export function upstreamHttpStatus(error: unknown, depth = 0): number | undefined {
  if (!error || typeof error !== 'object' || depth > 3) return undefined;
  const e = error as { status?: unknown; httpStatus?: unknown; response?: { status?: unknown }; cause?: unknown };
  for (const candidate of [e.httpStatus, e.status, e.response?.status]) {
    if (typeof candidate === 'number' && candidate >= 100 && candidate <= 599) return candidate;
  }
  return upstreamHttpStatus(e.cause, depth + 1);
}

const TIMEOUT_NAMES = new Set(['TimeoutError', 'AbortError', 'UpstreamTimeoutError']);
const TIMEOUT_CODES = new Set(['upstream_timeout', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Whether an upstream call failed by taking too long (the client's timeout, undici's, or a 504). */
export function isUpstreamTimeout(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const e = error as { name?: unknown; code?: unknown; kind?: unknown; cause?: unknown };
  // `kind: 'timeout'`: the companion's UpstreamError.
  if (e.kind === 'timeout') return true;
  if (typeof e.name === 'string' && TIMEOUT_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && TIMEOUT_CODES.has(e.code)) return true;
  if (depth === 0 && upstreamHttpStatus(error) === 504) return true;
  return isUpstreamTimeout(e.cause, depth + 1);
}

/** The operator-facing error for an upstream failure: 504 for a timeout, 502 otherwise. */
export function upstreamFailure(error: unknown, what: string): AdminHttpError {
  if (isUpstreamTimeout(error)) return new AdminHttpError(504, 'upstream_timeout', `The upstream did not answer in time (${what}).`);
  const status = upstreamHttpStatus(error);
  return new AdminHttpError(502, 'upstream_error', `The upstream failed (${what}${status ? `: HTTP ${status}` : ''}).`);
}

/** A short reason for the manifest's `gaps`, built only from the kind of failure and its status. */
export function upstreamGapReason(error: unknown, what: string): string {
  if (isUpstreamTimeout(error)) return `${what} unavailable upstream: timeout`;
  const status = upstreamHttpStatus(error);
  return `${what} unavailable upstream${status ? `: HTTP ${status}` : ''}`;
}

/** The single error handler of the admin app. */
export const handleAdminError: ErrorHandler = (error, c) => {
  if (error instanceof AdminHttpError) return errorResponse(c, error);
  if (error instanceof EvidencePasswordError) return errorResponse(c, new AdminHttpError(400, 'invalid_password', error.message, error.field));
  if (error instanceof HTTPException && error.status < 500) {
    return errorResponse(c, new AdminHttpError(error.status, 'invalid_request', 'The request was refused.'));
  }
  // Anything else is a bug or a failure the route did not expect: never echo it, but log it where
  // the host keeps its (redacting) logger, as the companion does under `log`.
  const log = (c.get as (key: string) => unknown)('log') as { error?: (msg: string, fields?: Record<string, unknown>) => void } | undefined;
  if (typeof log?.error === 'function') log.error('admin route failed', { error });
  return errorResponse(c, new AdminHttpError(500, 'internal_error', 'Internal error.'));
};
