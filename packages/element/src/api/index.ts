export { normalizeEndpoint } from './endpoint.js';
export { CompanionError, type CompanionErrorCode } from './errors.js';
export {
  errorFromApi,
  createOnboarding,
  getOnboarding,
  getSession,
  streamStatus,
  type CreateOptions,
  type UploadProgress,
} from './companion-client.js';
export { watchStatus, type FinalState, type PollOptions, type WatchOptions } from './status-watch.js';
