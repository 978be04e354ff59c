/** The schemas of sessions, as the backend and the page see them, and of the hand-off. */
import {
  HANDOFF_CODE_ALPHABET,
  HANDOFF_LIMITS,
  HANDOFF_PROGRESS_STEPS,
  HANDOFF_ROLES,
  IMAGE_ROLES,
  KEPT_CHECKS,
  SESSION_LIMITS,
  SESSION_LOCALES,
  TERMINAL_STATUSES,
} from '@onboarding-kit/contract';
import { SESSION_STATUS_VALUES, TEXT_RULES } from './enumerations.js';
import { dateTime, object, ref, string, type Json } from './kit.js';

const keptAnyway = object(Object.fromEntries(IMAGE_ROLES.map((role) => [role, string({ enum: [...KEPT_CHECKS] })])), [], {
  description: 'Per image role, the check that refused the photo the person kept anyway (docs/page-api.md#photos-kept-anyway).',
});

const sessionOnboarding = object(
  {
    tokenOnboarding: string(),
    status: ref('OnboardingStatus'),
    externalId: string({ description: "The upstream's identifier, for support (always looked for on `ERROR`)." }),
    history: {
      description: "Status changes as the companion saw them; `null` once retention deleted the onboarding's own record.",
      oneOf: [{ type: 'array', items: ref('SessionHistoryEntry') }, { type: 'null' }],
    },
    keptAnyway: ref('KeptAnyway'),
    services: { description: "The report's `services` member, as the upstream sent it." },
  },
  ['tokenOnboarding', 'status', 'history'],
);

const sessionEventVariants: Json[] = [
  object({ type: { const: 'handoff.created' }, expiresAt: dateTime() }, ['type', 'expiresAt']),
  object({ type: { const: 'handoff.claimed' } }, ['type']),
  object({ type: { const: 'handoff.expired' } }, ['type']),
  object({ type: { const: 'handoff.reclaimed' } }, ['type']),
  object({ type: { const: 'capture.progress' }, step: string({ enum: [...HANDOFF_PROGRESS_STEPS] }), photos: ref('HandoffPhotos') }, [
    'type',
    'step',
    'photos',
  ]),
  object({ type: { const: 'session.submitted' }, tokenOnboarding: string() }, ['type', 'tokenOnboarding']),
  object(
    {
      type: { const: 'session.completed' },
      tokenOnboarding: string(),
      status: string({ enum: [...TERMINAL_STATUSES] }),
      externalId: string(),
    },
    ['type', 'tokenOnboarding', 'status'],
  ),
  object({ type: { const: 'session.expired' } }, ['type']),
  object({ type: { const: 'session.cancelled' } }, ['type']),
];

