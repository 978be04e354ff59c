/**
 * Fixed-window rate limit per client address (creations per minute). Over the limit: 429 with
 * Retry-After and the error shape. The counters live in the store, so a limit holds across the
 * instances that share it; refused requests do not count.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import { rateLimited } from '../errors/rate-limited.js';
import { fromDomain } from '../http/companion-error.js';
import type { Store } from '../store/index.js';

export interface RateLimitOptions {
  /** Requests allowed per window and address; 0 turns the limit off. */
  limit: number;
  windowMs?: number;
  /** The client's address as the companion counts it (`CompanionConfig.clientAddress`: behind trusted proxies, IPv6 by its /64). */
  clientAddress: (c: Context) => string;
  /** Where the windows are counted. */
  counters: Pick<Store, 'consumeRateLimit'>;
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<CompanionEnv> {
  const windowMs = options.windowMs ?? 60_000;
  return async (c, next) => {
    if (options.limit <= 0) return next();
    const decision = await options.counters.consumeRateLimit(`create:${options.clientAddress(c)}`, options.limit, windowMs);
    if (!decision.allowed) {
      c.get('log')?.warn('rate limited', { limit: options.limit });
      // Rendered by itself: the middleware also runs under hosts without the companion's onError.
      throw fromDomain(rateLimited('Too many onboardings from this address', decision.retryAfterMs));
    }
    return next();
  };
}
