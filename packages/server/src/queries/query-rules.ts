/**
 * What a standalone query may ask (docs/backend-api.md#standalone-queries), checked before
 * anything is sent upstream: the service named, its fields by the catalog, images as base64 or
 * https URLs, and the key that ties an asynchronous inspection to its consultation.
 */
import { randomUUID } from 'node:crypto';
import {
  decodedLength,
  isPureBase64,
  isServiceId,
  normalizeCnpj,
  normalizeCpf,
  parseDataUri,
  serviceForAlias,
  serviceSpec,
  isValidCnpj,
  isValidCpf,
  type AliasMap,
  REQUEST_FIELDS,
  type ServiceId,
} from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';

/** The submission and the consultation of the asynchronous document inspection (docs/upstream-api.md#asynchronous-document-inspection). */
const ASYNC_INSPECTION: ServiceId = 'SERVICE_DIGITAL_DOCUMENTOSCOPY';
export const ASYNC_CONSULT: ServiceId = 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT';

/** Every field the upstream's service-api names. */
const REQUEST_FIELD_SET: ReadonlySet<string> = new Set(REQUEST_FIELDS);
const IMAGE_FIELDS = ['image1', 'image2', 'selfie1'] as const;
/** Only these two images have a URL form; the selfie has none. */
/** The URL form of each image field the upstream fetches itself. */
export const URL_FIELDS: Readonly<Record<string, 'image1' | 'image2'>> = { image1Url: 'image1', image2Url: 'image2' };
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERVICE_ID = /^[A-Za-z0-9_.-]{1,100}$/;
const MAX_TEXT_FIELD = 1024;
const MAX_FIELDS = 32;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_URL = 2048;
/** Three images as base64 (a third larger than their bytes), with room for data-URI prefixes and the other fields. */
export function maxQueryBodyBytes(imageMaxBytes: number): number {
  return IMAGE_FIELDS.length * Math.ceil(imageMaxBytes / 3) * 4 + 64 * 1024;
}

interface ValidQuery {
  /** As given by the caller (a catalog id, an alias, or an id the catalog does not know). */
  service: string;
  fields: Record<string, string>;
  /** Set for an asynchronous inspection. */
  key?: string;
  /** The caller asks for `query.completed` even when the answer comes at once. */
  notify: boolean;
}

const invalid = (field: string, message: string) => new DomainError('invalid_field', message, { field });

/** Refuses, before anything is sent upstream, what would cost a call and fail anyway. */
export function validateQuery(body: unknown, deps: { imageMaxBytes: number; aliases?: AliasMap }): ValidQuery {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('invalid_request', 'The query must be a JSON object: {"service": "...", ...fields}.');
  }
  const { service, notify, ...rest } = body as Record<string, unknown>;
  if (notify !== undefined && typeof notify !== 'boolean') throw invalid('notify', 'notify must be true or false.');
  if (service === undefined || service === null || service === '')
    throw new DomainError('missing_field', 'service is required.', { field: 'service' });
  if (typeof service !== 'string' || !SERVICE_ID.test(service))
    throw invalid('service', 'service must be a service identifier (letters, digits, _ . -).');
  const id = isServiceId(service) ? service : serviceForAlias(service, deps.aliases);

  const entries = Object.entries(rest);
  if (entries.length > MAX_FIELDS) throw new DomainError('invalid_request', `A query has at most ${MAX_FIELDS} fields.`);
  const fields: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!FIELD_NAME.test(name)) throw invalid(name.slice(0, 64), 'Field names are letters, digits and _ (at most 64).');
    // An empty field is no field: the catalog check then names it as missing.
    if (value === undefined || value === null || value === '') continue;
    // The upstream types every field as text.
    if (typeof value !== 'string') throw invalid(name, `${name} must be a string.`);
    fields[name] = value;
  }

  if (id) checkCatalogFields(id, fields);
  for (const [name, value] of Object.entries(fields)) {
    if ((IMAGE_FIELDS as readonly string[]).includes(name)) fields[name] = checkImage(name, value, deps.imageMaxBytes);
    else if (name in URL_FIELDS) checkImageUrl(name, value, fields);
    else if (value.length > MAX_TEXT_FIELD) throw invalid(name, `${name} is longer than ${MAX_TEXT_FIELD} characters.`);
  }

  let key: string | undefined;
  if (id === ASYNC_INSPECTION) {
    // The key ties the submission to its consultation: one the caller did not choose is made here and answered.
    fields.key ??= randomUUID();
    key = fields.key;
  }
  if (id) {
    const missing = serviceSpec(id).required.find(
      (f) => !fields[f] && !(f === 'image1' && fields.image1Url) && !(f === 'image2' && fields.image2Url),
    );
    if (missing) throw new DomainError('missing_field', `${missing} is required by ${id}.`, { field: missing });
  }
  return { service, fields, ...(key && { key }), notify: notify === true };
}

/** Catalog services: only their fields (or the URL form of their images), checked where the catalog says how. */
function checkCatalogFields(id: ServiceId, fields: Record<string, string>): void {
  const spec = serviceSpec(id);
  const own = new Set<string>([...spec.required, ...spec.optional]);
  for (const [url, image] of Object.entries(URL_FIELDS)) if (own.has(image)) own.add(url);
  for (const name of Object.keys(fields)) {
    // A service whose request the upstream does not show may take any of its fields.
    const allowed = spec.requestShown ? own.has(name) : REQUEST_FIELD_SET.has(name);
    if (!allowed) throw invalid(name, `${name} is not a field of ${id}.`);
  }
  if (fields.cpf !== undefined) {
    if (!isValidCpf(fields.cpf)) throw new DomainError('invalid_cpf', 'cpf is not a valid CPF: check its digits.', { field: 'cpf' });
    fields.cpf = normalizeCpf(fields.cpf)!;
  }
  if (fields.cnpj !== undefined) {
    if (!isValidCnpj(fields.cnpj)) throw new DomainError('invalid_cnpj', 'cnpj is not a valid CNPJ: check its digits.', { field: 'cnpj' });
    fields.cnpj = normalizeCnpj(fields.cnpj)!;
  }
  if (fields.key !== undefined && !UUID.test(fields.key)) throw invalid('key', 'key must be UUID-shaped.');
  if (fields.birthDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(fields.birthDate))
    throw invalid('birthDate', 'birthDate must be yyyy-MM-dd.');
}

/** Pure base64 or a data URI; answered as pure base64 (docs/upstream-api.md, rule 4). */
function checkImage(name: string, value: string, maxBytes: number): string {
  const base64 = parseDataUri(value)?.base64 ?? value;
  if (!base64 || !isPureBase64(base64))
    throw new DomainError('invalid_image', `${name} must be base64 (or a base64 data URI).`, { field: name });
  if (decodedLength(base64) > maxBytes)
    throw new DomainError('image_too_large', `${name} is larger than ${maxBytes} bytes.`, { field: name });
  return base64;
}

/** An https URL the upstream fetches itself, instead of the image: never both. */
function checkImageUrl(name: string, value: string, fields: Record<string, string>): void {
  const image = URL_FIELDS[name]!;
  if (fields[image]) throw invalid(name, `Send ${image} or ${name}, not both.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(name, `${name} must be an absolute https URL.`);
  }
  // Plain http would hand a person's document to anyone on the path; credentials in a URL leak through logs.
  if (url.protocol !== 'https:' || value.length > MAX_URL || url.username || url.password) {
    throw invalid(name, `${name} must be an https URL without credentials, at most ${MAX_URL} characters.`);
  }
}
