/**
 * The strict check of a creation's `documentReading` (docs/page-api.md#document-reading): only
 * the members the contract names, each within its bounds. A reading is kept as a record and
 * never decides anything, so what is kept must at least be what the contract says it is.
 */
import { decodedLength, isPureBase64 } from './base64.js';
import {
  DOCUMENT_READING_LIMITS,
  MRZ_CHECKED_FIELDS,
  MRZ_FORMATS,
  READ_DOCUMENT_KINDS,
  type DocumentReading,
  type MrzFormat,
  type SideReading,
} from './document-reading.js';
import { isRecord, refuseField, unknownMember as unknownMemberOf } from './guards.js';
import type { Validation } from './page-api.js';
import { isValidCpf } from './tax-id.js';

/** Lines and characters per line of each MRZ layout. */
const MRZ_SHAPES: Record<MrzFormat, { lines: number; length: number }> = {
  TD1: { lines: 3, length: 30 },
  TD2: { lines: 2, length: 36 },
  TD3: { lines: 2, length: 44 },
};
const MRZ_LINE = /^[A-Z0-9<]+$/;
/** The members of an MRZ reading's `fields`. */
export const MRZ_FIELD_NAMES = [
  'documentCode',
  'issuingState',
  'documentNumber',
  'birthDate',
  'sex',
  'expirationDate',
  'nationality',
  'lastName',
  'firstName',
  'optional',
  'cpf',
] as const;
/** Longest parsed field: a TD3 line holds 44 characters, and no field spans more than one line. */
const MRZ_FIELD_MAX_LENGTH = 44;
// eslint-disable-next-line no-control-regex -- a parsed field is printable text: control characters are what it refuses
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const SIDES = ['documentFront', 'documentBack'] as const;

const refuse = refuseField;
const unknownMember = (value: Record<string, unknown>, known: readonly string[], field: string) =>
  unknownMemberOf(value, known, field, 'a document reading');

function checkQr(value: unknown, field: string): Validation<null> {
  if (!isRecord(value)) return refuse(field, 'must be an object holding payloadBase64.');
  const extra = unknownMember(value, ['payloadBase64'], field);
  if (extra) return extra;
  const payload = value.payloadBase64;
  const max = DOCUMENT_READING_LIMITS.qrPayloadMaxBytes;
  if (typeof payload !== 'string' || payload === '' || !isPureBase64(payload) || decodedLength(payload) > max)
    return refuse(`${field}.payloadBase64`, `must be pure base64 of 1 to ${max} bytes.`);
  return { ok: true, value: null };
}

function checkMrzFields(value: unknown, field: string): Validation<null> {
  if (!isRecord(value)) return refuse(field, 'must be an object of the parsed fields.');
  const extra = unknownMember(value, MRZ_FIELD_NAMES, field);
  if (extra) return extra;
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== 'string' || text === '' || text.length > MRZ_FIELD_MAX_LENGTH || CONTROL_CHARACTER.test(text))
      return refuse(`${field}.${name}`, `must be text of 1 to ${MRZ_FIELD_MAX_LENGTH} printable characters.`);
  }
  if (value.cpf !== undefined && !(/^\d{11}$/.test(value.cpf as string) && isValidCpf(value.cpf as string)))
    return refuse(`${field}.cpf`, 'must be the 11 digits of a CPF whose check digits hold.');
  return { ok: true, value: null };
}

function checkMrzChecks(value: unknown, field: string): Validation<null> {
  if (!Array.isArray(value) || value.length > MRZ_CHECKED_FIELDS.length)
    return refuse(field, `must be a list of at most ${MRZ_CHECKED_FIELDS.length} check-digit results.`);
  const seen = new Set<unknown>();
  for (const [i, entry] of value.entries()) {
    const at = `${field}.${i}`;
    if (!isRecord(entry)) return refuse(at, 'must be an object of field and valid.');
    const extra = unknownMember(entry, ['field', 'valid'], at);
    if (extra) return extra;
    if (!(MRZ_CHECKED_FIELDS as readonly unknown[]).includes(entry.field) || seen.has(entry.field))
      return refuse(`${at}.field`, `must be one of ${MRZ_CHECKED_FIELDS.join(', ')}, each at most once.`);
    seen.add(entry.field);
    if (typeof entry.valid !== 'boolean') return refuse(`${at}.valid`, 'must be true or false.');
  }
  return { ok: true, value: null };
}

function checkMrz(value: unknown, field: string): Validation<null> {
  if (!isRecord(value)) return refuse(field, 'must be an object of format, lines, fields, checks and valid.');
  const extra = unknownMember(value, ['format', 'lines', 'fields', 'checks', 'valid'], field);
  if (extra) return extra;
  if (!(MRZ_FORMATS as readonly unknown[]).includes(value.format))
    return refuse(`${field}.format`, `must be one of ${MRZ_FORMATS.join(', ')}.`);
  const shape = MRZ_SHAPES[value.format as MrzFormat];
  const lines = value.lines;
  if (
    !Array.isArray(lines) ||
    lines.length !== shape.lines ||
    !lines.every((l) => typeof l === 'string' && l.length === shape.length && MRZ_LINE.test(l))
  ) {
    return refuse(
      `${field}.lines`,
      `must be ${shape.lines} lines of ${shape.length} characters A-Z, 0-9 and < for ${String(value.format)}.`,
    );
  }
  const fields = checkMrzFields(value.fields, `${field}.fields`);
  if (!fields.ok) return fields;
  const checks = checkMrzChecks(value.checks, `${field}.checks`);
  if (!checks.ok) return checks;
  if (typeof value.valid !== 'boolean') return refuse(`${field}.valid`, 'must be true or false.');
  return { ok: true, value: null };
}

function checkSide(value: unknown, field: string): Validation<null> {
  if (!isRecord(value)) return refuse(field, 'must be an object of qr, mrz and documentKind.');
  const extra = unknownMember(value, ['qr', 'mrz', 'documentKind'], field);
  if (extra) return extra;
  if (value.qr !== undefined) {
    const qr = checkQr(value.qr, `${field}.qr`);
    if (!qr.ok) return qr;
  }
  if (value.mrz !== undefined) {
    const mrz = checkMrz(value.mrz, `${field}.mrz`);
    if (!mrz.ok) return mrz;
  }
  if (value.documentKind !== undefined && !(READ_DOCUMENT_KINDS as readonly unknown[]).includes(value.documentKind))
    return refuse(`${field}.documentKind`, `must be one of ${READ_DOCUMENT_KINDS.join(', ')}.`);
  return { ok: true, value: null };
}

/**
 * A creation's `documentReading`, checked member by member; absent when the body has none or
 * nothing was read. Every refusal is `invalid_field` naming the member at fault.
 */
export function validateDocumentReading(value: unknown): Validation<DocumentReading | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const field = 'documentReading';
  if (!isRecord(value)) return refuse(field, 'must be an object of documentFront and documentBack readings.');
  const extra = unknownMember(value, SIDES, field);
  if (extra) return extra;
  const reading: DocumentReading = {};
  for (const side of SIDES) {
    if (value[side] === undefined) continue;
    const checked = checkSide(value[side], `${field}.${side}`);
    if (!checked.ok) return checked;
    reading[side] = value[side] as SideReading;
  }
  return { ok: true, value: Object.keys(reading).length > 0 ? reading : undefined };
}
