/**
 * The companion's one `onError` and its not-found answer, for the page, webhook and admin routes
 * alike: whatever a route throws leaves as the error shape (docs/page-api.md#error-shape). An
 * error the routes did not expect is a 500 `internal_error` whose body names only the request id;
 * its cause goes to the redacting log (docs/upstream-api.md, rule 9).
 */
import { API_ERRORS, type ApiErrorCode } from '@onboarding-kit/contract';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../logger.js';
import { isStoreUnavailable } from '../store/index.js';
import { isUpstreamError } from '../upstream/upstream-error.js';
import { isDomainError, type DomainError } from '../errors/domain-error.js';
import { fromUpstream } from '../errors/from-upstream.js';
import { CompanionError, fromDomain, httpError } from './companion-error.js';
import type { CompanionEnv } from './env.js';
import { isClientAbort } from '../transport/index.js';

/** Codes for refusals thrown as a bare `HTTPException` (by Hono's own middleware, say). */
const REFUSAL_CODES: Partial<Record<number, ApiErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** The status logged for a request whose client went away (nginx's convention); no client ever reads it. */
export const CLIENT_CLOSED_REQUEST = API_ERRORS.client_closed_request.status as ContentfulStatusCode;

export interface ErrorHandlerDeps {
  /** Where unexpected errors are logged when the request has no logger of its own. */
  logger: Logger;
  /** Named in upstream failures, for support. */
  environment: string;
}

function renderError(c: Context, error: CompanionError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  return c.json(error.toBody(), error.status);
}

export function companionErrorHandler(deps: ErrorHandlerDeps): ErrorHandler<CompanionEnv> {
  return (error, c) => {
    const mapped = asCompanionError(error, c, deps);
    // The hosted pages answer their errors as a page of their own (hosted/hosted-routes.ts).
    const page = c.get('errorPage');
    return page ? page(mapped) : renderError(c, mapped);
  };
}

export const notFoundHandler: NotFoundHandler = (c) => renderError(c, httpError('not_found'));

function asCompanionError(error: Error, c: Context<CompanionEnv>, deps: ErrorHandlerDeps): CompanionError {
  if (error instanceof CompanionError) return error;
  if (isDomainError(error)) {
    if (error.upstream) logUpstreamFailure(c, deps, error);
    return fromDomain(error);
  }
  // The client went away mid-request (closed tab, lost network): nothing failed here and nobody reads
  // the answer. The request log records it at info level (middleware/request-log.ts), never as a 5xx.
  if (isClientAbort(c)) return httpError('client_closed_request');
  // Routes map upstream failures themselves; one that slips through still gets the upstream answer, as a page would.
  if (isUpstreamError(error)) {
    const mapped = fromUpstream(error, deps.environment);
    logUpstreamFailure(c, deps, mapped);
    return fromDomain(mapped);
  }
  // A host's own middleware chose its status; only its code comes from here.
  if (error instanceof HTTPException && error.status < 500) {
    return new CompanionError(error.status, REFUSAL_CODES[error.status] ?? 'invalid_request', 'The request was refused.');
  }
  // The request's logger carries its id; a host that mounts routes without the companion's middleware has none.
  const log = c.get('log') ?? deps.logger;
  // A store that did not answer leaves the outcome unknown (store/errors.ts); the client may repeat
  // the request shortly (a repeated creation makes a second upstream onboarding: onboardings/onboarding-routes.ts).
  if (isStoreUnavailable(error)) {
    log.warn('store unavailable', { error });
    return httpError('store_unavailable', undefined, { retryAfterS: 5 });
  }
  log.error('unexpected error', { error });
  return httpError('internal_error', `Internal error; quote request id ${c.get('requestId') ?? 'unknown'} to support.`);
}

/**
 * Every answer that carries an upstream failure is logged at warn with what the upstream answered
 * (its HTTP status and own code, the call, the type), so the log says more than the companion's
 * own 5xx. Its message stays out: it may echo what was sent, and the backend's answer holds it.
 */
function logUpstreamFailure(c: Context<CompanionEnv>, deps: ErrorHandlerDeps, error: DomainError): void {
  const log = c.get('log') ?? deps.logger;
  const cause = isUpstreamError(error.cause) ? error.cause : undefined;
  log.warn('upstream failure', {
    code: error.code,
    upstreamType: cause?.type ?? error.upstream?.type,
    ...(cause && { op: cause.operation, kind: cause.kind }),
    ...((cause?.httpStatus ?? error.upstream?.status) !== undefined && { upstreamStatus: cause?.httpStatus ?? error.upstream?.status }),
    ...((cause?.code ?? error.upstream?.code) !== undefined && { upstreamCode: cause?.code ?? error.upstream?.code }),
    ...(error.externalId && { externalId: error.externalId }),
  });
}
