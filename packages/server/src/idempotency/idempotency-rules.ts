/**
 * `Idempotency-Key` on creations (docs/backend-api.md#idempotency): the header's checks, and the
 * fingerprint that tells a replay (same body) from another request that reuses a key.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { DomainError } from '../errors/domain-error.js';

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** The request's `Idempotency-Key`, or undefined; a key that is not 1-255 visible ASCII characters is refused. */
export function idempotencyKey(c: Context): string | undefined {
  const raw = c.req.header('idempotency-key');
  if (raw === undefined) return undefined;
  const key = raw.trim();
  if (!KEY_SHAPE.test(key)) {
    throw new DomainError('invalid_field', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).', { field: 'Idempotency-Key' });
  }
  return key;
}

/** SHA-256 (hex) of a value's canonical JSON: objects with sorted keys, so member order does not matter. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const idempotencyConflict = () =>
  new DomainError('idempotency_conflict', undefined, { field: 'Idempotency-Key' });

export const idempotencyInProgress = () =>
  new DomainError('idempotency_in_progress', undefined, { field: 'Idempotency-Key', retryAfterS: 1 });
