/**
 * The document's errors, built from the contract's error catalogue (`API_ERRORS`) so that they
 * cannot drift from it: the `ErrorCode` schema is the catalogue's codes, and each operation's
 * error answers are the catalogue codes it names, grouped by the status the catalogue answers
 * them with (or one of their other statuses, which the catalogue must allow).
 */
import {
  API_ERROR_CODES,
  API_ERRORS,
  isApiErrorStatus,
  type ApiErrorCode,
  type ApiErrorEntry,
  type ApiErrorStatus,
} from '@onboarding-kit/contract';
import { header, headerRef, jsonContent, object, ref, REQUEST_ID_HEADER, string, type Json } from './kit.js';

/** One refusal an operation can answer: a catalogue code, the status it is answered with, and when. */
export interface Refusal {
  code: ApiErrorCode;
  status: number;
  when?: string;
}

/** `code` answered with `status` (the catalogue's own by default), in the situation `when` names. */
export function refusal<C extends ApiErrorCode>(code: C, when?: string, status?: ApiErrorStatus<C>): Refusal {
  const answered = (status ?? API_ERRORS[code].status) as number;
  if (!isApiErrorStatus(code, answered)) throw new TypeError(`The error catalogue does not answer "${code}" with ${answered}.`);
  return { code, status: answered, ...(when && { when }) };
}

/** The `ErrorCode` schema: every code of the catalogue, with its statuses and default message. */
export function errorCodeSchema(): Json {
  const catalogue: Record<string, Json> = {};
  for (const code of API_ERROR_CODES) {
    const entry: ApiErrorEntry = API_ERRORS[code];
    catalogue[code] = {
      status: entry.status,
      ...(entry.otherStatuses && { otherStatuses: [...entry.otherStatuses] }),
      message: entry.message,
    };
  }
  return {
    type: 'string',
    description:
      'Stable, machine-readable code of the error catalogue (`API_ERRORS` in @onboarding-kit/contract). `x-error-catalogue` gives each code its HTTP status, the other statuses it is answered with in named situations, and its default message.',
    enum: [...API_ERROR_CODES],
    'x-error-catalogue': catalogue,
  };
}

/** What an upstream failure says of itself, inside `upstream_*` errors. */
export const UPSTREAM_FAILURE_SCHEMA = object(
  {
    type: string({
      enum: ['credentials', 'product', 'permission', 'unavailable', 'unknown'],
      description:
        "What failed: the companion's upstream credentials, the product (inactive, or the service not enabled), a permission the account lacks, the upstream being unreachable, or something else.",
    }),
    status: { type: 'integer', description: 'The HTTP status the upstream answered, when it answered.' },
    code: string({ description: "The upstream's own code, when it sent one." }),
    message: string({ description: "The upstream's own message, when it sent one." }),
  },
  ['type'],
);

/** `{"error": {...}}`, the body of every error answer (docs/page-api.md#error-shape). */
export const ERROR_BODY_SCHEMA = object(
  {
    error: object(
      {
        code: ref('ErrorCode'),
        message: string({ description: 'English text for a developer or a log; never a secret, a token or personal data.' }),
        field: string({ description: 'The request member at fault (`cpf`, `images.selfie`, `Idempotency-Key`...).' }),
        externalId: string({ description: "The upstream's identifier of a failed call, to quote to its support." }),
        upstream: ref('UpstreamFailure'),
      },
      ['code', 'message'],
    ),
  },
  ['error'],
);

/** The headers error answers share, for `components.headers`. */
export const ERROR_HEADERS: Record<string, Json> = {
  RequestId: { ...header("The request id; the same id is on the companion's log lines for this request."), required: true },
  WwwAuthenticate: header('`Bearer realm="..."`: the credentials the route needs.'),
  RetryAfter: header('Seconds after which the same request may succeed (the end of the refusing window for a 429).', {
    type: 'integer',
    minimum: 1,
  }),
};

const STATUS_HEADERS: Partial<Record<number, Record<string, Json>>> = {
  401: { 'WWW-Authenticate': headerRef('WwwAuthenticate') },
  429: { 'Retry-After': headerRef('RetryAfter') },
  503: { 'Retry-After': headerRef('RetryAfter') },
};

/** Every operation may answer a bug this way. */
const INTERNAL = refusal('internal_error', 'a bug: the message quotes the request id; the cause goes to the log only');

/**
 * The error answers of an operation, one per status: the body is the error shape with `code`
 * narrowed to the codes this operation answers with that status. `internal_error` is always one.
 */
/** The one answer of a bug, for `components.responses`. */
export function internalErrorResponse(): Json {
  return errorAnswer(500, [INTERNAL]);
}

export function errorResponses(...refusals: (ApiErrorCode | Refusal)[]): Record<string, Json> {
  const byStatus = new Map<number, Refusal[]>();
  for (const r of [...refusals.map((x) => (typeof x === 'string' ? refusal(x) : x)), INTERNAL]) {
    const list = byStatus.get(r.status) ?? [];
    if (!list.some((e) => e.code === r.code && e.when === r.when)) list.push(r);
    byStatus.set(r.status, list);
  }
  const responses: Record<string, Json> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = byStatus.get(status)!;
    if (list.length === 1 && list[0] === INTERNAL) {
      responses[String(status)] = { $ref: '#/components/responses/InternalError' };
      continue;
    }
    responses[String(status)] = errorAnswer(status, list);
  }
  return responses;
}

/** The error shape with `code` narrowed to the codes of `list`. */
function errorAnswer(status: number, list: readonly Refusal[]): Json {
  const codes = [...new Set(list.map((r) => r.code))];
  return {
    description: list.map((r) => `\`${r.code}\`${r.when ? `: ${r.when}` : ''}`).join('; '),
    headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...STATUS_HEADERS[status] },
    content: jsonContent({
      allOf: [ref('ErrorBody'), { properties: { error: { properties: { code: { enum: codes } } } } }],
    }),
  };
}
