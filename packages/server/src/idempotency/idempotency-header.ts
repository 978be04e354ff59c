/**
 * The request's `Idempotency-Key` header (docs/backend-api.md#idempotency), checked at the edge
 * before anything is read or reserved.
 */
import type { Context } from 'hono';
import { DomainError } from '../errors/domain-error.js';
import { requestHeader } from '../transport/index.js';

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** The request's `Idempotency-Key`, or undefined; a key that is not 1-255 visible ASCII characters is refused. */
export function idempotencyKey(c: Context): string | undefined {
  const raw = requestHeader(c, 'idempotency-key');
  if (raw === undefined) return undefined;
  const key = raw.trim();
  if (!KEY_SHAPE.test(key)) {
    throw new DomainError('invalid_field', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).', {
      field: 'Idempotency-Key',
    });
  }
  return key;
}
