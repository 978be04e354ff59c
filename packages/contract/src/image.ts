import { base64ToBytes } from './base64.js';

/** What the first bytes of a file say it is. */
export type SniffedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

/** Image types the upstream accepts from the kit. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** Bytes needed by {@link sniffBytes}. */
export const SNIFF_BYTES = 16;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

/** Identifies JPEG, PNG, WebP and PDF by their magic bytes; `null` for anything else. */
export function sniffBytes(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

/**
 * Sniffs base64 by decoding only its first bytes; `null` when those are not base64 or not a known
 * type. It reads only the start: whether the whole text is pure base64 is `isPureBase64`'s job.
 */
export function sniffBase64(base64: string): SniffedType | null {
  try {
    return sniffBytes(base64ToBytes(base64, SNIFF_BYTES));
  } catch {
    return null;
  }
}

export function isAcceptedImageType(type: string | null): type is AcceptedImageType {
  return type === 'image/jpeg' || type === 'image/png';
}

/** True when the bytes start like a PDF document (`%PDF-`). */
export function isPdf(bytes: Uint8Array): boolean {
  return sniffBytes(bytes) === 'application/pdf';
}
