/**
 * Verifying a notification (docs/backend-api.md#verifying-a-notification): `Onboarding-Signature`
 * is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret while the
 * companion's secret is rotated. Web Crypto only; the MACs are compared by `subtle.verify`, which
 * takes the same time wherever they differ.
 */
import { SignatureVerificationError } from './errors.js';
import type { OnboardingNotification } from './types.js';

export const SIGNATURE_HEADER = 'Onboarding-Signature';
export const DEFAULT_TOLERANCE_S = 300;

/** No receiver needs a longer header; refusing it first bounds the parsing work. */
const MAX_HEADER_LENGTH = 4096;
/** More signatures than this is not a rotation; refusing bounds the HMAC work a forger can cause. */
const MAX_SIGNATURES = 8;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

const encoder = new TextEncoder();

export interface ConstructEventOptions {
  /** Largest distance, in seconds, between the signature's `t` and now, either way (default 300). */
  toleranceS?: number;
  /** Now, in milliseconds since the epoch (default `Date.now()`). */
  now?: number;
}

/** A request body as received: a string, a Buffer or any Uint8Array, or an ArrayBuffer. */
export type RawBody = string | Uint8Array | ArrayBuffer;

function bytesOf(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  throw new SignatureVerificationError(
    'invalid_payload',
    'The body must be the request body exactly as received (a string, Buffer or Uint8Array), read before any JSON parsing: parsed and serialised again, it no longer matches its signature.',
  );
}

function secretsOf(secrets: unknown): string[] {
  const list = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : [];
  const usable = list.filter((s): s is string => typeof s === 'string' && s.length > 0);
  // A configuration fault, not a forged request: thrown as such, so the receiver answers 5xx and the companion tries again once it is fixed.
  if (usable.length === 0 || usable.length !== list.length)
    throw new TypeError(
      'constructEvent needs the notify secret (ONBOARDING_NOTIFY_SECRET): a non-empty string, or an array of them while rotating.',
    );
  return usable;
}

function headerOf(header: unknown): string | undefined {
  if (typeof header === 'string') return header;
  if (Array.isArray(header) && header.every((h) => typeof h === 'string')) return header.join(',');
  return undefined;
}

/** `t` and the `v1` signatures; unknown keys (a later scheme) are skipped. */
function parseHeader(header: string): { t: string; v1: string[] } {
  const malformed = (why: string) =>
    new SignatureVerificationError('malformed_header', `The ${SIGNATURE_HEADER} header is not t=<seconds>,v1=<hex>: ${why}.`);
  if (header.length > MAX_HEADER_LENGTH) throw malformed(`longer than ${MAX_HEADER_LENGTH} characters`);
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw malformed('an entry without a key');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined) throw malformed('two timestamps');
      if (!UNIX_SECONDS.test(value)) throw malformed('t is not a number of seconds');
      t = value;
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) throw malformed('a v1 that is not 64 hexadecimal digits');
      v1.push(value);
    }
  }
  if (t === undefined) throw malformed('no t');
  if (v1.length === 0) throw malformed('no v1 signature');
  if (v1.length > MAX_SIGNATURES) throw malformed(`more than ${MAX_SIGNATURES} signatures`);
  return { t, v1 };
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function signedBytes(t: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${t}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

/** Whether any `v1` is the MAC of `message` under any secret; every pair is checked, so timing tells nothing of which matched. */
async function anyMatch(message: Uint8Array<ArrayBuffer>, macs: string[], secrets: string[]): Promise<boolean> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('constructEvent needs Web Crypto (globalThis.crypto.subtle), which this runtime lacks.');
  let matched = false;
  for (const secret of secrets) {
    const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const mac of macs) if (await subtle.verify('HMAC', key, fromHex(mac), message)) matched = true;
  }
  return matched;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The notification in `rawBody`, once its `Onboarding-Signature` is verified with one of
 * `secrets` at a time within the tolerance. Throws `SignatureVerificationError` (answer 4xx) when
 * the header is missing or malformed, the time is out of tolerance, no signature matches, or the
 * signed body is not a notification; a `TypeError` when no usable secret is given (answer 5xx).
 *
 * A `type` this version does not know is returned as it came: keep a `default:` in a switch on it.
 */
export async function constructEvent(
  rawBody: RawBody,
  signatureHeader: string | readonly string[] | null | undefined,
  secrets: string | readonly string[],
  options: ConstructEventOptions = {},
): Promise<OnboardingNotification> {
  const keys = secretsOf(secrets);
  const body = bytesOf(rawBody);
  const { toleranceS = DEFAULT_TOLERANCE_S, now = Date.now() } = options ?? {};
  if (typeof toleranceS !== 'number' || !(toleranceS >= 0))
    throw new TypeError('constructEvent: toleranceS must be a number of seconds, 0 or more.');
  const header = headerOf(signatureHeader);
  if (header === undefined || header.trim() === '')
    throw new SignatureVerificationError('missing_header', `The request has no ${SIGNATURE_HEADER} header.`);
  const { t, v1 } = parseHeader(header);
  const ageS = now / 1000 - Number(t);
  if (Math.abs(ageS) > toleranceS)
    throw new SignatureVerificationError(
      'timestamp_out_of_tolerance',
      `The signature's time is ${Math.round(Math.abs(ageS))} s ${ageS > 0 ? 'old' : 'ahead'}, beyond the ${toleranceS} s tolerance: a replayed request, or a clock to set right.`,
    );
  if (!(await anyMatch(signedBytes(t, body), v1, keys)))
    throw new SignatureVerificationError(
      'no_matching_signature',
      'No signature matches this body with the notify secret: another secret, or a body changed on its way (verify the raw bytes, before any parsing).',
    );
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new SignatureVerificationError('invalid_payload', 'The signed body is not JSON.');
  }
  if (
    !isRecord(event) ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.createdAt !== 'string' ||
    !isRecord(event.data)
  )
    throw new SignatureVerificationError('invalid_payload', 'The signed body is not a notification: { id, type, createdAt, data }.');
  return event as unknown as OnboardingNotification;
}
