/**
 * `/v1/admin`: reports for any token, the customer lookup and the notification outbox
 * (docs/backend-api.md#reports-for-any-token, docs/backend-api.md#failing-deliveries-admin-routes).
 */
import { errorResponses, refusal } from './error-responses.js';
import { PDF_CONTENT } from './onboarding-paths.js';
import {
  header,
  jsonAnswer,
  jsonBody,
  object,
  pathParameter,
  queryParameter,
  ref,
  REQUEST_ID_HEADER,
  string,
  type PathItems,
} from './kit.js';

const keyRefusals = (scope: string) => [
  refusal('unauthorized', 'no key, or a wrong one'),
  refusal('forbidden', `an API key without the scope \`${scope}\``),
];
const token = pathParameter('token', 'Any onboarding token of the upstream account.');
const unknownToken = refusal('not_found', 'a token the upstream does not know either, or a path segment that cannot be a token');
const upstreamFailures = [refusal('upstream_error'), refusal('upstream_unavailable'), refusal('upstream_timeout')];
const reports = { tags: ['Reports'], security: [{ apiKey: ['reports'] }, { adminKey: [] }] };
const admin = { security: [{ apiKey: ['admin'] }, { adminKey: [] }] };

export const ADMIN_PATHS: PathItems = {
  '/v1/admin/onboardings/{token}': {
    get: {
      operationId: 'retrieveReport',
      summary: "The upstream's full report of an onboarding",
      ...reports,
      parameters: [token],
      responses: {
        '200': jsonAnswer("The upstream's report, non-contract members and nulls removed.", ref('UpstreamReport')),
        ...errorResponses(...keyRefusals('reports'), unknownToken, ...upstreamFailures, 'store_unavailable'),
      },
    },
  },
  '/v1/admin/onboardings/{token}/report.pdf': {
    get: {
      operationId: 'retrieveReportPdf',
      summary: "The upstream's PDF report of an onboarding",
      ...reports,
      parameters: [token],
      responses: {
        '200': {
          description: "The upstream's PDF, streamed, checked to start with `%PDF`.",
          headers: { 'X-Request-Id': REQUEST_ID_HEADER, 'Content-Disposition': header('`attachment; filename="report-<token>.pdf"`') },
          content: PDF_CONTENT,
        },
        ...errorResponses(...keyRefusals('reports'), unknownToken, ...upstreamFailures, 'store_unavailable'),
      },
    },
  },
  '/v1/admin/onboardings/{token}/evidence': {
    post: {
      operationId: 'createEvidenceArchive',
      summary: 'A zip of the report, the PDF, the status history and a manifest, for audits',
      description:
        "AES-256 with a passphrase generated here (returned once, in `Evidence-Password`) unless the body chooses one or asks for none. The archive's format is in packages/server/ADMIN.md.",
      ...reports,
      parameters: [token],
      requestBody: jsonBody(ref('EvidenceRequest'), 'Optional; at most 8 KiB.', false),
      responses: {
        '200': {
          description: 'The archive, streamed.',
          headers: {
            'X-Request-Id': REQUEST_ID_HEADER,
            'Content-Disposition': header('`attachment; filename="evidence-<token>.zip"`'),
            'Evidence-Password': header('The generated passphrase, when the companion chose it: the one time it is shown.'),
          },
          content: { 'application/zip': {} },
        },
        ...errorResponses(
          'invalid_json',
          refusal('invalid_request', 'not `{}`, `{"password": ...}` or `{"encrypt": false}`'),
          refusal('invalid_password', 'a chosen passphrase too short or too guessable'),
          refusal('payload_too_large', 'a body over 8 KiB'),
          ...keyRefusals('reports'),
          unknownToken,
          ...upstreamFailures,
          'store_unavailable',
        ),
      },
    },
  },
  '/v1/admin/customers': {
    get: {
      operationId: 'lookupCustomers',
      summary: "The upstream's customer lookup by CPF or CNPJ",
      tags: ['Reports'],
      ...admin,
      parameters: [queryParameter('documentKey', 'A CPF or CNPJ (check digits verified before anything goes upstream).', string(), true)],
      responses: {
        '200': jsonAnswer("The upstream's customer records, non-contract members removed.", {
          type: 'array',
          items: ref('CustomerRecord'),
        }),
        ...errorResponses(
          refusal('missing_tax_id', 'no `documentKey`'),
          refusal('invalid_field', '`documentKey` is not a valid CPF or CNPJ'),
          ...keyRefusals('admin'),
          ...upstreamFailures,
        ),
      },
    },
  },
  '/v1/admin/notifications': {
    get: {
      operationId: 'listNotifications',
      summary: 'Notifications of the outbox by delivery state, newest first',
      description: 'Mounted when notifications are configured (`ONBOARDING_NOTIFY_URL`).',
      tags: ['Notifications'],
      ...admin,
      parameters: [
        queryParameter(
          'state',
          '`failing`: still retried after at least one failed try.',
          string({ enum: ['failing', 'failed', 'pending', 'delivered'], default: 'failing' }),
        ),
        queryParameter('limit', 'Entries at most.', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
      ],
      responses: {
        '200': jsonAnswer('The entries.', object({ data: { type: 'array', items: ref('NotificationSummary') } }, ['data'])),
        ...errorResponses(refusal('invalid_field', '`state` or `limit` (named in `field`)'), ...keyRefusals('admin'), 'store_unavailable'),
      },
    },
  },
  '/v1/admin/notifications/{id}/replay': {
    post: {
      operationId: 'replayNotification',
      summary: 'Queue a notification again, whatever its state',
      description: "It becomes `pending`, due now, `attempts` 0, with a new retry schedule, in its place in its session's order. No body.",
      tags: ['Notifications'],
      ...admin,
      parameters: [pathParameter('id', "The event's id (`evt_…`).")],
      responses: {
        '202': jsonAnswer('The entry as listed.', object({ data: ref('NotificationSummary') }, ['data'])),
        ...errorResponses(refusal('not_found', 'no such notification'), ...keyRefusals('admin'), 'store_unavailable'),
      },
    },
  },
};
