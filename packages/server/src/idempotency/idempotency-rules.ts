/**
 * `Idempotency-Key` on creations (docs/backend-api.md#idempotency): the fingerprint that tells a
 * replay (same body) from another request that reuses a key, and the refusals of a reused key. The header itself is read at the edge (./idempotency-header.ts).
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../errors/domain-error.js';

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

export const idempotencyConflict = () => new DomainError('idempotency_conflict', undefined, { field: 'Idempotency-Key' });

export const idempotencyInProgress = () =>
  new DomainError('idempotency_in_progress', undefined, { field: 'Idempotency-Key', retryAfterS: 1 });
