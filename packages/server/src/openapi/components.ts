/**
 * The document's shared schemas and security schemes. Enumerations come from the contract's own
 * lists (statuses, locales, image roles, checks, steps), so a value added there reaches the
 * document; members follow the contract's types and the routes' validators.
 */
import {
  HANDOFF_CODE_ALPHABET,
  HANDOFF_LIMITS,
  HANDOFF_PROGRESS_STEPS,
  HANDOFF_ROLES,
  IMAGE_ROLES,
  KEPT_CHECKS,
  NOTIFICATION_TYPES,
  ONBOARDING_STATUSES,
  SESSION_LIMITS,
  SESSION_LOCALES,
  SESSION_STATUSES,
  TERMINAL_STATUSES,
  type OutcomeKind,
} from '@onboarding-kit/contract';
import { NOTIFICATION_FILTERS } from '../notifications/notification-summary.js';
import { ERROR_BODY_SCHEMA, errorCodeSchema, UPSTREAM_FAILURE_SCHEMA } from './error-responses.js';
import { dateTime, object, ref, string, type Json } from './kit.js';

/** `values` then those of `more` it lacks: the document names every value its routes answer, the contract's list first. */
export function unionOf(values: readonly string[], more: readonly string[]): string[] {
  return [...values, ...more.filter((v) => !values.includes(v))];
}

/** Session statuses the routes answer; `POST /v1/sessions/{id}/cancel` answers `cancelled`. */
export const SESSION_STATUS_VALUES = unionOf(SESSION_STATUSES, ['cancelled']);

/** Notification types the companion sends; the cancel and redact routes send `session.cancelled` and `session.redacted`. */
export const NOTIFICATION_TYPE_VALUES = unionOf(NOTIFICATION_TYPES, ['session.cancelled', 'session.redacted']).sort();

/** Every kind of a classified outcome: `satisfies` holds it to the contract's `OutcomeKind`, no more, no fewer. */
const OUTCOME_KINDS = Object.keys({
  success: true,
  'no-data': true,
  refused: true,
  error: true,
  'no-access': true,
  'missing-image': true,
  'face-not-found': true,
  unauthorized: true,
  failed: true,
} satisfies Record<OutcomeKind, true>);

/** The kinds a query answers with 200: the upstream's answer to the query, whatever it says (the rest is an error answer). */
const ANSWER_KINDS: readonly OutcomeKind[] = ['success', 'no-data', 'refused', 'failed', 'no-access', 'missing-image', 'face-not-found'];

const textRules = 'Plain text: letters, digits, spaces and `.,\'’()/-`.';

const outcomeMembers = (kinds: readonly string[]): Record<string, Json> => ({
  kind: string({ enum: [...kinds], description: 'The classification (docs/upstream-api.md#errors-and-classification).' }),
  ok: { type: 'boolean', description: 'True for `success` and `no-data`: the query was processed.' },
  code: { type: 'integer', description: 'The upstream\'s `status.code`, when it sent one.' },
  message: string({ description: 'The upstream\'s `status.message`, when it sent one (the reason of `no-data`).' }),
  externalId: string({ description: 'The upstream\'s identifier of the query, when it sent one.' }),
  result: { type: 'object', description: 'The business data, non-contract members and nulls removed (`{}` for `no-data`); absent for failures.' },
  retryable: { type: 'boolean', description: 'Whether the same query could answer otherwise later; a refusal never does.' },
});

const keptAnyway = object(
  Object.fromEntries(IMAGE_ROLES.map((role) => [role, string({ enum: [...KEPT_CHECKS] })])),
  [],
  { description: 'Per image role, the check that refused the photo the person kept anyway (docs/page-api.md#photos-kept-anyway).' },
);

