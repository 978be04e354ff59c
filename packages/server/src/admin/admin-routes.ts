/**
 * The operator surface, mounted by the companion at `/v1/admin` when `ONBOARDING_ADMIN_KEY` is set:
 * the full upstream report, its PDF, the customer lookup and the evidence archive. Every route
 * needs `Authorization: Bearer <adminKey>`; an unknown path under it is 401 too, so nothing can be
 * probed without the key.
 */
import { Hono } from 'hono';
import { requireAdminKey } from './auth.js';
import { createCustomerRoutes } from './customer-routes.js';
import type { AdminDeps } from './deps.js';
import { handleAdminError } from './errors.js';
import { createOnboardingRoutes } from './onboarding-routes.js';

export type { AdminDeps, AdminOnboardingRecord } from './deps.js';

export function createAdminRoutes(deps: AdminDeps): Hono {
  const app = new Hono();
  app.use('*', requireAdminKey(deps.adminKey));
  app.route('/onboardings', createOnboardingRoutes(deps));
  app.route('/customers', createCustomerRoutes(deps));
  app.onError(handleAdminError);
  return app;
}
