/**
 * The document's shared schemas. Enumerations come from the contract's own lists (statuses,
 * locales, image roles, checks, steps), so a value added there reaches the document; members
 * follow the contract's types and the routes' validators.
 */
import { ONBOARDING_STATUSES, IMAGE_ROLES } from '@onboarding-kit/contract';
import { NOTIFICATION_FILTERS } from '../notifications/notification-summary.js';
import { ANSWER_KINDS, NOTIFICATION_TYPE_VALUES, OUTCOME_KINDS, TEXT_RULES } from './enumerations.js';
import { ERROR_BODY_SCHEMA, errorCodeSchema, UPSTREAM_FAILURE_SCHEMA } from './error-responses.js';
import { dateTime, object, ref, string, type Json } from './kit.js';
import { SESSION_SCHEMAS } from './session-schemas.js';
import { CHECK_SCHEMAS } from './check-schemas.js';
import { INTEGRITY_SCHEMAS } from './integrity-schemas.js';

const outcomeMembers = (kinds: readonly string[]): Record<string, Json> => ({
  kind: string({ enum: [...kinds], description: 'The classification (docs/upstream-api.md#errors-and-classification).' }),
  ok: { type: 'boolean', description: 'True for `success` and `no-data`: the query was processed.' },
  code: { type: 'integer', description: "The upstream's `status.code`, when it sent one." },
  message: string({ description: "The upstream's `status.message`, when it sent one (the reason of `no-data`)." }),
  externalId: string({ description: "The upstream's identifier of the query, when it sent one." }),
  result: {
    type: 'object',
    description: 'The business data, non-contract members and nulls removed (`{}` for `no-data`); absent for failures.',
  },
  retryable: { type: 'boolean', description: 'Whether the same query could answer otherwise later; a refusal never does.' },
});

