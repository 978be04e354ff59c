/**
 * CORS for an allowlist of origins. An origin not on the list gets no CORS header at all (the
 * browser then keeps the answer from the page); the default list is empty: same origin only.
 * No cookies are used, so credentials are never allowed.
 */
import type { MiddlewareHandler } from 'hono';
import { setAnswerHeader } from '../http/answer-header.js';
import type { CompanionEnv } from '../http/env.js';

export function corsAllowlist(allowedOrigins: readonly string[]): MiddlewareHandler<CompanionEnv> {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return async (c, next) => {
    const origin = c.req.header('origin');
    const ok = origin !== undefined && allowed.has(origin.toLowerCase());
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      // A preflight: answered here, whatever the route.
      c.header('Vary', 'Origin');
      if (!ok) return c.body(null, 204);
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      // Last-Event-ID: a page resuming the session's event stream (fetch, so the header is its own).
      c.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-Id');
      c.header('Access-Control-Max-Age', '600');
      return c.body(null, 204);
    }
    await next();
    setAnswerHeader(c, 'Vary', 'Origin', { append: true });
    if (ok) {
      setAnswerHeader(c, 'Access-Control-Allow-Origin', origin);
      setAnswerHeader(c, 'Access-Control-Expose-Headers', 'X-Request-Id, Retry-After, Idempotent-Replayed');
    }
  };
}
