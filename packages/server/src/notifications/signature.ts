/**
 * The `Onboarding-Signature` of a notification (docs/backend-api.md#verifying-a-notification):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per secret while a secret
 * is rotated. Web Crypto only and no `node:` import, so a receiver on any runtime (Node, Deno, Bun,
 * a Cloudflare Worker) can verify with this file alone.
 */

const encoder = new TextEncoder();

/** Header longer than this is refused before any parsing: no receiver needs more than a few signatures. */
const MAX_HEADER_LENGTH = 4096;
/** More `v1` entries than this is not a rotation; refusing bounds the HMAC work an attacker can cause. */
const MAX_SIGNATURES = 8;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

export interface VerifyNotificationOptions {
  /** Largest distance, in seconds, between the signature's `t` and now, either way (default 300). */
  toleranceS?: number;
  /** Now, in milliseconds since the epoch (default `Date.now()`); for tests and replays of stored requests. */
  now?: number;
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('Web Crypto (globalThis.crypto.subtle) is not available in this runtime');
  return s;
}

function hmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return subtle().importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function signedBytes(t: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${t}.`);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

const toHex = (buf: ArrayBuffer): string => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * The header value for `body` signed at `t` (unix seconds) with each of `secrets`, in order: the
 * receiver accepts any one that matches its secret, so old and new secret both sign during a rotation.
 */
export async function signNotification(body: string, secrets: readonly string[], t: number): Promise<string> {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError('t must be a non-negative whole number of seconds');
  if (secrets.length === 0) throw new RangeError('at least one secret is needed');
  const ts = String(t);
  const message = signedBytes(ts, encoder.encode(body));
  const macs = await Promise.all(secrets.map(async (secret) => toHex(await subtle().sign('HMAC', await hmacKey(secret, 'sign'), message))));
  return [`t=${ts}`, ...macs.map((mac) => `v1=${mac}`)].join(',');
}

/** `t` and the `v1` signatures of a header, or null when it is not one. Unknown keys (a future `v2`) are skipped. */
function parseHeader(header: string): { t: string; v1: string[] } | null {
  if (header.length > MAX_HEADER_LENGTH) return null;
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !UNIX_SECONDS.test(value)) return null;
      t = value;
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return null;
      v1.push(value);
    }
  }
  if (t === undefined || v1.length === 0 || v1.length > MAX_SIGNATURES) return null;
  return { t, v1 };
}

/**
 * True when `header` carries a `v1` signature of exactly `rawBody` made with `secret`, at a `t`
 * within `toleranceS` of now. False, never a throw, for anything else: a missing or malformed
 * header, a wrong secret, a changed body, a stale or future timestamp, input of the wrong type.
 * Pass the body's bytes as received, before any JSON parsing: re-serialising changes them.
 * The MACs are compared by Web Crypto's `verify`, which does it in constant time.
 */
export async function verifyNotification(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyNotificationOptions = {},
): Promise<boolean> {
  try {
    const { toleranceS = 300, now } = options ?? {};
    if (typeof header !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
    let body: Uint8Array;
    if (typeof rawBody === 'string') body = encoder.encode(rawBody);
    else if (rawBody instanceof Uint8Array) body = rawBody;
    else return false;
    if (typeof toleranceS !== 'number' || !(toleranceS >= 0)) return false;
    const nowMs = now ?? Date.now();
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) return false;

    const parsed = parseHeader(header);
    if (!parsed) return false;
    if (Math.abs(nowMs / 1000 - Number(parsed.t)) > toleranceS) return false;

    const key = await hmacKey(secret, 'verify');
    const message = signedBytes(parsed.t, body);
    let ok = false;
    // Every signature is checked, so the time taken tells nothing about which one matched.
    for (const mac of parsed.v1) if (await subtle().verify('HMAC', key, fromHex(mac), message)) ok = true;
    return ok;
  } catch {
    return false;
  }
}
