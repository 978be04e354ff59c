/**
 * Upstream failures as the operator sees them: 504 `upstream_timeout` for a timeout, 502
 * `upstream_error` otherwise, with a fixed message and the `upstream` member
 * (docs/page-api.md#admin-routes, docs/page-api.md#upstream-failures). Of what the upstream said,
 * only its status, code and safe message reach the operator's error body; URLs, tokens and bodies
 * never do (docs/upstream-api.md, rule 9). The admin routes take any upstream client, so failures
 * are recognised by their shape.
 */
import type { UpstreamFailure } from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';
import { upstreamFailureOf } from '../errors/from-upstream.js';
import { failureType, isUpstreamError } from '../upstream/upstream-error.js';

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
const TIMEOUT_CODES = new Set([
  'upstream_timeout',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

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

/**
 * What the operator may read of the upstream's own answer: all the companion's `UpstreamError`
 * carries (its message made safe by the upstream client), else the type and the HTTP status alone.
 */
function upstreamFailureDetail(error: unknown): UpstreamFailure {
  if (isUpstreamError(error)) return upstreamFailureOf(error, 'backend');
  const status = upstreamHttpStatus(error);
  if (isUpstreamTimeout(error)) return { type: 'unavailable', ...(status !== undefined && { status }) };
  return { type: status === undefined ? 'unknown' : failureType('failed', '', status), ...(status !== undefined && { status }) };
}

/** The operator-facing error for an upstream failure: 504 for a timeout, 502 otherwise, with the `upstream` member. */
export function upstreamFailure(error: unknown, what: string): DomainError {
  const upstream = upstreamFailureDetail(error);
  if (isUpstreamTimeout(error))
    return new DomainError('upstream_timeout', `The upstream did not answer in time (${what}).`, { upstream, cause: error });
  const status = upstreamHttpStatus(error);
  return new DomainError('upstream_error', `The upstream failed (${what}${status ? `: HTTP ${status}` : ''}).`, { upstream, cause: error });
}

/**
 * The upstream does not know the token: its dedicated endpoints answer 400 `Failed to fetch
 * information` (docs/upstream-api.md#onboarding-report), or 404.
 */
export function isUnknownUpstream(error: unknown): boolean {
  const status = upstreamHttpStatus(error);
  return status === 400 || status === 404;
}

/** A short reason for the manifest's `gaps`, built only from the kind of failure and its status. */
export function upstreamGapReason(error: unknown, what: string): string {
  if (isUpstreamTimeout(error)) return `${what} unavailable upstream: timeout`;
  const status = upstreamHttpStatus(error);
  return `${what} unavailable upstream${status ? `: HTTP ${status}` : ''}`;
}
