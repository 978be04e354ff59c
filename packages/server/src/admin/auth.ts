/**
 * `Authorization: Bearer <adminKey>` for the operator routes. Both sides are hashed with SHA-256
 * first so `timingSafeEqual` always compares 32 bytes: neither the key's content nor its length
 * leaks through timing. An onboarding's accessKey is a different secret and never matches.
 */
import type { MiddlewareHandler } from 'hono';
import { bearer, secretEquals } from '../auth/access-key.js';
import { httpError } from '../http/companion-error.js';
import type { CompanionEnv } from '../http/env.js';
import { requestHeader } from '../transport/index.js';

export function requireAdminKey(adminKey: string): MiddlewareHandler<CompanionEnv> {
  if (!adminKey) throw new Error('createAdminRoutes needs a non-empty adminKey (absent key = do not mount the routes).');
  return async (c, next) => {
    // secretEquals hashes even an absent key, so a missing header costs the same as a wrong one.
    if (!secretEquals(bearer(requestHeader(c, 'authorization')), adminKey)) {
      throw httpError('unauthorized', 'A valid admin key is required (Authorization: Bearer <ONBOARDING_ADMIN_KEY>).', {
        realm: 'onboarding-admin',
      });
    }
    await next();
  };
}
