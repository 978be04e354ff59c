/**
 * The `id-service-token` check of `POST /v1/webhooks` (docs/page-api.md#upstream-webhooks): the key
 * compared in constant time before anything is read, and failed authentications counted per
 * client address in the store's rate windows, so the limit holds across instances. Past the limit
 * the address gets `429 rate_limited` with `Retry-After`, whatever key it sends, until the window ends.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { secretEquals } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import { rateLimited } from '../errors/rate-limited.js';
import type { CompanionEnv } from '../http/env.js';
import type { Store } from '../store/index.js';
import { requestHeader } from '../transport/index.js';
import { webhookAuthVerdict } from './webhook-rules.js';

export interface WebhookAuthOptions {
  /** The agreed `id-service-token`. */
  key: string;
  /** Failed authentications allowed per address and window (at least 1). */
  limit: number;
  windowMs: number;
  clientAddress: (c: Context) => string;
  counters: Pick<Store, 'consumeRateLimit'>;
}

export function webhookAuth(options: WebhookAuthOptions): MiddlewareHandler<CompanionEnv> {
  const { key, limit, windowMs, clientAddress, counters } = options;
  if (typeof key !== 'string' || !key) throw new TypeError('webhookAuth: key is required');
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('webhookAuth: limit must be a whole number of at least 1');
  if (!(windowMs > 0)) throw new RangeError('webhookAuth: windowMs must be positive');
  return async (c, next) => {
    const matches = secretEquals(requestHeader(c, 'id-service-token'), key);
    // A limit of 0 counts nothing: a right key only reads its address's window.
    const window = await counters.consumeRateLimit(`webhook-auth:${clientAddress(c)}`, matches ? 0 : limit, windowMs);
    const verdict = webhookAuthVerdict(matches, window, limit);
    if (verdict === 'pass') return next();
    const log = c.get('log');
    if (verdict === 'unauthorized') {
      log.warn('webhook refused: missing or wrong id-service-token', { failures: window.count, limit });
      throw new DomainError('unauthorized', 'Missing or wrong id-service-token.');
    }
    const refusal = rateLimited('Too many failed webhook authentications from this address', window.retryAfterMs);
    log.warn('webhook refused: too many failed authentications from this address', { limit, retryAfterS: refusal.retryAfterS });
    throw refusal;
  };
}
