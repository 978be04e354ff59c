/**
 * A creation's body read once and checked where it lies: the usual body (a JSON object of plain
 * strings, `images` an object of base64 strings, `keptAnyway` one of plain strings, `proofOfAddress`
 * base64 kept like an image) is scanned over its bytes, its images kept as
 * views of the body (no string, no decoded copy) and checked by the contract's byte form of the
 * creation checks (`validateCreateOnboardingBytes`, same checks, same order). Anything else (an
 * escape, a number, a refusal of any kind) goes the general way, `JSON.parse` and
 * `validateCreateOnboarding`, so every answer is the one that way gives.
 */
import {
  validateCreateOnboarding,
  validateCreateOnboardingBytes,
  type ImageRoleName,
  type Validation,
  type ValidCreateOnboardingBytes,
} from '@onboarding-kit/contract';
import { parseJsonBytes, type JsonBodyOptions } from '../transport/index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as an object when it is a JSON object whose members are strings without escapes,
 * `images` an object of such strings (kept as byte views) and `keptAnyway` an object of such
 * strings (decoded); `undefined` for any other body.
 */
export function scanCreationBody(b: Uint8Array): Record<string, unknown> | undefined {
  const n = b.length;
  let i = 0;
  const ws = () => {
    while (i < n) {
      const c = b[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  /** A string without escapes or control characters, decoded (UTF-8, strict). */
  const text = (): string | undefined => {
    if (b[i] !== QUOTE) return undefined;
    const start = ++i;
    for (; i < n; i++) {
      const c = b[i]!;
      if (c === QUOTE) {
        i++;
        try {
          return utf8.decode(b.subarray(start, i - 1));
        } catch {
          return undefined;
        }
      }
      if (c === BACKSLASH || c < 0x20) return undefined;
    }
    return undefined;
  };
  // An image's string as the bytes between its quotes, found natively. An escape inside leaves a
  // backslash in the bytes, which no base64 check passes: that body then goes the general way.
  const raw = (): Uint8Array | undefined => {
    if (b[i] !== QUOTE) return undefined;
    const end = b.indexOf(QUOTE, i + 1);
    if (end < 0) return undefined;
    const value = b.subarray(i + 1, end);
    i = end + 1;
    return value;
  };
  const object = <T>(value: (key: string) => T | undefined): Record<string, T> | undefined => {
    const out: Record<string, T> = Object.create(null) as Record<string, T>;
    if (b[i] !== 0x7b) return undefined;
    i++;
    ws();
    if (b[i] === 0x7d) {
      i++;
      return out;
    }
    for (;;) {
      ws();
      const key = text();
      if (key === undefined) return undefined;
      ws();
      if (b[i] !== 0x3a) return undefined;
      i++;
      ws();
      const v = value(key);
      if (v === undefined) return undefined;
      out[key] = v;
      ws();
      if (b[i] === 0x2c) {
        i++;
        continue;
      }
      if (b[i] === 0x7d) {
        i++;
        return out;
      }
      return undefined;
    }
  };
  ws();
  const nested = new Map<string, () => unknown>([
    ['images', () => object(raw)],
    ['keptAnyway', () => object(text)],
  ]);
  const body = object<unknown>((key) => (key === 'proofOfAddress' ? raw() : b[i] === 0x7b ? (nested.get(key) ?? text)() : text()));
  ws();
  return body && i === n ? body : undefined;
}

/** What `readJsonBody` + `validateCreateOnboarding` answer for these bytes, with the images as byte views. */
export function validateCreationBytes(
  bytes: Uint8Array,
  imageMaxBytes: number,
  options: JsonBodyOptions = {},
  sessionTaxId?: ValidCreateOnboardingBytes['taxId'],
): Validation<ValidCreateOnboardingBytes> {
  const scanned = scanCreationBody(bytes);
  if (scanned) {
    const fast = validateCreateOnboardingBytes(scanned, imageMaxBytes, sessionTaxId);
    if (fast.ok) return fast;
  }
  // The general way decides every refusal (and any body outside the usual shape).
  const general = validateCreateOnboarding(parseJsonBytes(bytes, options), imageMaxBytes, sessionTaxId);
  if (!general.ok) return general;
  const images: ValidCreateOnboardingBytes['images'] = {};
  for (const [role, image] of Object.entries(general.value.images))
    images[role as ImageRoleName] = { ...image, base64: Buffer.from(image.base64, 'latin1') };
  const { proofOfAddress, ...rest } = general.value;
  return {
    ok: true,
    value: {
      ...rest,
      images,
      ...(proofOfAddress && { proofOfAddress: { ...proofOfAddress, base64: Buffer.from(proofOfAddress.base64, 'latin1') } }),
    },
  };
}
