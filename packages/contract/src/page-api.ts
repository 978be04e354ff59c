/**
 * The page <-> companion contract (`/v1`): the shapes both sides share, and the validation of an
 * onboarding creation, which the element runs before it uploads and the companion runs again
 * at its edge.
 */
import { base64BytesPrefix, decodedLength, decodedLengthOfBytes, isPureBase64, isPureBase64Bytes } from './base64.js';
import { CAPTURE_INTEGRITY_LIMITS, type CaptureIntegrityClaim } from './capture-integrity.js';
import { oversizedKeyframe, validateCaptureIntegrity, type ValidCaptureIntegrity } from './capture-integrity-validation.js';
import type { OnboardingStatus } from './envelope.js';
import type { DocumentReading } from './document-reading.js';
import { validateDocumentReading } from './document-reading-validation.js';
import type { ApiErrorCode, UpstreamFailure } from './errors.js';
import { isAcceptedImageType, sniffBase64, SNIFF_BYTES, type SniffedType } from './image.js';
import { isPersonName } from './person-name.js';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from './tax-id.js';

export const API_PREFIX = '/v1';
/** Default decoded size limit per image (`ONBOARDING_IMAGE_MAX_BYTES`). */
export const DEFAULT_IMAGE_MAX_BYTES = 4 * 1024 * 1024;

export const IMAGE_ROLES = ['documentFront', 'documentBack', 'selfie'] as const;
export type ImageRoleName = (typeof IMAGE_ROLES)[number];
export const REQUIRED_IMAGE_ROLES: readonly ImageRoleName[] = ['documentFront', 'selfie'];

/**
 * The element's checks of what a photo shows, by the code it reports when one refused a photo
 * the person then kept anyway. The page declares them itself: the companion records and reports
 * them, and never re-runs a check.
 */
export const KEPT_CHECKS = [
  'too-small',
  'blurry',
  'too-dark',
  'too-bright',
  'no-face',
  'several-faces',
  'face-too-small',
  'face-off-center',
  'no-document',
] as const;
export type KeptCheck = (typeof KEPT_CHECKS)[number];

/** Per image role, the check that refused the photo the person kept anyway (absent: every photo passed). */
export type KeptAnyway = Partial<Record<ImageRoleName, KeptCheck>>;

/** Body of `POST /v1/onboardings`. */
export interface CreateOnboardingRequest {
  cpf?: string;
  cnpj?: string;
  name?: string;
  documentType?: string;
  images: Partial<Record<ImageRoleName, string>>;
  /** Photos the person kept although a check refused them (docs/page-api.md#photos-kept-anyway). */
  keptAnyway?: KeptAnyway;
  /** What the page read from the document photos (docs/page-api.md). */
  documentReading?: DocumentReading;
  /** The proof of address of a session with that step: a JPEG, PNG or PDF in pure base64. */
  proofOfAddress?: string;
  /** The liveness challenge, injection signals and attestation (docs/page-api.md#capture-integrity). */
  integrity?: CaptureIntegrityClaim;
}

/** 201 answer of `POST /v1/onboardings`. */
export interface CreateOnboardingResponse {
  tokenOnboarding: string;
  status: OnboardingStatus;
  /** Present when the upstream sent it; never made up. */
  dateHourProcess?: string;
  /** Secret that only this page holds: send it as `Authorization: Bearer` on every later read. */
  accessKey: string;
}

/** `GET /v1/onboardings/{token}` and each `status` event of `/events`. */
export interface OnboardingState {
  tokenOnboarding: string;
  status: OnboardingStatus;
  updatedAt: string;
  externalId?: string;
  /** The upstream's reason, when it gave one (for example the refusal message). */
  message?: string;
}

export interface ApiError {
  code: ApiErrorCode;
  message: string;
  field?: string;
  externalId?: string;
  /** On `upstream_*` answers: why the upstream failed (docs/page-api.md#upstream-failures). */
  upstream?: UpstreamFailure;
}

/** Every companion error: `{"error": {...}}` with a real HTTP status. */
export interface ApiErrorBody {
  error: ApiError;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  const e = (value as ApiErrorBody | null)?.error;
  return !!e && typeof e === 'object' && typeof e.code === 'string' && typeof e.message === 'string';
}

/** Types a proof of address may be: a photo, or a PDF as the person received it. */
export type ProofOfAddressType = 'image/jpeg' | 'image/png' | 'application/pdf';

