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
  type ValidCreateOnboarding,
  type ValidCreateOnboardingBytes,
} from '@onboarding-kit/contract';
import { parseJsonBytes, type JsonBodyOptions } from '../transport/index.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One pass over a body's bytes; each reader answers `undefined` for anything outside the usual shape. */
class BodyScan {
  i = 0;
  constructor(private readonly b: Uint8Array) {}

  ws(): void {
    const { b } = this;
    while (this.i < b.length) {
      const c = b[this.i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else return;
    }
  }

  /** A string without escapes or control characters, decoded (UTF-8, strict). */
  text(): string | undefined {
    const { b } = this;
    if (b[this.i] !== QUOTE) return undefined;
    const start = ++this.i;
    for (; this.i < b.length; this.i++) {
      const c = b[this.i]!;
      if (c === QUOTE) {
        this.i++;
        try {
          return utf8.decode(b.subarray(start, this.i - 1));
        } catch {
          return undefined;
        }
      }
      if (c === BACKSLASH || c < 0x20) return undefined;
    }
    return undefined;
  }

  // A picture's string as the bytes between its quotes, found natively. An escape inside leaves a
  // backslash in the bytes, which no base64 check passes: that body then goes the general way.
  raw(): Uint8Array | undefined {
    const { b } = this;
    if (b[this.i] !== QUOTE) return undefined;
    const end = b.indexOf(QUOTE, this.i + 1);
    if (end < 0) return undefined;
    const value = b.subarray(this.i + 1, end);
    this.i = end + 1;
    return value;
  }

  /** Any small JSON value (integrity's members other than keyframes): its extent found, then parsed. */
  json(): unknown {
    const { b } = this;
    const start = this.i;
    let depth = 0;
    while (this.i < b.length) {
      const c = b[this.i]!;
      if (c === QUOTE) {
        for (this.i++; this.i < b.length && b[this.i] !== QUOTE; this.i++) if (b[this.i] === BACKSLASH) this.i++;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d || c === 0x2c) && depth === 0) break;
      else if (c === 0x7d || c === 0x5d) depth--;
      this.i++;
    }
    try {
      return JSON.parse(utf8.decode(b.subarray(start, this.i)));
    } catch {
      return undefined;
    }
  }

  /** A list of values read by `value`. */
  array<T>(value: () => T | undefined): T[] | undefined {
    const out: T[] = [];
    return this.members(0x5b, 0x5d, () => {
      const v = value();
      if (v !== undefined) out.push(v);
      return v !== undefined;
    })
      ? out
      : undefined;
  }

  /** An object whose members are read by `value`, by key. */
  object<T>(value: (key: string) => T | undefined): Record<string, T> | undefined {
    const out: Record<string, T> = Object.create(null) as Record<string, T>;
    return this.members(0x7b, 0x7d, () => {
      const key = this.text();
      if (key === undefined) return false;
      this.ws();
      if (this.b[this.i++] !== 0x3a) return false;
      this.ws();
      const v = value(key);
      if (v !== undefined) out[key] = v;
      return v !== undefined;
    })
      ? out
      : undefined;
  }

  /** The members between `open` and `close`, comma separated, each read by `member`. */
  private members(open: number, close: number, member: () => boolean): boolean {
    const { b } = this;
    if (b[this.i] !== open) return false;
    this.i++;
    this.ws();
    if (b[this.i] === close) {
      this.i++;
      return true;
    }
    for (;;) {
      this.ws();
      if (!member()) return false;
      this.ws();
      const c = b[this.i++];
      if (c === close) return true;
      if (c !== 0x2c) return false;
    }
  }
}

/**
 * The body as an object when it is a JSON object whose members are strings without escapes,
 * `images` an object of such strings (kept as byte views), `keptAnyway` an object of such
 * strings (decoded) and `integrity` an object whose keyframes are such strings (kept as byte
 * views); `undefined` for any other body.
 */
export function scanCreationBody(b: Uint8Array): Record<string, unknown> | undefined {
  const scan = new BodyScan(b);
  const integrity = () => scan.object((key) => (key === 'keyframes' ? scan.array(() => scan.raw()) : scan.json()));
  const nested = new Map<string, () => unknown>([
    ['images', () => scan.object(() => scan.raw())],
    ['keptAnyway', () => scan.object(() => scan.text())],
    ['integrity', integrity],
  ]);
  scan.ws();
  const body = scan.object<unknown>((key) =>
    key === 'proofOfAddress' ? scan.raw() : b[scan.i] === 0x7b ? (nested.get(key) ?? (() => scan.text()))() : scan.text(),
  );
  scan.ws();
  return body && scan.i === b.length ? body : undefined;
}

/** A checked picture's base64 text as the ASCII bytes the fast way keeps. */
const asBytes = <T extends { base64: string }>(item: T) => ({ ...item, base64: Buffer.from(item.base64, 'latin1') });

function keyframesAsBytes({
  keyframes,
  ...claim
}: NonNullable<ValidCreateOnboarding['integrity']>): ValidCreateOnboardingBytes['integrity'] {
  return keyframes ? { ...claim, keyframes: keyframes.map(asBytes) } : claim;
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
  for (const [role, image] of Object.entries(general.value.images)) images[role as ImageRoleName] = asBytes(image);
  const { proofOfAddress, integrity, ...rest } = general.value;
  return {
    ok: true,
    value: {
      ...rest,
      images,
      ...(proofOfAddress && { proofOfAddress: asBytes(proofOfAddress) }),
      ...(integrity && { integrity: keyframesAsBytes(integrity) }),
    },
  };
}