const sessionOnboarding = object(
  {
    tokenOnboarding: string(),
    status: ref('OnboardingStatus'),
    externalId: string({ description: 'The upstream\'s identifier, for support (always looked for on `ERROR`).' }),
    history: {
      description: 'Status changes as the companion saw them; `null` once retention deleted the onboarding\'s own record.',
      oneOf: [{ type: 'array', items: ref('SessionHistoryEntry') }, { type: 'null' }],
    },
    keptAnyway: ref('KeptAnyway'),
    refusal: {
      type: 'object',
      description: 'Why the upstream refused, where its report gives reasons.',
      properties: { reasons: { type: 'array', items: string() } },
      required: ['reasons'],
    },
    services: { description: 'The report\'s `services` member, as the upstream sent it.' },
  },
  ['tokenOnboarding', 'status', 'history'],
);

const sessionEventVariants: Json[] = [
  object({ type: { const: 'handoff.created' }, expiresAt: dateTime() }, ['type', 'expiresAt']),
  object({ type: { const: 'handoff.claimed' } }, ['type']),
  object({ type: { const: 'handoff.expired' } }, ['type']),
  object({ type: { const: 'handoff.reclaimed' } }, ['type']),
  object(
    { type: { const: 'capture.progress' }, step: string({ enum: [...HANDOFF_PROGRESS_STEPS] }), photos: ref('HandoffPhotos') },
    ['type', 'step', 'photos'],
  ),
  object({ type: { const: 'session.submitted' }, tokenOnboarding: string() }, ['type', 'tokenOnboarding']),
  object(
    { type: { const: 'session.completed' }, tokenOnboarding: string(), status: string({ enum: [...TERMINAL_STATUSES] }), externalId: string() },
    ['type', 'tokenOnboarding', 'status'],
  ),
  object({ type: { const: 'session.expired' } }, ['type']),
  object({ type: { const: 'session.cancelled' } }, ['type']),
];

