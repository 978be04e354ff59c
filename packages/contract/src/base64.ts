/**
 * Isomorphic base64 helpers (browser and Node, no Buffer): the upstream wants pure base64 in
 * `image1`/`image2`/`selfie1` and a data URI in `documentFiles[].document`.
 */
import { ALPHABET, alphabetOnly } from './base64-alphabet.js';

const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

// Canonical: the bits a padded ending leaves over are zero (`AB==` is not; `AA==` is), which is
// what Node's round trip below demands too, so short and long texts get the same answer.
const PURE_BASE64 = /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/;
const DATA_URI = /^data:([a-z]+\/[a-z0-9.+-]+)(?:;[a-z0-9-]+=[^;,]*)*;base64,/i;

/** Node's Buffer when present: its native codec checks a multi-megabyte image many times faster. */
const NativeBuffer = (globalThis as { Buffer?: { from(s: string, enc: 'base64'): { toString(enc: 'base64'): string } } }).Buffer;
const NATIVE_CHECK_FROM = 4096;

/** True for canonical, padded, pure base64 (no `data:` prefix, no whitespace). */
export function isPureBase64(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  // Node's decoder skips what is not base64, so only a canonical text survives the round trip.
  if (NativeBuffer && value.length >= NATIVE_CHECK_FROM) return NativeBuffer.from(value, 'base64').toString('base64') === value;
  return PURE_BASE64.test(value);
}

/**
 * `isPureBase64` on the ASCII bytes of a base64 text (as a server reads it from a request body),
 * without making a string of it or decoding it: the same answer as `isPureBase64` on the text.
 */
export function isPureBase64Bytes(text: Uint8Array): boolean {
  const n = text.length;
  if (n % 4 !== 0) return false;
  if (n === 0) return true;
  const body = n - 4;
  if (!alphabetOnly(text, 0, body)) return false;
  // The last four characters carry the padding and its canonical bits: the same pattern as the text's.
  return PURE_BASE64.test(String.fromCharCode(text[body]!, text[body + 1]!, text[body + 2]!, text[body + 3]!));
}

/** `decodedLength` of a base64 text given as its ASCII bytes. */
export function decodedLengthOfBytes(text: Uint8Array): number {
  const len = text.length;
  if (len === 0) return 0;
  let padding = 0;
  if (text[len - 1] === 61) padding++;
  if (len > 1 && text[len - 2] === 61) padding++;
  return Math.floor((len * 3) / 4) - padding;
}

/** The first `chars` characters of a base64 text given as its ASCII bytes (the whole text when shorter). */
export function base64BytesPrefix(text: Uint8Array, chars: number): string {
  // `apply` takes the typed array as it is; a spread would walk it through its iterator first.
  return String.fromCharCode.apply(null, text.subarray(0, Math.min(chars, text.length)) as unknown as number[]);
}

/** The characters needed to decode the first `bytes` bytes. */
function prefixFor(base64: string, bytes: number): string {
  return base64.slice(0, Math.ceil(bytes / 3) * 4);
}

/** Decoded byte length computed from the text alone, without decoding. */
export function decodedLength(base64: string): number {
  const len = base64.length;
  if (len === 0) return 0;
  let padding = 0;
  if (base64.charCodeAt(len - 1) === 61) padding++;
  if (len > 1 && base64.charCodeAt(len - 2) === 61) padding++;
  return Math.floor((len * 3) / 4) - padding;
}

type WithToBase64 = Uint8Array & { toBase64?: () => string };

/**
 * Whether the engine encodes base64 from bytes itself (`Uint8Array.prototype.toBase64`: Chromium
 * 140, Firefox 133, Safari 18.2, Node 25). Asked at call time: a page can lack it, or lose it.
 */
export function hasNativeBase64(): boolean {
  return typeof (Uint8Array.prototype as WithToBase64).toBase64 === 'function';
}

/** Standard base64 with padding: the engine's own encoder where it has one, else the loop below. */
export function bytesToBase64(bytes: Uint8Array): string {
  if (hasNativeBase64()) return (bytes as WithToBase64).toBase64!();
  let out = '';
  const chunk: string[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk.push(ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!);
    if (chunk.length === 4096) {
      out += chunk.join('');
      chunk.length = 0;
    }
  }
  out += chunk.join('');
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}==`;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}${ALPHABET[(n >> 6) & 63]}=`;
  }
  return out;
}

/**
 * Decodes pure base64. `maxBytes` decodes only a prefix (for sniffing magic bytes without
 * decoding a whole image) and then checks only that prefix. Throws `TypeError` on text that is
 * not pure base64.
 */
export function base64ToBytes(base64: string, maxBytes = Infinity): Uint8Array {
  // A prefix decode checks only the prefix it reads: sniffing must not cost a pass over the image.
  const checked = maxBytes < decodedLength(base64) ? prefixFor(base64, maxBytes) : base64;
  if (!isPureBase64(checked)) throw new TypeError('Not pure base64');
  const total = decodedLength(base64);
  const size = Math.min(total, maxBytes);
  const out = new Uint8Array(size);
  let o = 0;
  for (let i = 0; o < size; i += 4) {
    const a = DECODE[base64.charCodeAt(i)]!;
    const b = DECODE[base64.charCodeAt(i + 1)]!;
    const c = base64.charCodeAt(i + 2) === 61 ? 0 : DECODE[base64.charCodeAt(i + 2)]!;
    const d = base64.charCodeAt(i + 3) === 61 ? 0 : DECODE[base64.charCodeAt(i + 3)]!;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    if (o < size) out[o++] = (n >> 8) & 255;
    if (o < size) out[o++] = n & 255;
  }
  return out;
}

export interface DataUri {
  mime: string;
  base64: string;
}

/** Splits a base64 data URI; `null` when `value` is not one. */
export function parseDataUri(value: string): DataUri | null {
  const match = DATA_URI.exec(value);
  if (!match) return null;
  return { mime: match[1]!.toLowerCase(), base64: value.slice(match[0].length) };
}

/** `toDataUri("/9j/...", "image/jpeg")` -> `"data:image/jpeg;base64,/9j/..."`. */
export function toDataUri(base64: string, mime: string): string {
  return `data:${mime};base64,${base64}`;
}

/** Accepts pure base64 or a data URI and returns the pure base64 part. */
export function toPureBase64(value: string): string {
  return parseDataUri(value)?.base64 ?? value;
}