const base64Chars = (bytes: number): number => Math.ceil(bytes / 3) * 4;

/**
 * Largest body a creation can legitimately need: three images and a proof of address at the
 * limit, and the challenge's keyframes at theirs, in base64, plus the other fields (64 KiB holds
 * them, a document reading of both sides and the rest of capture integrity).
 */
export function maxCreateBodyBytes(imageMaxBytes = DEFAULT_IMAGE_MAX_BYTES): number {
  const { keyframesMax, keyframeMaxBytes } = CAPTURE_INTEGRITY_LIMITS;
  return (IMAGE_ROLES.length + 1) * base64Chars(imageMaxBytes) + keyframesMax * base64Chars(keyframeMaxBytes) + 64 * 1024;
}

export interface ValidCreateOnboarding {
  taxId: { kind: 'cpf' | 'cnpj'; value: string };
  name?: string;
  documentType?: string;
  images: Partial<Record<ImageRoleName, { base64: string; mime: 'image/jpeg' | 'image/png'; bytes: number }>>;
  /** Present only when at least one photo was kept anyway. */
  keptAnyway?: KeptAnyway;
  /** Present only when the page read something from a document photo. */
  documentReading?: DocumentReading;
  proofOfAddress?: { base64: string; mime: ProofOfAddressType; bytes: number };
  /** Present only when the page sent some capture integrity. */
  integrity?: ValidCaptureIntegrity<string>;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; status: 400 | 413; error: ApiError };

const fail = (status: 400 | 413, code: ApiErrorCode, message: string, field?: string): Validation<never> => ({
  ok: false,
  status,
  error: { code, message, ...(field && { field }) },
});

const TEXT_FIELD = /^[\p{L}\p{M}\p{N} .,'’()/-]*$/u;

/** Whether `value` is what a creation's `documentType` may be: plain text of at most 200 characters. */
export function isPlainTextField(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 200 && TEXT_FIELD.test(value);
}

/**
 * Checks a creation body as the contract demands: CPF/CNPJ check digits, each image pure base64
 * of a JPEG/PNG by its magic bytes and within `imageMaxBytes` decoded. Size is checked before
 * content, so an oversized image is 413 whatever its bytes. `sessionTaxId`, the tax id a session
 * fixes, stands for a body that names none.
 */
export function validateCreateOnboarding(
  body: unknown,
  imageMaxBytes = DEFAULT_IMAGE_MAX_BYTES,
  sessionTaxId?: ValidCreateOnboarding['taxId'],
): Validation<ValidCreateOnboarding> {
  return validateCreation(body, imageMaxBytes, STRING_TEXT, sessionTaxId);
}

/** A valid creation whose images are the ASCII bytes of their base64 text (see `validateCreateOnboardingBytes`). */
export interface ValidCreateOnboardingBytes extends Omit<ValidCreateOnboarding, 'images' | 'proofOfAddress' | 'integrity'> {
  images: Partial<Record<ImageRoleName, { base64: Uint8Array; mime: 'image/jpeg' | 'image/png'; bytes: number }>>;
  proofOfAddress?: { base64: Uint8Array; mime: ProofOfAddressType; bytes: number };
  integrity?: ValidCaptureIntegrity<Uint8Array>;
}

/**
 * `validateCreateOnboarding` for a body whose image values are the ASCII bytes of their base64
 * text (Uint8Array) instead of strings, as a server reads them from the request body: the same
 * checks in the same order, so the same answer for the same text, without a string or a decoded
 * copy of any image. An image given as a string here is refused as not base64.
 */
export function validateCreateOnboardingBytes(
  body: unknown,
  imageMaxBytes = DEFAULT_IMAGE_MAX_BYTES,
  sessionTaxId?: ValidCreateOnboarding['taxId'],
): Validation<ValidCreateOnboardingBytes> {
  return validateCreation(body, imageMaxBytes, BYTES_TEXT, sessionTaxId);
}

/** How the checks read one image's base64 text, whatever holds it. */
export interface ImageText<T> {
  is(value: unknown): value is T;
  empty(value: T): boolean;
  decodedLength(value: T): number;
  pure(value: T): boolean;
  sniff(value: T): SniffedType | null;
}

const STRING_TEXT: ImageText<string> = {
  is: (v): v is string => typeof v === 'string',
  empty: (v) => v === '',
  decodedLength,
  pure: isPureBase64,
  sniff: sniffBase64,
};

/** Enough characters to decode the sniffed bytes, with room to spare (sniffBase64 reads no further). */
const SNIFF_CHARS = Math.ceil(SNIFF_BYTES / 3) * 4 * 2 + 16;

const BYTES_TEXT: ImageText<Uint8Array> = {
  is: (v): v is Uint8Array => v instanceof Uint8Array,
  empty: (v) => v.length === 0,
  decodedLength: decodedLengthOfBytes,
  pure: isPureBase64Bytes,
  sniff: (v) => sniffBase64(base64BytesPrefix(v, SNIFF_CHARS)),
};

/** The creation's optional text members: the person's name (one rule with the session's) and the document type. */
function validateTextFields(b: Record<string, unknown>): Validation<null> {
  if (b.name !== undefined && !isPersonName(typeof b.name === 'string' ? b.name.trim() : b.name)) {
    return fail(
      400,
      'invalid_field',
      'name must be plain text of at most 200 characters: letters, spaces and common marks, no digits.',
      'name',
    );
  }
  if (b.documentType !== undefined && !isPlainTextField(b.documentType)) {
    return fail(400, 'invalid_field', 'documentType must be plain text of at most 200 characters.', 'documentType');
  }
  return { ok: true, value: null };
}

/** `proofOfAddress`: pure base64 of a JPEG, PNG or PDF by its magic bytes, its size checked with the images'. */
function validateProofOfAddress<T>(
  value: unknown,
  text: ImageText<T>,
): Validation<{ base64: T; mime: ProofOfAddressType; bytes: number } | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  if (!text.is(value) || text.empty(value) || !text.pure(value))
    return fail(400, 'invalid_image', 'proofOfAddress must be a JPEG, PNG or PDF in pure base64 (no data: prefix).', 'proofOfAddress');
  const mime = text.sniff(value);
  if (!isAcceptedImageType(mime) && mime !== 'application/pdf')
    return fail(400, 'invalid_image', 'proofOfAddress is not a JPEG, PNG or PDF.', 'proofOfAddress');
  return { ok: true, value: { base64: value, mime, bytes: text.decodedLength(value) } };
}

