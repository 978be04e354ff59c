/**
 * `@onboarding-kit/element`: importing this module defines `<onboarding-flow>` (when a custom
 * element registry exists) and exports its class, events, messages and the companion client.
 * Safe to import under Node for SSR: nothing touches the DOM at module level.
 */
export { OnboardingFlow } from './onboarding-flow/onboarding-flow.js';
export {
  ONBOARDING_STEPS,
  DEFAULT_DOCUMENT_TYPES,
  parseDocumentTypes,
  documentHasBack,
  stepSequence,
  type OnboardingStep,
} from './onboarding-flow/steps.js';
export * from './events.js';
export { LOCALES, resolveLocale, messagesFor, ptBR, en, es, type Messages, type OnboardingLocale } from './messages/index.js';
export { createOnboarding, getOnboarding, streamStatus, watchStatus } from './api/lazy-client.js';
export {
  CompanionError,
  normalizeEndpoint,
  type CompanionErrorCode,
  type CreateOptions,
  type UploadProgress,
  type PollOptions,
  type WatchOptions,
} from './api/index.js';
export type { CaptureRole } from './image/pipeline.js';
