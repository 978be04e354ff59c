/**
 * The SHA-256 of a photo's decoded bytes, from its pure base64 text as a string or as the ASCII
 * bytes a creation body is read into: a creation's front matches a prefill's by it, and the
 * attestation compares it with the page's.
 */
import { createHash } from 'node:crypto';

export function photoSha256(base64: string | Uint8Array): string {
  const text = typeof base64 === 'string' ? base64 : Buffer.from(base64.buffer, base64.byteOffset, base64.byteLength).toString('latin1');
  return createHash('sha256').update(Buffer.from(text, 'base64')).digest('hex');
}
