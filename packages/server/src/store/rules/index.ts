/** The store's rules as pure functions, and the tables every store is held to (test/store-conformance.ts). */
export { applyStatusRules, statusMoves, STATUS_TRANSITIONS } from './status.js';
export {
  newOnboarding,
  withAccessKey,
  onboardingExpired,
} from './onboardings.js';
export {
  reserveKey,
  completeKey,
  releaseFrees,
  reservationTtlMs,
  IDEMPOTENCY_CASES,
  type HeldKey,
} from './idempotency.js';
export { acquireLease, renewLease, releaseLease, LEASE_CASES, type Lease } from './leases.js';
export { takePlace, leavePlace, PLACE_CASES, PLACE_CASE_LIMIT, type Place } from './places.js';
export { consumeRate, RATE_CASES, RATE_CASE_LIMIT, RATE_CASE_WINDOW_MS, type RateWindow } from './rate-window.js';
export {
  applyOutboxUpdate,
  outboxChangedMs,
  isDue,
  queueOrder,
  listed,
  outboxSettledBefore,
  retryDelay,
  scheduledWait,
  afterFailedTry,
  pickDeliveries,
} from './outbox.js';
export {
  versionMatches,
  secretOpens,
  sessionPurged,
  newestFirst,
  soonestExpiryFirst,
  atMost,
  mayPointHandoffKey,
} from './sessions.js';
export { claimLive, decideClaim } from './claims.js';
