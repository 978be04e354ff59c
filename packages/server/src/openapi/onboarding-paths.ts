/** `/v1/onboardings`: the page creates an onboarding and follows it (docs/page-api.md#create-an-onboarding). */
import { errorResponses, refusal } from './error-responses.js';
import { IDEMPOTENCY_KEY, REPLAYED } from './session-paths.js';
import { eventStream, header, jsonAnswer, jsonBody, pathParameter, ref, REQUEST_ID_HEADER, type Json, type PathItems } from './kit.js';

const tags = ['Onboardings'];
const token = pathParameter('tokenOnboarding', "The onboarding's token: 1-128 of `A-Z a-z 0-9 . _ ~ -`.");
const unknown = refusal('not_found', 'an unknown token, a missing or a wrong access key: the same answer');
const upstreamFailures = [
  refusal('upstream_refused', 'the upstream refused the data'),
  refusal('upstream_error', 'the upstream failed or answered something unusable'),
  refusal('upstream_unavailable', 'the upstream could not be reached'),
  refusal('upstream_timeout', 'the upstream did not answer in time'),
];

export const PDF_CONTENT: Json = { 'application/pdf': {} };

export const ONBOARDING_PATHS: PathItems = {
  '/v1/onboardings': {
    post: {
      operationId: 'createOnboarding',
      summary: 'The page creates the onboarding with its photos',
      description:
        "With a session's page secret as Bearer (required when `ONBOARDING_SESSIONS=required`, the default in production), or none. Validated entirely before anything goes upstream; the checks and their order are in docs/page-api.md#create-an-onboarding.",
      tags,
      security: [{ pageSecret: [] }, {}],
      parameters: [IDEMPOTENCY_KEY],
      requestBody: jsonBody(ref('CreateOnboardingRequest')),
      responses: {
        '201': jsonAnswer("The onboarding, with this page's access key.", ref('CreateOnboardingResponse')),
        '200': jsonAnswer('An idempotent replay: the same onboarding, with a new `accessKey`.', ref('CreateOnboardingResponse'), REPLAYED),
        ...errorResponses(
          'invalid_json',
          refusal('invalid_request', 'the body is not a JSON object; both `cpf` and `cnpj`'),
          refusal('missing_tax_id', 'neither `cpf` nor `cnpj`'),
          'invalid_cpf',
          'invalid_cnpj',
          refusal(
            'invalid_field',
            '`name`, `documentType`, `keptAnyway` or a member of `documentReading` not valid (named in `field`); an unknown image role; a bad `Idempotency-Key`',
          ),
          'missing_image',
          refusal('invalid_image', 'an image, or `proofOfAddress`, not a JPEG or PNG (or PDF for the proof) in pure base64'),
          refusal('session_mismatch', 'a tax id or document type the session does not allow; a `proofOfAddress` without the step'),
          refusal('unauthorized', 'a page secret that opens no session, or none where sessions are required'),
          refusal('upload_too_slow', 'the body did not arrive at its pace'),
          'image_too_large',
          'payload_too_large',
          'unsupported_media_type',
          refusal('session_used', "the session's onboarding was created or is being created"),
          refusal('session_handed_off', 'another device holds the session'),
          refusal('idempotency_conflict'),
          refusal('idempotency_in_progress'),
          refusal('session_expired'),
          refusal('session_cancelled'),
          refusal('rate_limited', 'too many creations from this address, or at once from it or on the session'),
          refusal('busy', 'more creations waiting for a turn than the companion lets wait'),
          'store_unavailable',
          ...upstreamFailures,
        ),
      },
    },
  },
  '/v1/onboardings/{tokenOnboarding}': {
    get: {
      operationId: 'retrieveOnboarding',
      summary: "The page reads the onboarding's status",
      tags,
      security: [{ accessKey: [] }],
      parameters: [token],
      responses: {
        '200': jsonAnswer("The onboarding's state.", ref('OnboardingState')),
        ...errorResponses(unknown, 'store_unavailable'),
      },
    },
  },
  '/v1/onboardings/{tokenOnboarding}/events': {
    get: {
      operationId: 'followOnboarding',
      summary: "Server-Sent Events of the onboarding's status",
      description: 'A `retry:` hint, the current state, then one `status` event per change; ends after a final status.',
      tags,
      security: [{ accessKey: [] }],
      parameters: [token],
      responses: {
        '200': eventStream('`status` events, each the state a read would answer.', { status: ref('OnboardingState') }),
        ...errorResponses(unknown, 'store_unavailable'),
      },
    },
  },
  '/v1/onboardings/{tokenOnboarding}/report.pdf': {
    get: {
      operationId: 'retrieveOnboardingPdf',
      summary: "The page downloads the upstream's PDF report (only with `reportPdf: true`)",
      description: 'Without `reportPdf` the route does not exist: `404 not_found`, as for any unknown route.',
      tags,
      security: [{ accessKey: [] }],
      parameters: [token],
      responses: {
        '200': {
          description: "The upstream's PDF, streamed, checked to start with `%PDF-`.",
          headers: { 'X-Request-Id': REQUEST_ID_HEADER, 'Content-Disposition': header('`attachment; filename="onboarding-<token>.pdf"`') },
          content: PDF_CONTENT,
        },
        ...errorResponses(unknown, 'store_unavailable', ...upstreamFailures),
      },
    },
  },
};
