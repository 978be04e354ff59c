/**
 * The catalogue of the companion's error codes (docs/page-api.md#error-shape): every `code` an
 * error body can carry, with the HTTP status it is answered with and a default message. The
 * union of codes is closed, so a code the catalogue does not hold does not compile, on the
 * server that answers it or on the page that reads it.
 *
 * A few codes are answered with more than one status (`otherStatuses`): `unauthorized` is 403 for
 * a device that is not a session's origin, `session_used` is 410 on the hosted page, and the
 * HTTP layer answers `invalid_request` with 408 and 431 for a slow request and oversized headers.
 */

export interface ApiErrorEntry {
  /** The status the code is answered with. */
  readonly status: number;
  /** Further statuses the same code is answered with, each in a situation the docs name. */
  readonly otherStatuses?: readonly number[];
  /** The message when the thrower adds nothing more specific. */
  readonly message: string;
}

export const API_ERRORS = {
  invalid_json: { status: 400, message: 'The body is not valid JSON.' },
  unsupported_media_type: { status: 415, message: 'The body must be sent as application/json.' },
  invalid_request: { status: 400, otherStatuses: [408, 431], message: 'The request was refused.' },
  invalid_cpf: { status: 400, message: 'The CPF is not valid: check its 11 digits.' },
  invalid_cnpj: { status: 400, message: 'The CNPJ is not valid: check its 14 characters.' },
  missing_tax_id: { status: 400, message: 'A cpf or a cnpj is required.' },
  invalid_field: { status: 400, message: 'A member of the request is not valid.' },
  missing_field: { status: 400, message: 'A required member of the request is missing.' },
  invalid_password: { status: 400, message: 'The password is not valid.' },
  missing_image: { status: 400, message: 'images.documentFront and images.selfie are required.' },
  invalid_image: { status: 400, message: 'An image is not a JPEG or PNG in pure base64.' },
  image_too_large: { status: 413, message: 'An image is larger than the size limit.' },
  payload_too_large: { status: 413, message: 'The body is larger than the limit of its route.' },
  upload_too_slow: { status: 408, message: 'The upload arrived too slowly or did not finish in time; try again on a steadier connection.' },
  not_found: { status: 404, message: 'No such route.' },
  unauthorized: { status: 401, otherStatuses: [403], message: 'A valid key is required.' },
  forbidden: { status: 403, message: 'This key is valid but may not use this route.' },
  rate_limited: { status: 429, message: 'Too many requests from this address; try again later.' },
  upstream_refused: { status: 400, message: 'The verification service refused the submitted data.' },
  upstream_error: { status: 502, message: 'The verification service failed.' },
  upstream_unavailable: { status: 503, message: 'The verification service is unavailable; try again shortly.' },
  upstream_timeout: { status: 504, message: 'The verification service did not answer in time.' },
  store_unavailable: { status: 503, message: 'The onboarding store is unavailable; try again shortly.' },
  busy: { status: 503, message: 'The companion has more onboardings being created than it takes at once; try again shortly.' },
  session_used: { status: 409, otherStatuses: [410], message: 'This session has already been used.' },
  session_expired: { status: 410, message: 'This session has expired.' },
  session_cancelled: { status: 410, message: 'This session was cancelled.' },
  session_mismatch: { status: 400, message: 'This session does not accept this request.' },
  session_handed_off: {
    status: 409,
    message: 'This session is held by another device now: continue there, or take it back from the page that opened it.',
  },
  idempotency_conflict: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
  },
  idempotency_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still being processed; retry in a moment.' },
  handoff_invalid: { status: 404, message: 'This hand-off link or code is not valid: check it, or ask for a new one on the other device.' },
  handoff_expired: { status: 410, message: 'This hand-off link has expired: ask for a new one on the other device.' },
  handoff_used: { status: 410, message: 'This hand-off link has already been used: ask for a new one on the other device.' },
  page_unavailable: { status: 503, message: 'The hosted page is not available on this companion.' },
  prefill_unavailable: { status: 409, message: 'This session does not offer a document prefill.' },
  document_unreadable: {
    status: 422,
    message: 'The document could not be read: take a new photo of it, flat, well lit and in focus, and try again.',
  },
  /** Logged for a request whose client went away (nginx's convention); no client ever reads it. */
  client_closed_request: { status: 499, message: 'The client closed the connection before the request was complete.' },
  internal_error: { status: 500, message: 'Internal error.' },
} as const satisfies Record<string, ApiErrorEntry>;

/** Every code of an error body (the closed list of `API_ERRORS`). */
export type ApiErrorCode = keyof typeof API_ERRORS;

type OtherStatuses<C extends ApiErrorCode> = (typeof API_ERRORS)[C] extends { otherStatuses: readonly (infer S)[] } ? S : never;

/** The statuses `code` is answered with: its own, and its other ones when it has some. */
export type ApiErrorStatus<C extends ApiErrorCode = ApiErrorCode> = (typeof API_ERRORS)[C]['status'] | OtherStatuses<C>;

/** The codes of the catalogue, in its order. */
export const API_ERROR_CODES = Object.keys(API_ERRORS) as ApiErrorCode[];

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && Object.hasOwn(API_ERRORS, value);
}

/** Whether the catalogue lets `code` be answered with `status`. */
export function isApiErrorStatus(code: ApiErrorCode, status: number): boolean {
  const entry: ApiErrorEntry = API_ERRORS[code];
  return entry.status === status || (entry.otherStatuses?.includes(status) ?? false);
}

/**
 * Why the upstream failed a call, as far as its answer tells (docs/page-api.md#upstream-failures):
 * `credentials`: its token endpoint refused the companion's client and secret, or refused a fresh
 * token again; `product`: the service is not enabled for the product, or the product is inactive
 * or not found (in-body 401); `permission`: a dedicated endpoint answered 403; `unavailable`: no
 * answer, a network failure, HTTP 408/429/5xx or an in-body 5xx; `unknown`: anything else, the
 * upstream's refusal of the submitted data included.
 */
export const UPSTREAM_FAILURE_TYPES = ['credentials', 'product', 'permission', 'unavailable', 'unknown'] as const;
export type UpstreamFailureType = (typeof UPSTREAM_FAILURE_TYPES)[number];

/**
 * The `upstream` member of an `upstream_*` error body: the failure's type, and for the backend's
 * and the operator's routes what the upstream itself answered. A page (a person's browser) gets the
 * type only.
 */
export interface UpstreamFailure {
  type: UpstreamFailureType;
  /** The HTTP status of the upstream's answer, when there was one. */
  status?: number;
  /** The upstream's own `status.code`, as text, when it sent one. */
  code?: string;
  /**
   * The upstream's own `status.message`, when it sent one: control characters removed, tax ids,
   * e-mail addresses, tokens and the companion's credentials masked, at most 200 characters.
   */
  message?: string;
}
