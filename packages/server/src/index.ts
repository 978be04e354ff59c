/**
 * The public surface of `@onboarding-kit/server`: what integrators use to run the companion, talk
 * to the upstream, keep state, log and archive evidence. Everything else is internal and may
 * change; test/app-surface.test.ts pins this list.
 */
export { createCompanion, type CompanionApp, type CompanionHandle } from './companion.js';
export {
  serveCompanion,
  listen,
  closeOnSignals,
  type ServeOptions,
  type ServedCompanion,
  type ListeningServer,
  type SignalOptions,
} from './serve.js';
export type { CompanionOptions, Environment } from './options.js';
export { CompanionConfigError } from './config/config-error.js';
export { COMPANION_DEFAULTS, OPTION_LIMITS } from './config/defaults.js';
export { storeRetention } from './config/resolve-config.js';
export {
  readEnvConfig,
  apiKeyOf,
  BRAND_VARIABLES,
  SANDBOX_CREDENTIALS,
  type EnvConfig,
  type EnvConfigResult,
  type EnvRunner,
} from './config/env-config.js';
export { companionOptions, configSecrets, configuredBrand, sandboxOptions, type RunningParts } from './cli/companion-options.js';
export { CompanionError, type CompanionErrorDetails } from './http/companion-error.js';
export type { CompanionEnv } from './http/env.js';
export { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from './upstream/upstream-client.js';
export { UpstreamError, type UpstreamErrorKind } from './upstream/upstream-error.js';
export type { ServiceFields } from './upstream/service-fields.js';
export type {
  Store,
  OnboardingRecord,
  StatusEvent,
  StatusSource,
  StatusUpdate,
  ApplyResult,
  ChangeListener,
  Clock,
  RateLimitDecision,
} from './store/store.js';
export { MemoryStore, type MemoryStoreOptions } from './store/memory-store.js';
export { SqliteStore, type SqliteStoreOptions } from './store/sqlite-store.js';
export { RedisStore, type RedisStoreOptions } from './store/redis-store.js';
export { createStore, parseStoreUrl, DEFAULT_STORE_URL, type CreateStoreOptions, type StoreKind } from './store/create-store.js';
export { StoreUnavailableError, StoreConfigError, DataKeyError } from './store/errors.js';
export { parseDataKeys, type DataKey } from './store/rules/personal-data.js';
export type { PollTimings } from './relay/poller.js';
export {
  createJsonLogger,
  redactingLogger,
  silentLogger,
  type Logger,
  type LogFields,
  type LogLevel,
  type LogFormat,
  type JsonLoggerOptions,
} from './logger.js';
export { KIT_VERSION } from './version.js';
export {
  loadBrand,
  readBrandFile,
  checkBrandFields,
  BRAND_LOGO_MAX_BYTES,
  type Brand,
  type BrandInput,
  type BrandField,
  type BrandLabel,
  type BrandLogo,
} from './hosted/brand.js';
export { HOSTED_CSP } from './hosted/hosted-routes.js';
export { ApiKeyring, requireApiKey, API_KEY_MIN_LENGTH, type RequireApiKeyOptions } from './auth/api-keys.js';
export { API_KEY_SCOPES, parseApiKeyEntry, type ApiKeyInput, type ApiKeyScope } from './auth/key-scopes.js';
export { isLoopbackHost, plainHttpRefused } from './net/address-rules.js';
export { verifyNotification, signNotification, type VerifyNotificationOptions } from './notifications/signature.js';
export type {
  BackendState,
  SessionRecord,
  SessionClaim,
  SessionSecretKind,
  IdempotencyState,
  OutboxEntry,
  OutboxState,
  OutboxUpdate,
  BackendPurgeCutoffs,
} from './store/backend-state.js';
export {
  buildEvidenceArchive,
  MIN_EVIDENCE_PASSWORD_LENGTH,
  MAX_EVIDENCE_PASSWORD_LENGTH,
  EVIDENCE_FORMAT,
  type EvidenceInput,
  type EvidenceOptions,
  type EvidenceManifest,
  type EvidenceHistoryEntry,
  type HistorySource,
  type ManifestFile,
  type ManifestGap,
  type SupportRequest,
} from './evidence/index.js';
