/**
 * A session's end at the backend's request (docs/backend-api.md#post-v1sessionsidcancel-api-key-scope-sessions), as pure
 * functions: which sessions a cancellation takes, what it writes, and the one id of each session
 * notification (a repeat of an event, from any instance, queues nothing).
 */
import { createHash } from 'node:crypto';
import type { NotificationType, SessionStatus } from '@onboarding-kit/contract';
import { withEvent } from '../handoff/handoff-rules.js';
import type { SessionRecord } from '../store/backend-state.js';
import { claimLive } from '../store/index.js';

export type CancelDecision =
  | { kind: 'cancel' }
  /** Cancelled already: the answer is the session as it is. */
  | { kind: 'already' }
  | { kind: 'refused'; reason: 'used' | 'creating' };

/**
 * Only an open session nobody is sending from is cancelled: once an onboarding exists or a
 * creation is on its way upstream, the session's outcome is the onboarding's. `status` is the
 * session's status as of now (an open one past its expiry is `expired`).
 */
export function decideCancel(
  s: Pick<SessionRecord, 'claim' | 'tokenOnboarding'>,
  status: SessionStatus,
  nowMs: number,
  claimTimeoutMs: number,
): CancelDecision {
  if (status === 'cancelled') return { kind: 'already' };
  if (status !== 'open' || s.tokenOnboarding) return { kind: 'refused', reason: 'used' };
  if (claimLive(s, nowMs, claimTimeoutMs)) return { kind: 'refused', reason: 'creating' };
  return { kind: 'cancel' };
}

/** The session cancelled at `at`: ended (retention counts from here), its stream told. */
export const cancelledSession = (s: SessionRecord, at: string): SessionRecord =>
  withEvent({ ...s, status: 'cancelled', claim: undefined, endedAt: at }, { type: 'session.cancelled' }, at);

/** The session notification types, each sent at most once per session. */
export const SESSION_NOTIFICATION_TYPES = [
  'session.submitted',
  'session.completed',
  'session.expired',
  'session.cancelled',
  'session.redacted',
  'session.checks_completed',
] as const satisfies readonly NotificationType[];

export type SessionNotificationType = (typeof SESSION_NOTIFICATION_TYPES)[number];

/** One id per session and event type. */
export const sessionEventId = (sessionId: string, type: SessionNotificationType): string =>
  `evt_${createHash('sha256').update(`${sessionId}:${type}`).digest('hex').slice(0, 32)}`;