/**
 * Sizes first, for every picture (images, proof of address, keyframes), so an oversized one is
 * 413 whatever the others hold; null when none is.
 */
function oversized<T>(b: Record<string, unknown>, imgs: Record<string, unknown>, imageMaxBytes: number, text: ImageText<T>) {
  for (const role of IMAGE_ROLES) {
    const v = imgs[role];
    if (text.is(v) && text.decodedLength(v) > imageMaxBytes) {
      return fail(413, 'image_too_large', `images.${role} is larger than ${imageMaxBytes} bytes.`, `images.${role}`);
    }
  }
  if (text.is(b.proofOfAddress) && text.decodedLength(b.proofOfAddress) > imageMaxBytes)
    return fail(413, 'image_too_large', `proofOfAddress is larger than ${imageMaxBytes} bytes.`, 'proofOfAddress');
  return oversizedKeyframe(b.integrity, text);
}

function validateCreation<
  T,
  V extends { images: Partial<Record<ImageRoleName, { base64: T; mime: 'image/jpeg' | 'image/png'; bytes: number }>> },
>(body: unknown, imageMaxBytes: number, text: ImageText<T>, sessionTaxId?: ValidCreateOnboarding['taxId']): Validation<V> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(400, 'invalid_request', 'The body must be a JSON object.');
  const b = body as Record<string, unknown>;

  let taxId: ValidCreateOnboarding['taxId'];
  if (b.cpf !== undefined && b.cnpj !== undefined) return fail(400, 'invalid_request', 'Send either cpf or cnpj, not both.', 'cnpj');
  if (b.cpf !== undefined) {
    if (typeof b.cpf !== 'string' || !isValidCpf(b.cpf))
      return fail(400, 'invalid_cpf', 'The CPF is not valid: check its 11 digits.', 'cpf');
    taxId = { kind: 'cpf', value: normalizeCpf(b.cpf)! };
  } else if (b.cnpj !== undefined) {
    if (typeof b.cnpj !== 'string' || !isValidCnpj(b.cnpj))
      return fail(400, 'invalid_cnpj', 'The CNPJ is not valid: check its 14 characters.', 'cnpj');
    taxId = { kind: 'cnpj', value: normalizeCnpj(b.cnpj)! };
  } else if (sessionTaxId) {
    // The page of a session that fixes the person holds only a masked tax id: the session's applies.
    taxId = { ...sessionTaxId };
  } else {
    return fail(400, 'missing_tax_id', 'A cpf or a cnpj is required.', 'cpf');
  }

  const fields = validateTextFields(b);
  if (!fields.ok) return fields;

  const images = b.images;
  if (!images || typeof images !== 'object' || Array.isArray(images))
    return fail(400, 'missing_image', 'images.documentFront and images.selfie are required.', 'images');
  const imgs = images as Record<string, unknown>;
  for (const key of Object.keys(imgs)) {
    if (!(IMAGE_ROLES as readonly string[]).includes(key))
      return fail(400, 'invalid_field', `Unknown image role "${key.slice(0, 40)}".`, `images.${key.slice(0, 40)}`);
  }
  const valid: V['images'] = {};
  const tooLarge = oversized(b, imgs, imageMaxBytes, text);
  if (tooLarge) return tooLarge;
  for (const role of IMAGE_ROLES) {
    const v = imgs[role];
    if (v === undefined || v === null || (text.is(v) && text.empty(v))) {
      if (REQUIRED_IMAGE_ROLES.includes(role)) return fail(400, 'missing_image', `images.${role} is required.`, `images.${role}`);
      continue;
    }
    if (!text.is(v) || !text.pure(v)) {
      return fail(400, 'invalid_image', `images.${role} must be pure base64 (no data: prefix).`, `images.${role}`);
    }
    const mime = text.sniff(v);
    if (!isAcceptedImageType(mime)) {
      return fail(400, 'invalid_image', `images.${role} is not a JPEG or PNG image.`, `images.${role}`);
    }
    valid[role] = { base64: v, mime, bytes: text.decodedLength(v) };
  }
  const kept = validateKeptAnyway(b.keptAnyway, valid);
  if (!kept.ok) return kept;
  const proof = validateProofOfAddress(b.proofOfAddress, text);
  if (!proof.ok) return proof;
  const reading = validateDocumentReading(b.documentReading);
  if (!reading.ok) return reading;
  const integrity = validateCaptureIntegrity(b.integrity, text, Object.keys(valid).length);
  if (!integrity.ok) return integrity;

  return {
    ok: true,
    value: {
      taxId,
      ...(typeof b.name === 'string' && b.name.trim() && { name: b.name.trim() }),
      ...(typeof b.documentType === 'string' && b.documentType.trim() && { documentType: b.documentType.trim() }),
      images: valid,
      ...(kept.value && { keptAnyway: kept.value }),
      ...(reading.value && { documentReading: reading.value }),
      ...(proof.value && { proofOfAddress: proof.value }),
      ...(integrity.value && { integrity: integrity.value }),
    } as unknown as V,
  };
}