export const SCHEMAS: Record<string, Json> = {
  ErrorCode: errorCodeSchema(),
  ErrorBody: ERROR_BODY_SCHEMA,
  UpstreamFailure: UPSTREAM_FAILURE_SCHEMA,
  OnboardingStatus: string({ enum: [...ONBOARDING_STATUSES], description: 'The upstream\'s status of an onboarding; only `IN_PROCESS` is not final.' }),
  SessionStatus: string({
    enum: SESSION_STATUS_VALUES,
    description:
      '`open` until the onboarding is created (`submitted`), `completed` at its final status, `expired` when `expiresAt` passed with no onboarding, `cancelled` by `POST /v1/sessions/{id}/cancel`.',
  }),
  KeptAnyway: keptAnyway,
  CreateSessionRequest: object(
    {
      reference: string({ minLength: 1, maxLength: SESSION_LIMITS.referenceMaxLength, description: 'The integrator\'s id for the person, printable characters.' }),
      cpf: string({ description: 'Check digits verified; punctuation allowed. Fixes the person. Not with `cnpj`.' }),
      cnpj: string({ description: 'Check digits verified. Fixes the company. Not with `cpf`.' }),
      name: string({ minLength: 1, maxLength: 200, description: textRules }),
      documentTypes: {
        type: 'array',
        minItems: 1,
        maxItems: SESSION_LIMITS.documentTypesMax,
        items: string({ pattern: '^[A-Za-z0-9_ -]{1,40}$' }),
        description: 'Document types offered, in this order (`CNH`, `RG`, `PASSPORT`...), upper-cased.',
      },
      locale: string({ enum: [...SESSION_LOCALES], default: 'pt-BR' }),
      returnUrl: string({ format: 'uri', maxLength: 2048, description: 'Absolute http(s) URL; https in production (plain http only on a loopback host).' }),
      expiresIn: {
        type: 'integer',
        minimum: SESSION_LIMITS.minExpiresInS,
        maximum: SESSION_LIMITS.maxExpiresInS,
        default: SESSION_LIMITS.defaultExpiresInS,
        description: 'Seconds until the session expires.',
      },
      metadata: {
        type: 'object',
        maxProperties: SESSION_LIMITS.metadataMaxEntries,
        propertyNames: { minLength: 1, maxLength: SESSION_LIMITS.metadataKeyMaxLength },
        additionalProperties: string({ maxLength: SESSION_LIMITS.metadataValueMaxLength }),
        description: 'Echoed in every view of the session.',
      },
    },
    ['reference'],
    { description: 'At most 16 KiB; an unknown member is `400 invalid_field` naming it.' },
  ),
  CreateSessionResponse: object(
    {
      id: string({ pattern: '^ses_' }),
      clientSecret: string({ description: 'The page\'s Bearer for this session; goes to the page only. Only its hash is kept.' }),
      url: string({ format: 'uri', description: 'The hosted capture page of this session (`<publicUrl>/capture/<token>`).' }),
      status: ref('SessionStatus'),
      expiresAt: dateTime(),
      reference: string(),
    },
    ['id', 'clientSecret', 'url', 'status', 'expiresAt', 'reference'],
  ),
  SessionHistoryEntry: object(
    { status: ref('OnboardingStatus'), at: dateTime(), source: string({ enum: ['creation', 'webhook', 'poll'] }) },
    ['status', 'at', 'source'],
  ),
  SessionOnboarding: sessionOnboarding,
  SessionView: object(
    {
      id: string({ pattern: '^ses_' }),
      reference: string(),
      status: ref('SessionStatus'),
      createdAt: dateTime(),
      expiresAt: dateTime(),
      metadata: { type: 'object', additionalProperties: string() },
      returnUrl: string({ format: 'uri' }),
      onboarding: ref('SessionOnboarding'),
      redactedAt: dateTime('When the session\'s personal data was erased (`POST /v1/sessions/{id}/redact`).'),
    },
    ['id', 'reference', 'status', 'createdAt', 'expiresAt', 'metadata'],
    { description: 'The backend\'s view of a session: never a secret.' },
  ),
  SessionList: object(
    {
      data: { type: 'array', items: ref('SessionView'), description: 'Newest first.' },
      nextCursor: { oneOf: [string(), { type: 'null' }], description: 'Pass as `cursor` for the next page; `null` on the last one.' },
    },
    ['data', 'nextCursor'],
  ),
  PageHandoffState: object(
    {
      state: string({ enum: ['none', 'pending', 'claimed'] }),
      holder: { type: 'boolean', description: 'Whether this page captures and submits.' },
      origin: { type: 'boolean', description: 'Whether this page may offer a hand-off or take the session back.' },
      expiresAt: dateTime('The pending link\'s expiry.'),
    },
    ['state', 'holder', 'origin'],
  ),
  PageSession: object(
    {
      id: string({ pattern: '^ses_' }),
      status: ref('SessionStatus'),
      expiresAt: dateTime(),
      prefill: object(
        { cpf: string({ description: 'Masked: `***.982.247-**`.' }), cnpj: string({ description: 'Masked.' }), name: string({ description: 'The first name.' }) },
        [],
        { description: 'Only while the session is open and unused; `{}` otherwise.' },
      ),
      documentTypes: { type: 'array', items: string() },
      locale: string(),
      returnUrl: string({ format: 'uri' }),
      handoff: ref('PageHandoffState'),
    },
    ['id', 'status', 'expiresAt', 'prefill', 'documentTypes', 'locale'],
    { description: 'What a page may see of its session.' },
  ),
  CaptureExchangeRequest: object({ captureToken: string({ minLength: 16, maxLength: 128 }) }, ['captureToken']),
  CaptureExchange: object(
    { pageSecret: string({ description: 'The hosted page\'s Bearer from then on, as the session\'s origin.' }), sessionId: string({ pattern: '^ses_' }) },
    ['pageSecret', 'sessionId'],
  ),
  HandoffOffer: object(
    {
      url: string({ format: 'uri', description: 'The link for the QR code; single use.' }),
      shortUrl: string({ format: 'uri', description: 'Where the short code is typed.' }),
      code: string({ pattern: `^[${HANDOFF_CODE_ALPHABET}]{${HANDOFF_LIMITS.codeLength}}$` }),
      expiresAt: dateTime(),
    },
    ['url', 'shortUrl', 'code', 'expiresAt'],
  ),
  HandoffClaimRequest: {
    oneOf: [
      object({ token: string({ minLength: 1, maxLength: 128 }) }, ['token']),
      object({ code: string({ minLength: 1, maxLength: 32, description: 'Any case; spaces and dashes ignored.' }) }, ['code']),
    ],
  },
  HandoffClaim: object(
    { clientSecret: string({ description: 'This device\'s own page secret for the session.' }), sessionId: string({ pattern: '^ses_' }) },
    ['clientSecret', 'sessionId'],
  ),
  HandoffPhotos: { type: 'array', maxItems: HANDOFF_ROLES.length, uniqueItems: true, items: string({ enum: [...HANDOFF_ROLES] }) },
  SessionProgressReport: object({ step: string({ enum: [...HANDOFF_PROGRESS_STEPS] }), photos: ref('HandoffPhotos') }, ['step', 'photos']),
  SessionEvent: { oneOf: sessionEventVariants, description: 'The `data` of an event of `GET /v1/session/events`; `event:` is its `type`.' },
  CreateOnboardingRequest: object(
    {
      cpf: string({ description: 'Exactly one of `cpf` and `cnpj` (or neither on a session that fixes the person).' }),
      cnpj: string(),
      name: string({ maxLength: 200, description: textRules }),
      documentType: string({ maxLength: 200, description: `${textRules} Checked, not sent upstream.` }),
      images: object(
        Object.fromEntries(IMAGE_ROLES.map((role) => [role, string({ description: 'Pure base64 of a JPEG or PNG, at most `imageMaxBytes` decoded.' })])),
        ['documentFront', 'selfie'],
      ),
      keptAnyway: ref('KeptAnyway'),
    },
    ['images'],
  ),
  CreateOnboardingResponse: object(
    {
      tokenOnboarding: string(),
      status: ref('OnboardingStatus'),
      dateHourProcess: string({ description: 'The upstream\'s own time of the creation, when it sent one.' }),
      accessKey: string({ description: 'This page\'s Bearer for every later read of the onboarding; only its hash is kept.' }),
    },
    ['tokenOnboarding', 'status', 'accessKey'],
  ),
  OnboardingState: object(
    {
      tokenOnboarding: string(),
      status: ref('OnboardingStatus'),
      updatedAt: dateTime('When the status last changed.'),
      externalId: string(),
      message: string({ description: 'The upstream\'s reason, when it gave one.' }),
    },
    ['tokenOnboarding', 'status', 'updatedAt'],
  ),
  QueryRequest: {
    type: 'object',
    required: ['service'],
    properties: {
      service: string({ pattern: '^[A-Za-z0-9_.-]{1,100}$', description: 'A catalog service id, a product alias, or an id the catalog does not know (sent as given).' }),
    },
    additionalProperties: string({ description: 'The service\'s request fields (docs/upstream-api.md#request-fields), every one a string.' }),
    maxProperties: 33,
  },
  QueryAnswer: object(
    {
      id: string({ pattern: '^qry_', description: 'This query\'s id, for `GET /v1/queries/{id}` and `query.completed`.' }),
      ...outcomeMembers(ANSWER_KINDS),
      key: string({ format: 'uuid', description: 'Asynchronous inspections only: the inspection\'s key.' }),
    },
    ['id', 'kind', 'ok', 'retryable'],
  ),
  InspectionConsult: object(
    { ...outcomeMembers(ANSWER_KINDS), key: string({ format: 'uuid' }) },
    ['kind', 'ok', 'retryable', 'key'],
    { description: 'The upstream\'s answer to the consultation of an asynchronous inspection; `result.status` tells whether it is done.' },
  ),
  QueryRecord: object(
    {
      id: string({ pattern: '^qry_' }),
      service: string(),
      status: string({ enum: ['pending', 'completed', 'failed'] }),
      createdAt: dateTime(),
      completedAt: dateTime(),
      key: string({ format: 'uuid' }),
      result: {
        type: 'object',
        required: ['kind', 'ok', 'retryable'],
        properties: outcomeMembers(OUTCOME_KINDS),
        description: 'The outcome as `POST /v1/queries` answered it, or as the inspection finished.',
      },
    },
    ['id', 'service', 'status', 'createdAt'],
  ),
  QueryCompleted: {
    type: 'object',
    required: ['requestId', 'service', 'key', 'kind', 'ok', 'retryable'],
    properties: {
      requestId: string({ pattern: '^qry_', description: 'The `id` that `POST /v1/queries` answered.' }),
      service: string({ description: 'The upstream service name.' }),
      key: string({ description: 'The inspection key.' }),
      ...outcomeMembers(OUTCOME_KINDS),
    },
    additionalProperties: false,
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
    description: 'The upstream\'s onboarding report (docs/upstream-api.md#onboarding-report), non-contract members and nulls removed.',
  },
  EvidenceRequest: {
    oneOf: [
      object({}, [], { description: 'A passphrase generated by the companion (also: no body).' }),
      object({ password: string({ minLength: 16, maxLength: 1024, description: 'The caller\'s own passphrase; an entropy check applies.' }) }, ['password']),
      object({ encrypt: { const: false } }, ['encrypt'], { description: 'No encryption.' }),
    ],
  },
  NotificationEvent: object(
    {
      id: string({ pattern: '^evt_', description: 'Receivers dedupe by it.' }),
      type: string({ enum: NOTIFICATION_TYPE_VALUES }),
      createdAt: dateTime(),
      environment: string({ enum: ['test', 'production'], description: 'The companion\'s `environment`.' }),
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
      lastError: { oneOf: [string({ description: '`HTTP 500`, `timeout`, `connection refused`, `network error (…)`.' }), { type: 'null' }] },
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
      { type: 'object', required: ['tokenOnboarding', 'status'], properties: { tokenOnboarding: string(), status: string(), externalId: string() } },
      {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'object' }, result: {}, onboardingStatus: string(), externalId: string(), tokenOnboarding: string() },
      },
    ],
  },
  Health: object({ status: { const: 'ok' } }, ['status']),
  Readiness: object(
    {
      status: string({ enum: ['ready', 'unready'], description: '`ready` when every check is `ok`.' }),
      checks: {
        type: 'object',
        required: ['store', 'upstream'],
        properties: { store: string(), upstream: string() },
        additionalProperties: string(),
        description: 'Each check, `ok` or what failed.',
      },
    },
    ['status', 'checks'],
  ),
};