export const SCHEMAS: Record<string, Json> = {
  ErrorCode: errorCodeSchema(),
  ErrorBody: ERROR_BODY_SCHEMA,
  UpstreamFailure: UPSTREAM_FAILURE_SCHEMA,
  OnboardingStatus: string({
    enum: [...ONBOARDING_STATUSES],
    description: "The upstream's status of an onboarding; only `IN_PROCESS` is not final.",
  }),
  ...SESSION_SCHEMAS,
  ...CHECK_SCHEMAS,
  ...INTEGRITY_SCHEMAS,
  CreateOnboardingRequest: object(
    {
      cpf: string({ description: 'Exactly one of `cpf` and `cnpj` (or neither on a session that fixes the person).' }),
      cnpj: string(),
      name: string({ maxLength: 200, description: TEXT_RULES }),
      documentType: string({ maxLength: 200, description: `${TEXT_RULES} Checked, not sent upstream.` }),
      images: object(
        Object.fromEntries(
          IMAGE_ROLES.map((role) => [role, string({ description: 'Pure base64 of a JPEG or PNG, at most `imageMaxBytes` decoded.' })]),
        ),
        ['documentFront', 'selfie'],
      ),
      keptAnyway: ref('KeptAnyway'),
      documentReading: ref('DocumentReading'),
      integrity: ref('CaptureIntegrityClaim'),
      proofOfAddress: string({
        description: 'A session with the `proof-of-address` step only: pure base64 of a JPEG, PNG or PDF, at most `imageMaxBytes` decoded.',
      }),
    },
    ['images'],
  ),
  CreateOnboardingResponse: object(
    {
      tokenOnboarding: string(),
      status: ref('OnboardingStatus'),
      dateHourProcess: string({ description: "The upstream's own time of the creation, when it sent one." }),
      accessKey: string({ description: "This page's Bearer for every later read of the onboarding; only its hash is kept." }),
    },
    ['tokenOnboarding', 'status', 'accessKey'],
  ),
  OnboardingState: object(
    {
      tokenOnboarding: string(),
      status: ref('OnboardingStatus'),
      updatedAt: dateTime('When the status last changed.'),
      externalId: string(),
      message: string({ description: "The upstream's reason, when it gave one." }),
    },
    ['tokenOnboarding', 'status', 'updatedAt'],
  ),
  QueryRequest: {
    type: 'object',
    required: ['service'],
    properties: {
      service: string({
        pattern: '^[A-Za-z0-9_.-]{1,100}$',
        description: 'A catalog service id, a product alias, or an id the catalog does not know (sent as given).',
      }),
      notify: {
        type: 'boolean',
        default: false,
        description:
          "`true`: a `query.completed` for a synchronous answer too (by default only an asynchronous inspection's end sends one). Not sent upstream.",
      },
    },
    additionalProperties: string({
      description: "The service's request fields (docs/upstream-api.md#request-fields), every one a string.",
    }),
    maxProperties: 34,
  },
  QueryAnswer: object(
    {
      id: string({ pattern: '^qry_', description: "This query's id, for `GET /v1/queries/{id}` and `query.completed`." }),
      ...outcomeMembers(ANSWER_KINDS),
      key: string({ format: 'uuid', description: "Asynchronous inspections only: the inspection's key." }),
    },
    ['id', 'kind', 'ok', 'retryable'],
  ),
  InspectionConsult: object({ ...outcomeMembers(ANSWER_KINDS), key: string({ format: 'uuid' }) }, ['kind', 'ok', 'retryable', 'key'], {
    description: "The upstream's answer to the consultation of an asynchronous inspection; `result.status` tells whether it is done.",
  }),
  QueryRecord: object(
    {
      id: string({ pattern: '^qry_' }),
      service: string(),
      status: string({ enum: ['pending', 'completed', 'failed'] }),
      createdAt: dateTime(),
      completedAt: dateTime(),
      key: string({ format: 'uuid' }),
      resultErasedAt: dateTime('When retention erased `result`.'),
      result: {
        type: 'object',
        required: ['kind', 'ok', 'retryable'],
        properties: outcomeMembers(OUTCOME_KINDS),
        description:
          'The outcome as `POST /v1/queries` answered it, or as the inspection finished; absent while pending, for an inspection given up, and once erased.',
      },
    },
    ['id', 'service', 'status', 'createdAt'],
  ),
  QueryCompleted: {
    type: 'object',
    required: ['requestId', 'service', 'status'],
    properties: {
      requestId: string({ pattern: '^qry_', description: 'The `id` that `POST /v1/queries` answered.' }),
      service: string({ description: 'The service as the caller named it.' }),
      status: string({ enum: ['completed', 'failed'], description: '`failed` for an inspection given up or a consultation that failed.' }),
      key: string({ description: 'The inspection key (asynchronous inspections only).' }),
      ...outcomeMembers(OUTCOME_KINDS),
    },
    additionalProperties: false,
    description: 'The request, then its outcome (absent for an inspection given up).',
  },
  CustomerRecord: {
    type: 'object',
    required: ['tokenCustomer', 'documentKey', 'active'],
    properties: {
      tokenCustomer: string(),
      type: string(),
      documentKey: string(),
      name: string(),
      addInformation: string(),
      active: { type: 'boolean' },
      imageUrl: string(),
    },
    description: 'An upstream customer record, non-contract members removed.',
  },
  UpstreamReport: {
    type: 'object',
    required: ['tokenOnboarding', 'status'],
    properties: { tokenOnboarding: string(), status: string(), externalId: string(), fields: {}, services: {} },
    description: "The upstream's onboarding report (docs/upstream-api.md#onboarding-report), non-contract members and nulls removed.",
  },
  EvidenceRequest: {
    oneOf: [
      object({}, [], { description: 'A passphrase generated by the companion (also: no body).' }),
      object(
        { password: string({ minLength: 16, maxLength: 1024, description: "The caller's own passphrase; an entropy check applies." }) },
        ['password'],
      ),
      object({ encrypt: { const: false } }, ['encrypt'], { description: 'No encryption.' }),
    ],
  },
  NotificationEvent: object(
    {
      id: string({ pattern: '^evt_', description: 'Receivers dedupe by it.' }),
      type: string({ enum: NOTIFICATION_TYPE_VALUES }),
      createdAt: dateTime(),
      environment: string({ enum: ['test', 'production'], description: "The companion's `environment`." }),
      data: { description: 'By `type`: the session view, or the finished query.' },
    },
    ['id', 'type', 'createdAt', 'environment', 'data'],
  ),
  NotificationSummary: object(
    {
      id: string({ pattern: '^evt_' }),
      type: string({ enum: NOTIFICATION_TYPE_VALUES }),
      state: string({ enum: NOTIFICATION_FILTERS.filter((f) => f !== 'failing') }),
      orderKey: string({ description: 'Events with the same key are delivered in order (a session id, a query key).' }),
      attempts: { type: 'integer', minimum: 0 },
      createdAt: dateTime(),
      lastAttemptAt: { oneOf: [dateTime(), { type: 'null' }] },
      lastError: {
        oneOf: [string({ description: '`HTTP 500`, `timeout`, `connection refused`, `network error (…)`.' }), { type: 'null' }],
      },
      nextAttemptAt: { oneOf: [dateTime(), { type: 'null' }], description: 'Pending entries only.' },
      deliveredAt: { oneOf: [dateTime(), { type: 'null' }] },
      event: ref('NotificationEvent'),
    },
    ['id', 'type', 'state', 'orderKey', 'attempts', 'createdAt', 'lastAttemptAt', 'lastError', 'nextAttemptAt', 'deliveredAt', 'event'],
  ),
  UpstreamWebhook: {
    description:
      'Either shape the upstream sends (docs/upstream-api.md#webhooks): an onboarding report, or a service envelope of a finished standalone query. A report with a status the contract does not know is acknowledged and changes nothing.',
    anyOf: [
      {
        type: 'object',
        required: ['tokenOnboarding', 'status'],
        properties: { tokenOnboarding: string(), status: string(), externalId: string() },
      },
      {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'object' }, result: {}, onboardingStatus: string(), externalId: string(), tokenOnboarding: string() },
      },
    ],
  },
  Health: object(
    {
      status: string({
        enum: ['ok', 'stopping', 'unavailable'],
        description: '`ok`; `stopping` once a shutdown began; `unavailable` while the store does not answer.',
      }),
      ok: { type: 'boolean', description: 'Whether `status` is `ok`, for load balancers that read a boolean.' },
      stopping: { const: true },
      store: { const: 'unavailable' },
    },
    ['status', 'ok'],
  ),
  Readiness: object(
    {
      status: string({
        description: '`ready` when every check is `ok`; otherwise what keeps the instance from serving (`stopping`, `unavailable`).',
      }),
      checks: {
        type: 'object',
        properties: { store: string(), upstream: string() },
        additionalProperties: string(),
        description:
          'Each check, `ok` or what failed (`store`: the store answers; `upstream`: an upstream token is obtainable); empty while stopping.',
      },
    },
    ['status', 'checks'],
  ),
};
