/**
 * The operator surface, mounted by the companion at `/v1/admin` when `adminKey` is set
 * (docs/page-api.md#admin-routes): the full upstream report, its PDF, the customer lookup and the
 * evidence archive. Every route needs `Authorization: Bearer <adminKey>`; an unknown path under it
 * is 401 too, so nothing can be probed without the key. Errors leave through the companion's one
 * error handler, like those of every other route.
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import { requireAdminKey } from './auth.js';
import { createCustomerRoutes } from './customer-routes.js';
import type { AdminDeps } from './deps.js';
import { createOnboardingRoutes } from './onboarding-routes.js';

export type { AdminDeps, AdminOnboardingRecord } from './deps.js';

export function createAdminRoutes(deps: AdminDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.use('*', requireAdminKey(deps.adminKey));
  app.route('/onboardings', createOnboardingRoutes(deps));
  app.route('/customers', createCustomerRoutes(deps));
  return app;
}
