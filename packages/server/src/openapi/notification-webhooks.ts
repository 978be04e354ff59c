/**
 * The notifications the companion POSTs to the integrator's `ONBOARDING_NOTIFY_URL`
 * (docs/backend-api.md#notifications), as OpenAPI `webhooks`: one per event type, each body the
 * event envelope with its `type` and `data` narrowed.
 */
import { NOTIFICATION_TYPE_VALUES } from './enumerations.js';
import { jsonBody, ref, type Json, type Operation } from './kit.js';

const WHEN: Record<string, { summary: string; data: Json }> = {
  'session.submitted': { summary: "The page created the session's onboarding", data: ref('SessionView') },
  'session.completed': { summary: 'The onboarding reached its final status (`externalId` on `ERROR`)', data: ref('SessionView') },
  'session.expired': { summary: 'An open session passed `expiresAt` with no onboarding', data: ref('SessionView') },
  'session.cancelled': { summary: 'The backend cancelled the session', data: ref('SessionView') },
  'session.redacted': { summary: "The backend erased the session's personal data", data: ref('SessionView') },
  'session.checks_completed': { summary: 'Every instant check of the session has its final result (`checks`)', data: ref('SessionView') },
  'query.completed': {
    summary: 'An asynchronous inspection finished (or was given up: `status: failed`), or a query asked with `notify: true` was answered',
    data: ref('QueryCompleted'),
  },
};

const SIGNATURE = {
  name: 'Onboarding-Signature',
  in: 'header',
  required: true,
  description:
    '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256, keyed with the notify secret, of `<t>.<raw body>`; one `v1=` per secret while one is rotated. Check it with `verifyNotification` (@onboarding-kit/server/verify).',
  schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
};

function notification(type: string): Operation {
  const when = WHEN[type];
  if (!when) throw new Error(`The notification type ${type} has no description in the OpenAPI document.`);
  return {
    operationId: `notify.${type}`,
    summary: when.summary,
    description:
      'At least once (dedupe by `id`), the same bytes on every try, in order per session; retried for 3 days until a 2xx within 10 s.',
    tags: ['Notifications'],
    parameters: [
      SIGNATURE,
      { name: 'User-Agent', in: 'header', required: false, description: '`onboarding-kit/<version>`.', schema: { type: 'string' } },
    ],
    requestBody: jsonBody({
      allOf: [ref('NotificationEvent'), { properties: { type: { const: type }, data: when.data } }],
    }),
    responses: {
      '2XX': { description: 'Received: the event is delivered.' },
      default: { description: 'Anything else (another status, a redirect, a timeout) is retried.' },
    },
  };
}

export function notificationWebhooks(): Record<string, { post: Operation }> {
  return Object.fromEntries(NOTIFICATION_TYPE_VALUES.map((type) => [type, { post: notification(type) }]));
}
