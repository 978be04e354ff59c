/**
 * `Authorization: Bearer <adminKey>` for the operator routes. Both sides are hashed with SHA-256
 * first so `timingSafeEqual` always compares 32 bytes: neither the key's content nor its length
 * leaks through timing. An onboarding's accessKey is a different secret and never matches.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AdminHttpError, errorResponse } from './errors.js';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function requireAdminKey(adminKey: string): MiddlewareHandler {
  if (!adminKey) throw new Error('createAdminRoutes needs a non-empty adminKey (absent key = do not mount the routes).');
  const expected = sha256(adminKey);
  return async (c, next) => {
    const given = BEARER.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    // Hash even an absent key so a missing header costs the same as a wrong one.
    const ok = timingSafeEqual(sha256(given), expected) && given.length > 0;
    if (!ok) {
      c.header('WWW-Authenticate', 'Bearer realm="onboarding-admin"');
      return errorResponse(c, new AdminHttpError(401, 'unauthorized', 'A valid admin key is required (Authorization: Bearer <ONBOARDING_ADMIN_KEY>).'));
    }
    await next();
  };
}
