/**
 * Capture nonces (docs/page-api.md#attestation): which session may be issued one, how many, and
 * for how long each holds. Pure: the service draws the random bytes and writes the session.
 */
import { CAPTURE_INTEGRITY_LIMITS, IMAGE_ROLES, type CaptureNonce, type ImageRoleName } from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';
import { effectiveStatus } from '../sessions/session-view.js';
import { sessionCancelled, sessionExpired, sessionUsed } from '../sessions/session-refusals.js';
import type { IssuedNonce, SessionRecord } from '../store/backend-state.js';

const { noncesPerSession, nonceLifetimeMs } = CAPTURE_INTEGRITY_LIMITS;

/** `{ "role": ... }`, an image role and nothing else. */
export function validateNonceRequest(body: unknown): ImageRoleName {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new DomainError('invalid_request', 'The body must be a JSON object.');
  const extra = Object.keys(b).find((k) => k !== 'role');
  if (extra !== undefined)
    throw new DomainError('invalid_field', `${extra.slice(0, 40)} is not a member of a nonce request.`, { field: extra.slice(0, 40) });
  if (!(IMAGE_ROLES as readonly unknown[]).includes(b.role))
    throw new DomainError('invalid_field', `role must be one of ${IMAGE_ROLES.join(', ')}.`, { field: 'role' });
  return b.role as ImageRoleName;
}

/**
 * Why a session's page may not be issued a nonce any more, as the other session routes say it:
 * an ended session is 410, a session whose onboarding is created or under way 409.
 */
export function nonceRefusal(session: SessionRecord, nowMs: number): DomainError | null {
  const status = effectiveStatus(session, nowMs);
  if (status === 'expired') return sessionExpired();
  if (status === 'cancelled') return sessionCancelled();
  if (status === 'completed') return new DomainError('session_used', undefined, { status: 410 });
  if (status !== 'open' || session.claim || session.tokenOnboarding) return sessionUsed();
  return null;
}

/** The session with one more nonce, or null when it has been issued all it may be. */
export function withIssuedNonce(session: SessionRecord, issued: IssuedNonce): SessionRecord | null {
  const nonces = session.captureNonces ?? [];
  return nonces.length >= noncesPerSession ? null : { ...session, captureNonces: [...nonces, issued] };
}

export const nonceExpiresAt = (issued: Pick<IssuedNonce, 'issuedAt'>): number => Date.parse(issued.issuedAt) + nonceLifetimeMs;

export const captureNonceOf = (issued: IssuedNonce): CaptureNonce => ({
  nonce: issued.nonce,
  role: issued.role,
  expiresAt: new Date(nonceExpiresAt(issued)).toISOString(),
});

export const noncesSpent = (): DomainError =>
  new DomainError('rate_limited', `This session has been issued its ${noncesPerSession} capture nonces: the capture goes on without one.`);
