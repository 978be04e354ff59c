/** The stores behind `Store`, and the factory that picks one from `ONBOARDING_STORE`. */
export type {
  Store,
  OnboardingRecord,
  StatusUpdate,
} from './store.js';
export { MemoryStore } from './memory/memory-store.js';
export { SqliteStore } from './sqlite/sqlite-store.js';
export { RedisStore, type RedisStoreOptions } from './redis/redis-store.js';
export { createStore, parseStoreUrl, DEFAULT_STORE_URL } from './create-store.js';
export { StoreUnavailableError, StoreConfigError, isStoreUnavailable } from './errors.js';
/** Rules of the store's callers, pure, beside the ones the stores apply (./rules/). */
export { afterFailedTry, pickDeliveries } from './rules/outbox.js';
export { claimLive, decideClaim } from './rules/claims.js';
