/**
 * @onboarding-kit/node: the companion's backend API for an integrator's server, on the global
 * `fetch` and Web Crypto alone (README.md of this package).
 */
export { OnboardingClient, Sessions, Queries, Reports, Notifications } from './client.js';
export type { FileDownload, EvidenceArchive, EvidenceOptions } from './client.js';
export type { OnboardingClientOptions, RequestOptions } from './transport.js';
export { constructEvent, SIGNATURE_HEADER, DEFAULT_TOLERANCE_S } from './notifications.js';
export type { ConstructEventOptions, RawBody } from './notifications.js';
export {
  OnboardingError,
  OnboardingApiError,
  OnboardingConnectionError,
  OnboardingTimeoutError,
  SignatureVerificationError,
} from './errors.js';
export type { ApiErrorDetails, SignatureFailure } from './errors.js';
export { SESSION_STATUSES, NOTIFICATION_TYPES, API_ERROR_CODES } from './types.js';
export type * from './types.js';
export type * from './integrity-types.js';
