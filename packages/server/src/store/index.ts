/** The stores behind `Store`, and the factory that picks one from `ONBOARDING_STORE`. */
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
} from './store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory/memory-store.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
export { RedisStore, type RedisStoreOptions } from './redis/redis-store.js';
export { createStore, parseStoreUrl, DEFAULT_STORE_URL, type CreateStoreOptions, type StoreKind } from './create-store.js';
export { StoreUnavailableError, StoreConfigError, isStoreUnavailable } from './errors.js';
/** Rules of the store's callers, pure, beside the ones the stores apply (./rules/). */
export { afterFailedTry, pickDeliveries, retryDelay, scheduledWait, type RetrySchedule } from './rules/outbox.js';
export { claimLive, decideClaim, type ClaimDecision } from './rules/claims.js';
