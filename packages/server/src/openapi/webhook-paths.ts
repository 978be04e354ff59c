/** `POST /v1/webhooks`, called by the upstream (docs/page-api.md#upstream-webhooks). */
import { errorResponses, refusal } from './error-responses.js';
import { jsonAnswer, jsonBody, object, ref, type PathItems } from './kit.js';

export const WEBHOOK_PATHS: PathItems = {
  '/v1/webhooks': {
    post: {
      operationId: 'receiveUpstreamWebhook',
      summary: "The upstream tells of an onboarding's status or a finished standalone query",
      description:
        "A hint, never the verdict: for an onboarding in process the companion answers at once, then reads the upstream's report and applies what it says. A finished standalone query becomes `query.completed`. The body is read whatever its content type.",
      tags: ['Upstream'],
      security: [{ webhookToken: [] }],
      requestBody: jsonBody(ref('UpstreamWebhook'), 'At most 2 MiB.'),
      responses: {
        '200': jsonAnswer('Acknowledged; tells nothing of what the upstream said.', object({ received: { const: true } }, ['received'])),
        ...errorResponses(
          'invalid_json',
          refusal('invalid_request', 'a body of neither shape'),
          refusal('unauthorized', 'no `id-service-token`, or a wrong one'),
          refusal('payload_too_large', 'a body over 2 MiB'),
          refusal('rate_limited', 'past 10 failed authentications from this address within 60 s'),
          refusal('store_unavailable', 'the store did not answer (polling recovers the outcome)'),
        ),
      },
    },
  },
};
