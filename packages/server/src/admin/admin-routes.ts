/**
 * The operator surface, mounted by the companion at `/v1/admin` when `adminKey` or API keys are
 * set (docs/page-api.md#admin-routes, docs/backend-api.md#reports-for-any-token): the full
 * upstream report, its PDF, the customer lookup and the evidence archive, for any token of the
 * upstream account. Every route needs `Authorization: Bearer <adminKey or API key>`; an unknown
 * path under it is 401 too, so nothing can be probed without a key. An API key needs the scope of
 * its route group: `reports` for the onboardings' reports, PDFs and evidence, `admin` for the
 * customer lookup; the admin key has both. Errors leave through the
 * companion's one error handler, like those of every other route.
 */
import { Hono } from 'hono';
import { requireApiKey } from '../auth/api-keys.js';
import type { ApiKeyScope } from '../auth/key-scopes.js';
import type { CompanionEnv } from '../http/env.js';
import { requireAdminKey } from './auth.js';
import { createCustomerRoutes } from './customer-routes.js';
import type { AdminDeps } from './deps.js';
import { createOnboardingRoutes } from './onboarding-routes.js';

/** The scope each route group needs of an API key (docs/backend-api.md#scopes). */
const ADMIN_ROUTE_SCOPES: Readonly<Record<string, ApiKeyScope>> = { '/onboardings': 'reports', '/customers': 'admin' };

export type { AdminDeps, AdminOnboardingRecord } from './deps.js';

export function createAdminRoutes(deps: AdminDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  if (!deps.apiKeys && !deps.adminKey)
    throw new Error('createAdminRoutes needs an adminKey or apiKeys (neither = do not mount the routes).');
  const also = deps.adminKey ? { alsoAccept: deps.adminKey } : {};
  const guard = (scope?: ApiKeyScope) =>
    deps.apiKeys ? requireApiKey(deps.apiKeys, { ...also, ...(scope && { scope }) }) : requireAdminKey(deps.adminKey!);
  app.use('*', guard());
  for (const [path, scope] of Object.entries(ADMIN_ROUTE_SCOPES)) {
    app.use(path, guard(scope));
    app.use(`${path}/*`, guard(scope));
  }
  app.route('/onboardings', createOnboardingRoutes(deps));
  app.route('/customers', createCustomerRoutes(deps));
  return app;
}
