/**
 * Image checks the upstream does before it looks at a picture: the bytes must be a JPEG, PNG or
 * WebP by their magic bytes (contract sniffing) and have a plausible structure (dimensions,
 * terminator). A face service fails with `Face nao encontrada na base` for one documented test
 * image, {@link NO_FACE_PNG_BASE64}.
 */
import { createHash } from 'node:crypto';
import { base64ToBytes, isPureBase64, parseDataUri, sniffBytes } from '@onboarding-kit/contract';

/** A 2x2 grey PNG (71 bytes). Face services answer `Face nao encontrada na base` for exactly these bytes. */
export const NO_FACE_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAADklEQVR4nGNoaGBoaAAABgYCASzBUNcAAAAASUVORK5CYII=';
/** SHA-256 (hex) of the decoded bytes of {@link NO_FACE_PNG_BASE64}. */
export const NO_FACE_PNG_SHA256 = '61792fd055799a0df9e7ad0d7464c28f15a152fcd02aaa337d62bbd61ae2110d';
/** A 4x4 colour PNG (112 bytes) that every image service accepts: as a document, and as a face. */
export const SAMPLE_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAN0lEQVR4nAXBoQEAMAgDMC5G18xgZqr7wUyPQKO5aEmMYIFCCjGGfehK35iGu9jMVszCe7nKfR/gzh0lm8TgNgAAAABJRU5ErkJggg==';

export type ImageCheck =
  | { ok: true; mime: 'image/jpeg' | 'image/png' | 'image/webp'; bytes: Uint8Array; sha256: string }
  | { ok: false; reason: string };

const u32be = (b: Uint8Array, o: number): number => ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
const u16be = (b: Uint8Array, o: number): number => (b[o]! << 8) + b[o + 1]!;
const u32le = (b: Uint8Array, o: number): number => b[o]! + (b[o + 1]! << 8) + (b[o + 2]! << 16) + ((b[o + 3]! << 24) >>> 0);
const ascii = (b: Uint8Array, o: number, n: number): string => String.fromCharCode(...b.subarray(o, o + n));

function plausibleJpeg(b: Uint8Array): boolean {
  // Walk the marker segments up to a start-of-frame with non-zero dimensions.
  let o = 2;
  while (o + 4 <= b.length) {
    if (b[o] !== 0xff) return false;
    const marker = b[o + 1]!;
    if (marker === 0xff) {
      o++;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return false; // EOI or scan before any frame header
    const length = u16be(b, o + 2);
    if (length < 2) return false;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (o + 9 > b.length) return false;
      const height = u16be(b, o + 5);
      const width = u16be(b, o + 7);
      // A whole JPEG ends with EOI (allow a little trailing padding some encoders add).
      const tail = b.subarray(Math.max(0, b.length - 64));
      let hasEoi = false;
      for (let i = 0; i + 1 < tail.length; i++) if (tail[i] === 0xff && tail[i + 1] === 0xd9) hasEoi = true;
      return height > 0 && width > 0 && hasEoi;
    }
    o += 2 + length;
  }
  return false;
}

function plausiblePng(b: Uint8Array): boolean {
  if (b.length < 8 + 25 + 12) return false;
  if (u32be(b, 8) !== 13 || ascii(b, 12, 4) !== 'IHDR') return false;
  if (u32be(b, 16) === 0 || u32be(b, 20) === 0) return false;
  // Walk the chunks to IEND; every chunk must fit.
  let o = 8;
  while (o + 12 <= b.length) {
    const length = u32be(b, o);
    const type = ascii(b, o + 4, 4);
    if (o + 12 + length > b.length) return false;
    if (type === 'IEND') return true;
    o += 12 + length;
  }
  return false;
}

function plausibleWebp(b: Uint8Array): boolean {
  if (b.length < 30) return false;
  if (u32le(b, 4) + 8 > b.length) return false;
  const chunk = ascii(b, 12, 4);
  return chunk === 'VP8 ' || chunk === 'VP8L' || chunk === 'VP8X';
}

/** Decodes an image field (pure base64, or a base64 data URI: the upstream accepts both, docs/upstream-api.md#images) and checks it. */
export function checkImage(value: unknown): ImageCheck {
  if (typeof value !== 'string' || value === '') return { ok: false, reason: 'empty' };
  const base64 = parseDataUri(value)?.base64 ?? value;
  if (!isPureBase64(base64)) return { ok: false, reason: 'not base64' };
  return checkImageBytes(base64ToBytes(base64));
}

export function checkImageBytes(bytes: Uint8Array): ImageCheck {
  const mime = sniffBytes(bytes);
  const plausible =
    (mime === 'image/jpeg' && plausibleJpeg(bytes)) ||
    (mime === 'image/png' && plausiblePng(bytes)) ||
    (mime === 'image/webp' && plausibleWebp(bytes));
  if (!plausible || mime === null)
    return { ok: false, reason: mime === 'application/pdf' ? 'a PDF, not an image' : mime ? `damaged ${mime}` : 'not an image' };
  return {
    ok: true,
    mime: mime as 'image/jpeg' | 'image/png' | 'image/webp',
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * A PDF where a service takes one (the proof of address): `%PDF-` first and an `%%EOF` near the
 * end; anything else is checked as an image.
 */
export function checkImageOrPdf(check: ImageCheck, value: unknown): ImageCheck | PdfCheck {
  if (check.ok || typeof value !== 'string') return check;
  const base64 = parseDataUri(value)?.base64 ?? value;
  if (!isPureBase64(base64)) return check;
  const bytes = base64ToBytes(base64);
  if (sniffBytes(bytes) !== 'application/pdf') return check;
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 1024)));
  if (!tail.includes('%%EOF')) return { ok: false, reason: 'damaged application/pdf' };
  return { ok: true, mime: 'application/pdf', bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export interface PdfCheck {
  ok: true;
  mime: 'application/pdf';
  bytes: Uint8Array;
  sha256: string;
}

/** True for the documented "no face" test image. */
export function isNoFaceImage(check: ImageCheck | PdfCheck): boolean {
  return check.ok && check.sha256 === NO_FACE_PNG_SHA256;
}
