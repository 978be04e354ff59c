/**
 * Why a session can no longer be used, in one wording wherever it is refused: by a creation's
 * claim, a capture link's exchange or a hand-off.
 */
import { DomainError } from '../errors/domain-error.js';
import { idempotencyConflict, idempotencyInProgress } from '../idempotency/idempotency-rules.js';

export const sessionUsed = (): DomainError =>
  new DomainError('session_used', 'This session has already been used for an onboarding; the service provider must open a new one.');

export const sessionExpired = (): DomainError =>
  new DomainError('session_expired', 'This session has expired; the service provider must open a new one.');

export const sessionCancelled = (): DomainError =>
  new DomainError('session_cancelled', 'This session was cancelled by the service provider; it must open a new one.');

/** The domain error of each refusal the store's claim rule gives. */
export const CLAIM_REFUSALS = {
  session_used: sessionUsed,
  session_expired: sessionExpired,
  session_cancelled: sessionCancelled,
  idempotency_conflict: idempotencyConflict,
  idempotency_in_progress: idempotencyInProgress,
} as const;
