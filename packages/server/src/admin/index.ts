export { createAdminRoutes } from './admin-routes.js';
export type { AdminDeps, AdminOnboardingRecord } from './deps.js';
export { AdminHttpError, isUpstreamTimeout, upstreamHttpStatus } from './errors.js';
