/**
 * Fixed-window rate limit per client address (creations per minute). Over the limit: 429 with
 * Retry-After and the error shape. In memory, per instance.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import { CompanionError } from '../http/companion-error.js';

export interface RateLimitOptions {
  /** Requests allowed per window and address; 0 turns the limit off. */
  limit: number;
  windowMs?: number;
  /** The client's address (default: the socket's remote address under @hono/node-server). */
  clientAddress: (c: Context) => string;
  now?: () => number;
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler<CompanionEnv> {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;
  return async (c, next) => {
    if (options.limit <= 0) return next();
    const t = now();
    if (t >= nextSweep) {
      // Forget finished windows so the map stays as small as the set of recent clients.
      for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      nextSweep = t + windowMs;
    }
    const key = options.clientAddress(c);
    let w = windows.get(key);
    if (!w || w.resetAt <= t) windows.set(key, (w = { count: 0, resetAt: t + windowMs }));
    w.count++;
    if (w.count > options.limit) {
      const retryAfter = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
      c.get('log')?.warn('rate limited', { limit: options.limit });
      throw new CompanionError(429, 'rate_limited', `Too many onboardings from this address; try again in ${retryAfter} s.`, { headers: { 'Retry-After': String(retryAfter) } });
    }
    return next();
  };
}

/** The socket's remote address under @hono/node-server, else `unknown`. Proxies' headers are not trusted. */
export function socketAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