const bearer = (description: string): Json => ({ type: 'http', scheme: 'bearer', description });

export const SECURITY_SCHEMES: Record<string, Json> = {
  apiKey: bearer(
    'An API key of the integrator\'s backend (`ONBOARDING_API_KEYS`), server to server only. Each key carries scopes; the scope an operation needs is named in its security requirement: `sessions`, `queries`, `reports` or `admin` (docs/backend-api.md#scopes). A missing or wrong key is `401 unauthorized`; a valid key without the scope is `403 forbidden`. A key written without scopes has every scope in `test` and `sessions` only in `production`.',
  ),
  adminKey: bearer('The admin key (`ONBOARDING_ADMIN_KEY`): the scopes `admin` and `reports`.'),
  pageSecret: bearer(
    'A page secret of a session: its `clientSecret`, the capture token of its `url` (until exchanged), the hosted page\'s page secret, or a device\'s secret from a hand-off claim (docs/page-api.md#page-secrets). Never an API key.',
  ),
  accessKey: bearer('The `accessKey` answered by the creation of this onboarding, held by that page only. A missing or wrong key is the same `404` as an unknown onboarding.'),
  webhookToken: { type: 'apiKey', in: 'header', name: 'id-service-token', description: 'The key agreed with the upstream\'s operator (`ONBOARDING_WEBHOOK_KEY`), compared in constant time.' },
};
