/** The store's rules as pure functions, and the tables every store is held to (test/store-conformance.ts). */
export { applyStatusRules, statusMoves, STATUS_TRANSITIONS, type StatusOutcome } from './status.js';
export { copyRecord, copySession } from './copies.js';
export {
  newOnboarding,
  withAccessKey,
  onboardingCutoffs,
  onboardingExpired,
  type NewOnboarding,
  type OnboardingCutoffs,
} from './onboardings.js';
export {
  reserveKey,
  completeKey,
  releaseFrees,
  reservationTtlMs,
  keyLive,
  IDEMPOTENCY_CASES,
  type HeldKey,
  type KeyTtls,
  type IdempotencyStep,
} from './idempotency.js';
export { acquireLease, renewLease, releaseLease, distinctNames, LEASE_CASES, type Lease, type LeaseStep } from './leases.js';
export { consumeRate, RATE_CASES, RATE_CASE_LIMIT, RATE_CASE_WINDOW_MS, type RateWindow } from './rate-window.js';
export {
  outboxTry,
  outboxBase,
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
  type Queued,
  type RetrySchedule,
} from './outbox.js';
export {
  atVersion,
  versionMatches,
  secretOpens,
  purgeCutoffs,
  sessionPurged,
  newestFirst,
  soonestExpiryFirst,
  atMost,
  mayPointHandoffKey,
  type SecretOwner,
  type PurgeCutoffs,
  type HandoffKey,
} from './sessions.js';
export { claimLive, decideClaim, type ClaimDecision } from './claims.js';
export { msOf } from './iso-time.js';
