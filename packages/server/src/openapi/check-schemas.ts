/** The schemas of a session's instant checks, the page's document reading and its document prefill (docs/backend-api.md#checks). */
import {
  CHECK_SERVICES,
  CHECK_STATES,
  DOCUMENT_READING_LIMITS,
  MRZ_CHECKED_FIELDS,
  MRZ_FIELD_NAMES,
  MRZ_FORMATS,
  READ_DOCUMENT_KINDS,
  SESSION_CHECKS,
  SESSION_STEPS,
} from '@onboarding-kit/contract';
import { OUTCOME_KINDS, TEXT_RULES } from './enumerations.js';
import { dateTime, object, ref, string, type Json } from './kit.js';

const REPORTED_CHECKS = Object.keys(CHECK_SERVICES);
const mrzText = string({ minLength: 1, maxLength: 44 });

export const CHECK_SCHEMAS: Record<string, Json> = {
  SessionCheck: string({ enum: [...SESSION_CHECKS], description: 'An instant check a session may ask for (docs/backend-api.md#checks).' }),
  SessionStep: string({ enum: [...SESSION_STEPS], description: 'An optional step a session may add to the flow.' }),
  CheckResult: object(
    {
      check: string({ enum: REPORTED_CHECKS }),
      service: string({ enum: Object.values(CHECK_SERVICES), description: 'The upstream service called.' }),
      state: string({
        enum: [...CHECK_STATES],
        description:
          '`pending` until a final answer; `done`: processed, `result` holds the upstream data (a face mismatch included); `refused`: the upstream answered about the data (unreadable, no face), never retried; `failed`: a technical failure after the bounded retries, or a check that could not be sent.',
      }),
      outcome: string({
        enum: OUTCOME_KINDS,
        description: 'How the upstream answer was classified (docs/upstream-api.md#errors-and-classification).',
      }),
      result: { type: 'object', description: "The upstream's `result`, non-contract members removed, as received (`done` only)." },
      message: string({ description: "The upstream's message, tax ids, e-mail addresses and tokens masked." }),
      externalId: string({ description: "The upstream's identifier of the call, for its support." }),
      requestedAt: dateTime(),
      completedAt: dateTime(),
    },
    ['check', 'service', 'state', 'requestedAt'],
  ),
  SessionChecks: object(
    {
      requested: { type: 'array', items: string({ enum: REPORTED_CHECKS }) },
      results: { type: 'array', items: ref('CheckResult'), description: 'One per check once the onboarding is created; empty before.' },
      completedAt: dateTime('When the last check got its final result; `session.checks_completed` is sent then.'),
    },
    ['requested', 'results'],
    { description: 'A record of what the upstream answered; a redaction keeps only where each check stood.' },
  ),
  MrzReading: object(
    {
      format: string({ enum: [...MRZ_FORMATS] }),
      lines: {
        type: 'array',
        minItems: 2,
        maxItems: 3,
        items: string({ pattern: '^[A-Z0-9<]{30,44}$' }),
        description: 'TD1: 3 lines of 30; TD2: 2 of 36; TD3: 2 of 44.',
      },
      fields: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(
          MRZ_FIELD_NAMES.map((name): [string, Json] => [
            name,
            name === 'cpf' ? string({ pattern: '^\\d{11}$', description: 'A CPF whose check digits hold.' }) : mrzText,
          ]),
        ),
      },
      checks: {
        type: 'array',
        maxItems: MRZ_CHECKED_FIELDS.length,
        items: object({ field: string({ enum: [...MRZ_CHECKED_FIELDS] }), valid: { type: 'boolean' } }, ['field', 'valid']),
      },
      valid: { type: 'boolean' },
    },
    ['format', 'lines', 'fields', 'checks', 'valid'],
  ),
  SideReading: object(
    {
      qr: object({ payloadBase64: string({ description: `Pure base64 of at most ${DOCUMENT_READING_LIMITS.qrPayloadMaxBytes} bytes.` }) }, [
        'payloadBase64',
      ]),
      mrz: ref('MrzReading'),
      documentKind: string({ enum: [...READ_DOCUMENT_KINDS] }),
    },
    [],
  ),
  DocumentReading: object({ documentFront: ref('SideReading'), documentBack: ref('SideReading') }, [], {
    description: 'What the page read from the document photos (docs/page-api.md#document-reading): a record, never a verdict.',
  }),
  DocumentPrefillRequest: object(
    {
      documentType: string({ maxLength: 200, description: `The document type the person chose. ${TEXT_RULES}` }),
      images: object(
        {
          documentFront: string({ description: 'Pure base64 of a JPEG or PNG, at most `imageMaxBytes` decoded.' }),
          documentBack: string({ description: 'Pure base64 of a JPEG or PNG, at most `imageMaxBytes` decoded.' }),
        },
        ['documentFront'],
      ),
    },
    ['documentType', 'images'],
  ),
  DocumentPrefill: object(
    {
      cpf: string({ pattern: '^\\d{11}$', description: 'The CPF the OCR read, only when its check digits hold.' }),
      name: string({ description: "The name the OCR read, only when it is a person's name." }),
    },
    [],
    { description: 'For the person to confirm before the onboarding is created; `{}` when nothing usable was read.' },
  ),
};