export const SESSION_SCHEMAS: Record<string, Json> = {
  SessionStatus: string({
    enum: SESSION_STATUS_VALUES,
    description:
      '`open` until the onboarding is created (`submitted`), `completed` at its final status, `expired` when `expiresAt` passed with no onboarding, `cancelled` by `POST /v1/sessions/{id}/cancel`.',
  }),
  KeptAnyway: keptAnyway,
  CreateSessionRequest: object(
    {
      reference: string({
        minLength: 1,
        maxLength: SESSION_LIMITS.referenceMaxLength,
        description: "The integrator's id for the person, printable characters.",
      }),
      cpf: string({ description: 'Check digits verified; punctuation allowed. Fixes the person. Not with `cnpj`.' }),
      cnpj: string({ description: 'Check digits verified. Fixes the company. Not with `cpf`.' }),
      name: string({ minLength: 1, maxLength: 200, description: TEXT_RULES }),
      documentTypes: {
        type: 'array',
        minItems: 1,
        maxItems: SESSION_LIMITS.documentTypesMax,
        items: string({ pattern: '^[A-Za-z0-9_ -]{1,40}$' }),
        description: 'Document types offered, in this order (`CNH`, `RG`, `PASSPORT`...), upper-cased.',
      },
      locale: string({ enum: [...SESSION_LOCALES], default: 'pt-BR' }),
      returnUrl: string({
        format: 'uri',
        maxLength: 2048,
        description: 'Absolute http(s) URL; https in production (plain http only on a loopback host).',
      }),
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
      checks: {
        type: 'array',
        minItems: 1,
        items: ref('SessionCheck'),
        description: 'Instant checks run once the photos are in (docs/backend-api.md#checks); repeats folded.',
      },
      prefillFromDocument: {
        type: 'boolean',
        description: 'Offer the CPF and name the OCR reads, for the person to confirm; needs `ocr` in `checks`.',
      },
      steps: { type: 'array', minItems: 1, items: ref('SessionStep'), description: 'Optional steps added to the flow.' },
    },
    ['reference'],
    { description: 'At most 16 KiB; an unknown member is `400 invalid_field` naming it.' },
  ),
  CreateSessionResponse: object(
    {
      id: string({ pattern: '^ses_' }),
      clientSecret: string({ description: "The page's Bearer for this session; goes to the page only. Only its hash is kept." }),
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
      supportCode: string({
        pattern: '^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$',
        description:
          'The code the element shows the person on an error, to read out to support: the first 40 bits of `id` in Crockford base 32. `GET /v1/sessions?supportCode=` finds the session by it.',
      }),
      reference: string(),
      status: ref('SessionStatus'),
      createdAt: dateTime(),
      expiresAt: dateTime(),
      metadata: { type: 'object', additionalProperties: string() },
      returnUrl: string({ format: 'uri' }),
      onboarding: ref('SessionOnboarding'),
      redactedAt: dateTime("When the session's personal data was erased (`POST /v1/sessions/{id}/redact`)."),
      checks: ref('SessionChecks'),
      documentReading: ref('DocumentReading'),
      integrity: ref('SessionIntegrity'),
    },
    ['id', 'supportCode', 'reference', 'status', 'createdAt', 'expiresAt', 'metadata'],
    { description: "The backend's view of a session: never a secret." },
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
      expiresAt: dateTime("The pending link's expiry."),
      answers: object(
        {
          consentAt: dateTime('When the person consented on the computer.'),
          cpf: string({ description: 'Masked: `***.982.247-**`.' }),
          documentType: string(),
        },
        ['consentAt'],
        { description: 'To the device holding a handed-off session only: what the computer already answered.' },
      ),
    },
    ['state', 'holder', 'origin'],
  ),
  HandoffOfferRequest: object(
    {
      answers: object(
        {
          consentAt: dateTime('When the person consented (not in the future).'),
          cpf: string({ description: 'A valid CPF; refused when the session has its own tax id.' }),
          name: string({ maxLength: 200 }),
          documentType: string({ description: 'One the session offers.' }),
        },
        ['consentAt'],
      ),
    },
    [],
  ),
  PageSession: object(
    {
      id: string({ pattern: '^ses_' }),
      status: ref('SessionStatus'),
      expiresAt: dateTime(),
      prefill: object(
        {
          cpf: string({ description: 'Masked: `***.982.247-**`.' }),
          cnpj: string({ description: 'Masked.' }),
          name: string({ description: 'The first name.' }),
        },
        [],
        { description: 'Only while the session is open and unused; `{}` otherwise.' },
      ),
      documentTypes: { type: 'array', items: string() },
      locale: string(),
      returnUrl: string({ format: 'uri' }),
      handoff: ref('PageHandoffState'),
      prefillFromDocument: { type: 'boolean', description: 'The page may ask `POST /v1/session/document-prefill`.' },
      steps: { type: 'array', items: ref('SessionStep') },
    },
    ['id', 'status', 'expiresAt', 'prefill', 'documentTypes', 'locale'],
    { description: 'What a page may see of its session.' },
  ),
  CaptureExchangeRequest: object({ captureToken: string({ minLength: 16, maxLength: 128 }) }, ['captureToken']),
  CaptureExchange: object(
    {
      pageSecret: string({ description: "The hosted page's Bearer from then on, as the session's origin." }),
      sessionId: string({ pattern: '^ses_' }),
    },
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
    { clientSecret: string({ description: "This device's own page secret for the session." }), sessionId: string({ pattern: '^ses_' }) },
    ['clientSecret', 'sessionId'],
  ),
  HandoffPhotos: { type: 'array', maxItems: HANDOFF_ROLES.length, uniqueItems: true, items: string({ enum: [...HANDOFF_ROLES] }) },
  SessionProgressReport: object({ step: string({ enum: [...HANDOFF_PROGRESS_STEPS] }), photos: ref('HandoffPhotos') }, ['step', 'photos']),
  SessionEvent: { oneOf: sessionEventVariants, description: 'The `data` of an event of `GET /v1/session/events`; `event:` is its `type`.' },
};
