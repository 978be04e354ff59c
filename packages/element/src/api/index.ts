export { normalizeEndpoint } from './endpoint.js';
export { CompanionError, type ClientErrorCode, type CompanionErrorCode, type CompanionErrorInit } from './errors.js';
export { SseParser, type SseMessage } from './sse.js';
export {
  errorFromApi,
  createOnboarding,
  getOnboarding,
  getSession,
  streamStatus,
  isOnboardingState,
  isPageSession,
  type CreateOptions,
  type UploadProgress,
} from './companion-client.js';
export { watchStatus, isFinal, DEFAULT_POLL, type FinalState, type PollOptions, type WatchOptions } from './status-watch.js';
