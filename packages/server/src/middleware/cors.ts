/**
 * CORS for an allowlist of origins. An origin not on the list gets no CORS header at all (the
 * browser then keeps the answer from the page); the default list is empty: same origin only.
 * No cookies are used, so credentials are never allowed. Applied by ./request-frame.ts.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { appendAnswerHeader, overrideAnswerHeader, requestHeader } from '../transport/index.js';
import type { CompanionEnv } from '../http/env.js';
import { RefusedOrigins } from './refused-origins.js';

export class CorsPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowedOrigins: readonly string[]) {
    this.allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  }

  allows(origin: string | undefined): origin is string {
    return origin !== undefined && this.allowed.size > 0 && this.allowed.has(origin.toLowerCase());
  }

  /** A preflight's answer, whatever the route; `origin` only when it is allowed. */
  preflight(c: Context, origin: string | undefined): Response {
    c.header('Vary', 'Origin');
    if (origin === undefined) return c.body(null, 204);
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    // Last-Event-ID: a page resuming the session's event stream (fetch, so the header is its own).
    c.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id');
    c.header('Access-Control-Max-Age', '600');
    return c.body(null, 204);
  }

  /** The headers of any other answer; `origin` only when it is allowed. */
  onAnswer(c: Context, origin: string | undefined): void {
    appendAnswerHeader(c, 'Vary', 'Origin');
    if (origin !== undefined) {
      overrideAnswerHeader(c, 'Access-Control-Allow-Origin', origin);
      overrideAnswerHeader(c, 'Access-Control-Expose-Headers', 'X-Request-Id, Retry-After, Idempotent-Replayed');
    }
  }
}

/**
 * The same policy as a middleware of its own (for an app that does not use ./request-frame.ts),
 * a refused preflight warned of on the request's logger (./request-log.ts sets it) as there.
 */
export function corsAllowlist(allowedOrigins: readonly string[]): MiddlewareHandler<CompanionEnv> {
  const policy = new CorsPolicy(allowedOrigins);
  const refused = new RefusedOrigins();
  return async (c, next) => {
    const origin = requestHeader(c, 'origin');
    const allowed = policy.allows(origin) ? origin : undefined;
    if (c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method')) {
      const log = c.get('log') as CompanionEnv['Variables']['log'] | undefined;
      if (origin !== undefined && !allowed && log) refused.warn(log, origin, c.req.path, allowedOrigins.length);
      return policy.preflight(c, allowed);
    }
    await next();
    policy.onAnswer(c, allowed);
  };
}
