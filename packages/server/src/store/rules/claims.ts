/**
 * One onboarding per session: a creation claims the session (compare-and-set on its version)
 * before it reaches the upstream. These decisions are pure so that the session and hand-off
 * services, which hold the compare-and-set loop, share them.
 */
import type { SessionRecord } from '../backend-state.js';

/** A claim whose creation has not finished blocks the session until the upstream timeout has passed. */
export const claimLive = (s: Pick<SessionRecord, 'claim'>, nowMs: number, claimTimeoutMs: number): boolean =>
  s.claim !== undefined && nowMs - Date.parse(s.claim.at) < claimTimeoutMs;

export type ClaimDecision =
  | { kind: 'claim' }
  /** The key of the creation that made the onboarding, its body not read yet: only the body tells a replay from a conflict. */
  | { kind: 'needs_body' }
  | { kind: 'replay'; tokenOnboarding: string }
  | {
      kind: 'refused';
      reason: 'session_used' | 'session_expired' | 'session_cancelled' | 'idempotency_conflict' | 'idempotency_in_progress';
    };

/**
 * What a creation request gets from a session: with the `Idempotency-Key` of the creation that
 * made its onboarding, a replay (same body) or a conflict; otherwise refused once the session is
 * used, claimed or no longer open, and the claim when it is free. `status` is the session's
 * status as of now (an open session past its expiry is `expired`). A creation decides before its
 * body is read (`fingerprint` absent), so every refusal costs no upload; with the onboarding's own
 * key it decides again once the body is read. A claim holds no fingerprint until its creation
 * succeeded, so the same key while it is under way is `idempotency_in_progress` whatever the body.
 */
export function decideClaim(
  s: Pick<SessionRecord, 'claim' | 'tokenOnboarding'>,
  request: { idempotencyKey?: string; fingerprint?: string },
  status: SessionRecord['status'],
  nowMs: number,
  claimTimeoutMs: number,
): ClaimDecision {
  const sameKey = request.idempotencyKey !== undefined && s.claim?.key === request.idempotencyKey;
  const sameBody = s.claim?.fingerprint !== undefined && s.claim.fingerprint === request.fingerprint;
  if (s.tokenOnboarding) {
    if (!sameKey) return { kind: 'refused', reason: 'session_used' };
    if (request.fingerprint === undefined) return { kind: 'needs_body' };
    return sameBody ? { kind: 'replay', tokenOnboarding: s.tokenOnboarding } : { kind: 'refused', reason: 'idempotency_conflict' };
  }
  if (status === 'expired' || status === 'cancelled') return { kind: 'refused', reason: `session_${status}` };
  if (status !== 'open') return { kind: 'refused', reason: 'session_used' };
  if (claimLive(s, nowMs, claimTimeoutMs)) {
    if (!sameKey) return { kind: 'refused', reason: 'session_used' };
    return { kind: 'refused', reason: request.fingerprint === undefined || sameBody ? 'idempotency_in_progress' : 'idempotency_conflict' };
  }
  return { kind: 'claim' };
}
