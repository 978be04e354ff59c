/**
 * What every request goes through, as one middleware instead of five (each an async frame and a
 * promise per request): counted in flight (lifecycle/in-flight.ts), given its request id (the
 * client's `X-Request-Id` when it is a plain token of at most 255 characters, else a random UUID;
 * echoed in the answer), its logger and its request log line (./request-log.ts), the security
 * headers on every answer (the set of Hono's `secureHeaders()` defaults, made once), and CORS for
 * the allowlist (./cors.ts), a refused preflight warned of (./refused-origins.ts). The steps run
 * in the order the five middlewares ran: after the handler, CORS first, then the security
 * headers, then the log line.
 */
import type { MiddlewareHandler } from 'hono';
import { enforceAnswerHeaders, enforcedHeaders, presetAnswerHeader, requestHeader } from '../transport/index.js';
import type { CompanionEnv } from '../http/env.js';
import type { InFlight } from '../lifecycle/in-flight.js';
import type { Logger } from '../logger.js';
import { CorsPolicy } from './cors.js';
import { RefusedOrigins } from './refused-origins.js';
import { logRequest } from './request-log.js';

/** Hono's `secureHeaders()` defaults (hono/secure-headers), in its order. */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/** The security headers win over an answer's own, and no answer says what serves it. */
const ENFORCED = enforcedHeaders(SECURITY_HEADERS, ['X-Powered-By']);

const REQUEST_ID = /[^\w\-=]/;

export interface RequestFrameOptions {
  inFlight: InFlight;
  logger: Logger;
  allowedOrigins: readonly string[];
}

export function requestFrame(options: RequestFrameOptions): MiddlewareHandler<CompanionEnv> {
  const { inFlight, logger } = options;
  const cors = new CorsPolicy(options.allowedOrigins);
  const refused = new RefusedOrigins();
  return async (c, next) => {
    inFlight.enter();
    try {
      let id = requestHeader(c, 'x-request-id');
      if (!id || id.length > 255 || REQUEST_ID.test(id)) id = crypto.randomUUID();
      c.set('requestId', id);
      presetAnswerHeader(c, 'X-Request-Id', id);
      const started = Date.now();
      const log = logger.child({ requestId: id });
      c.set('log', log);
      const origin = requestHeader(c, 'origin');
      const allowed = cors.allows(origin);
      if (c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method')) {
        if (!allowed && origin !== undefined) refused.warn(log, origin, c.req.path, options.allowedOrigins.length);
        c.res = cors.preflight(c, allowed ? origin : undefined);
      } else {
        await next();
        cors.onAnswer(c, allowed ? origin : undefined);
      }
      enforceAnswerHeaders(c, ENFORCED);
      logRequest(c, log, started);
    } finally {
      inFlight.leave();
    }
  };
}
