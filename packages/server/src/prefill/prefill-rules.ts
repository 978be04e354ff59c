/**
 * The document prefill's rules (docs/page-api.md#document-prefill), pure: what a request may hold,
 * what of the OCR's reading is offered to the person (a CPF whose check digits hold, a name that is
 * a person's name; nothing else), and the hash a creation's front photo is matched by.
 */
import {
  decodedLength,
  isAcceptedImageType,
  isPersonName,
  isPlainTextField,
  isPureBase64,
  isValidCpf,
  normalizeCpf,
  sniffBase64,
  type DocumentPrefill,
  type Outcome,
} from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';

export interface ValidPrefill {
  documentType: string;
  documentFront: string;
  documentBack?: string;
}

const invalid = (field: string, message: string) => new DomainError('invalid_field', message, { field });
const SHAPE = 'The prefill must be a JSON object: {"documentType": "...", "images": {"documentFront": "...", "documentBack": "..."}}.';

function image(value: unknown, field: string, imageMaxBytes: number): string {
  if (typeof value !== 'string' || !isPureBase64(value) || value === '')
    throw new DomainError('invalid_image', `${field} must be a JPEG or PNG in pure base64 (no data: prefix).`, { field });
  if (decodedLength(value) > imageMaxBytes)
    throw new DomainError('image_too_large', `${field} is larger than ${imageMaxBytes} bytes.`, { field });
  if (!isAcceptedImageType(sniffBase64(value))) throw new DomainError('invalid_image', `${field} is not a JPEG or PNG image.`, { field });
  return value;
}

/** A prefill request: the document type the person chose and the document's photos, each refusal naming its member. */
export function validatePrefill(body: unknown, imageMaxBytes: number): ValidPrefill {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError('invalid_request', SHAPE);
  const { documentType, images, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw invalid(extra.slice(0, 40), `Unknown field "${extra.slice(0, 40)}". ${SHAPE}`);
  if (typeof documentType !== 'string' || !documentType.trim() || !isPlainTextField(documentType))
    throw invalid('documentType', 'documentType is required: plain text of at most 200 characters (CNH, RG...).');
  if (!images || typeof images !== 'object' || Array.isArray(images))
    throw new DomainError('missing_image', 'images.documentFront is required.', { field: 'images' });
  const { documentFront, documentBack, ...others } = images as Record<string, unknown>;
  const other = Object.keys(others)[0];
  if (other !== undefined)
    throw invalid(`images.${other.slice(0, 40)}`, 'A prefill reads the document only: documentFront and documentBack.');
  if (documentFront === undefined || documentFront === '')
    throw new DomainError('missing_image', 'images.documentFront is required.', { field: 'images.documentFront' });
  return {
    documentType: documentType.trim(),
    documentFront: image(documentFront, 'images.documentFront', imageMaxBytes),
    ...(documentBack !== undefined && { documentBack: image(documentBack, 'images.documentBack', imageMaxBytes) }),
  };
}

/** What the OCR read that is offered: the CPF only when its check digits hold, the name only when it is a person's name. */
export function prefillOf(outcome: Outcome): DocumentPrefill {
  const result = (outcome.result ?? {}) as Record<string, unknown>;
  const cpf = typeof result.cpf === 'string' && isValidCpf(result.cpf) ? normalizeCpf(result.cpf) : null;
  const name = typeof result.name === 'string' ? result.name.trim() : '';
  return { ...(cpf && { cpf }), ...(name && isPersonName(name) && { name }) };
}

/** Answers about the document itself: it could not be read, whatever the page does next. */
const UNREADABLE = new Set<Outcome['kind']>(['refused', 'missing-image', 'no-data']);
export const unreadable = (outcome: Outcome): boolean => UNREADABLE.has(outcome.kind);