function isKeptCheck(value: unknown): value is KeptCheck {
  return typeof value === 'string' && (KEPT_CHECKS as readonly string[]).includes(value);
}

/**
 * `keptAnyway`: an object naming, for roles whose image the body carries, one of KEPT_CHECKS.
 * An empty object is the same as none, so the value is absent unless a photo was kept.
 */
function validateKeptAnyway(value: unknown, images: Partial<Record<ImageRoleName, unknown>>): Validation<KeptAnyway | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return fail(400, 'invalid_field', 'keptAnyway must be an object of image roles to the check each photo failed.', 'keptAnyway');
  }
  const kept: KeptAnyway = {};
  for (const [role, check] of Object.entries(value as Record<string, unknown>)) {
    const field = `keptAnyway.${role.slice(0, 40)}`;
    if (!(IMAGE_ROLES as readonly string[]).includes(role) || images[role as ImageRoleName] === undefined) {
      return fail(400, 'invalid_field', `${field} names no image of this creation.`, field);
    }
    if (!isKeptCheck(check)) return fail(400, 'invalid_field', `${field} must be one of ${KEPT_CHECKS.join(', ')}.`, field);
    kept[role as ImageRoleName] = check;
  }
  return { ok: true, value: Object.keys(kept).length > 0 ? kept : undefined };
}
