/** `/v1/sessions`: the integrator's backend opens, reads, lists, cancels and redacts sessions (docs/backend-api.md#sessions). */
import { SESSION_LIMITS } from '@onboarding-kit/contract';
import { errorResponses, refusal } from './error-responses.js';
import { SESSION_STATUS_VALUES } from './enumerations.js';
import { dateTime, header, jsonAnswer, jsonBody, pathParameter, queryParameter, ref, string, type PathItems } from './kit.js';

const security = [{ apiKey: ['sessions'] }];
const tags = ['Sessions'];
const keyRefusals = [refusal('unauthorized', 'no API key, or a wrong one'), refusal('forbidden', 'a key without the scope `sessions`')];
const sessionId = pathParameter('id', "The session's id (`ses_…`).");
const instant = { anyOf: [dateTime(), string({ format: 'date' })] };
/** Cancel and redact take no body, or `{}`. */
const emptyBody = jsonBody({ type: 'object', maxProperties: 0 }, 'Nothing, or `{}`.', false);
const bodyRefusals = [refusal('invalid_json'), refusal('invalid_request', 'a body other than `{}`'), refusal('payload_too_large')];

export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    '1-255 visible ASCII characters, kept 24 h: a repeat with the same body answers 200 with the same object (new secrets) and `Idempotent-Replayed: true`.',
  schema: string({ pattern: '^[\\x21-\\x7e]{1,255}$' }),
};
export const REPLAYED = { 'Idempotent-Replayed': header('`true` on an idempotent replay.', { const: 'true' }) };

export const SESSION_PATHS: PathItems = {
  '/v1/sessions': {
    post: {
      operationId: 'createSession',
      summary: 'Open a session for a person the integrator knows',
      tags,
      security,
      parameters: [IDEMPOTENCY_KEY],
      requestBody: jsonBody(ref('CreateSessionRequest')),
      responses: {
        '201': jsonAnswer("The session, with the page's client secret and the hosted page's `url`.", ref('CreateSessionResponse')),
        '200': jsonAnswer(
          'An idempotent replay: the same session, with a new `clientSecret` and `url`.',
          ref('CreateSessionResponse'),
          REPLAYED,
        ),
        ...errorResponses(
          refusal('invalid_json'),
          refusal('invalid_request', 'the body is not a JSON object; both `cpf` and `cnpj`'),
          refusal(
            'invalid_field',
            'a member (named in `field`) is not valid or not known; a bad `Idempotency-Key`; `returnUrl` not https in production',
          ),
          'invalid_cpf',
          'invalid_cnpj',
          ...keyRefusals,
          refusal('idempotency_conflict', 'this `Idempotency-Key` came with another body'),
          refusal('idempotency_in_progress', 'the first request with this key is still running'),
          refusal('payload_too_large', `a body over ${SESSION_LIMITS.maxBodyBytes / 1024} KiB`),
          refusal('unsupported_media_type', 'not sent as `application/json`'),
          'store_unavailable',
        ),
      },
    },
    get: {
      operationId: 'listSessions',
      summary: 'List sessions, newest first, a page at a time',
      tags,
      security,
      parameters: [
        queryParameter(
          'reference',
          'Only the sessions of this reference.',
          string({ minLength: 1, maxLength: SESSION_LIMITS.referenceMaxLength }),
        ),
        queryParameter('status', 'Only sessions with this status.', string({ enum: SESSION_STATUS_VALUES })),
        queryParameter('createdAfter', 'Only sessions created after this time: an ISO 8601 date or date-time.', instant),
        queryParameter('createdBefore', 'Only sessions created before this time: an ISO 8601 date or date-time.', instant),
        queryParameter('limit', 'Sessions per page.', { type: 'integer', minimum: 1, maximum: SESSION_LIMITS.listMax, default: 20 }),
        queryParameter('cursor', 'The `nextCursor` of the previous page (opaque).', string()),
        queryParameter(
          'supportCode',
          'Only the session of this support code (`K7QM-4XPD`, as the person read it out: any case, hyphens and spaces anywhere, O for 0, I and L for 1). Two sessions may share a code, once in about a trillion.',
          string({ maxLength: 32 }),
        ),
      ],
      responses: {
        '200': jsonAnswer('One page of sessions.', ref('SessionList')),
        ...errorResponses(
          refusal('invalid_field', 'a query parameter (named in `field`) is not valid, or a `cursor` this companion did not give'),
          ...keyRefusals,
          'store_unavailable',
        ),
      },
    },
  },
  '/v1/sessions/{id}': {
    get: {
      operationId: 'retrieveSession',
      summary: 'Read a session and its onboarding',
      tags,
      security,
      parameters: [sessionId],
      responses: {
        '200': jsonAnswer('The session.', ref('SessionView')),
        ...errorResponses(...keyRefusals, refusal('not_found', 'no such session'), 'store_unavailable'),
      },
    },
  },
  '/v1/sessions/{id}/cancel': {
    post: {
      operationId: 'cancelSession',
      summary: 'Cancel an open session',
      description:
        "An `open` session becomes `cancelled` and `session.cancelled` is sent; cancelling a cancelled session answers it again. The page's routes then answer `410 session_cancelled`. No body, or `{}`.",
      tags,
      security,
      parameters: [sessionId],
      requestBody: emptyBody,
      responses: {
        '200': jsonAnswer('The cancelled session.', ref('SessionView')),
        ...errorResponses(
          ...bodyRefusals,
          ...keyRefusals,
          refusal('not_found', 'no such session'),
          refusal('session_used', 'the session is submitted, completed or expired, or its onboarding is being created'),
          'store_unavailable',
        ),
      },
    },
  },
  '/v1/sessions/{id}/redact': {
    post: {
      operationId: 'redactSession',
      summary: "Erase a session's personal data",
      description:
        "Erases the tax id, name, prefill, metadata values and the onboarding's personal parts in every store, keeping a skeleton for audit (id, reference, status, times, the onboarding's token and status, `redactedAt`). An open session is cancelled first. Sends `session.redacted` once; a second redact answers the same view.",
      tags,
      security,
      parameters: [sessionId],
      requestBody: emptyBody,
      responses: {
        '200': jsonAnswer('The redacted session, with `redactedAt`.', ref('SessionView')),
        ...errorResponses(...bodyRefusals, ...keyRefusals, refusal('not_found', 'no such session'), 'store_unavailable'),
      },
    },
  },
};
