/**
 * What the companion's services, rules and routes throw when they refuse: a code of the contract's
 * catalogue (`API_ERRORS`), a message written here (never copied from the upstream or from a
 * caught error, so nothing secret or personal rides along: docs/upstream-api.md, rule 9) and the
 * details a client needs. It knows no HTTP framework: the one `onError` (http/error-handler.ts)
 * answers it with the catalogue's status.
 */
import {
  API_ERRORS,
  isApiErrorCode,
  isApiErrorStatus,
  type ApiErrorCode,
  type ApiErrorStatus,
  type UpstreamFailure,
} from '@onboarding-kit/contract';
import { refusalBody, refusalHeaders } from './error-answer.js';

export interface DomainErrorDetails<C extends ApiErrorCode = ApiErrorCode> {
  /** The request member at fault (`cpf`, `images.selfie`, `password`...). */
  field?: string;
  /** The upstream's identifier of a failed call, for support. */
  externalId?: string;
  /** Why the upstream failed, as its audience may see it (errors/from-upstream.ts). */
  upstream?: UpstreamFailure;
  /** Seconds after which the same request may succeed. */
  retryAfterS?: number;
  /** The realm of the credentials the request lacks. */
  realm?: string;
  /** One of the code's other statuses in the catalogue, for the situation the catalogue names. */
  status?: ApiErrorStatus<C>;
  /** For the log only; never rendered. */
  cause?: unknown;
}

export class DomainError<C extends ApiErrorCode = ApiErrorCode> extends Error {
  override readonly name = 'DomainError';
  readonly code: C;
  /** The catalogue's status for this code (its own, or the other one the thrower named). */
  readonly status: ApiErrorStatus<C>;
  readonly field?: string;
  readonly externalId?: string;
  readonly upstream?: UpstreamFailure;
  readonly retryAfterS?: number;
  readonly realm?: string;

  constructor(code: C, message: string = API_ERRORS[code]?.message, details: DomainErrorDetails<C> = {}) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    // The types close the catalogue; this closes it for callers the types do not reach.
    if (!isApiErrorCode(code)) throw new TypeError(`"${String(code)}" is not a code of the error catalogue (API_ERRORS).`);
    const status = details.status ?? (API_ERRORS[code].status as ApiErrorStatus<C>);
    if (!isApiErrorStatus(code, status as number)) throw new TypeError(`The error catalogue does not answer "${code}" with ${status}.`);
    this.code = code;
    this.status = status;
    if (details.field) this.field = details.field;
    if (details.externalId) this.externalId = details.externalId;
    // Every upstream_* answer says why, even one the companion found wanting itself (a "PDF" that is none).
    const upstream = details.upstream ?? (code.startsWith('upstream_') ? { type: typeOfCode(code) } : undefined);
    if (upstream) this.upstream = { ...upstream };
    if (details.retryAfterS !== undefined) this.retryAfterS = details.retryAfterS;
    if (details.realm) this.realm = details.realm;
  }

  /**
   * The error shape with the catalogue's status, for a host that mounts the companion's routes
   * under an error handler of its own (Hono's default handler answers an error's `getResponse()`).
   */
  getResponse(): Response {
    return Response.json(refusalBody(this), {
      status: this.status as number,
      headers: { ...refusalHeaders(this), 'Cache-Control': 'no-store' },
    });
  }
}

/** The type an upstream_* refusal has when the thrower knows nothing more of the upstream's answer. */
function typeOfCode(code: ApiErrorCode): UpstreamFailure['type'] {
  return code === 'upstream_timeout' || code === 'upstream_unavailable' ? 'unavailable' : 'unknown';
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
