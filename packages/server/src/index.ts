export { createCompanion, type CompanionApp, type CompanionHandle } from './companion.js';
export { serveCompanion, listen, type ServeOptions, type ServedCompanion } from './serve.js';
export { CompanionConfigError, type CompanionOptions, type Environment } from './options.js';
export { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from './upstream/upstream-client.js';
export { UpstreamError, isUpstreamError, type UpstreamErrorKind } from './upstream/upstream-error.js';
export { SERVICE_FIELDS, type ServiceFields } from './upstream/service-fields.js';
export { AccessTokens, type AccessTokensOptions, type IssuedToken } from './upstream/access-tokens.js';
export type { Store, OnboardingRecord, StatusEvent, StatusSource, StatusUpdate, ApplyResult, ChangeListener } from './store/store.js';
export { MemoryStore } from './store/memory-store.js';
export { DEFAULT_POLL_TIMINGS, type PollTimings } from './relay/poller.js';
export { createJsonLogger, redactingLogger, silentLogger, redact, redactText, type Logger, type LogFields, type LogLevel, type JsonLoggerOptions } from './logger.js';
export type { CompanionEnv } from './http/env.js';
export { KIT_VERSION } from './version.js';
export {
  createAdminRoutes,
  AdminHttpError,
  isUpstreamTimeout,
  upstreamHttpStatus,
  type AdminDeps,
  type AdminOnboardingRecord,
} from './admin/index.js';
export {
  buildEvidenceArchive,
  EvidencePasswordError,
  assertEvidencePassword,
  MIN_EVIDENCE_PASSWORD_LENGTH,
  MAX_EVIDENCE_PASSWORD_LENGTH,
  EVIDENCE_FORMAT,
  peekPdf,
  type EvidenceInput,
  type EvidenceOptions,
  type EvidenceManifest,
  type EvidenceHistoryEntry,
  type ManifestFile,
  type ManifestGap,
  type SupportRequest,
} from './evidence/index.js';
