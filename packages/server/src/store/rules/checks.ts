/**
 * A session's instant checks (docs/backend-api.md#checks) as pure functions: what a session asks
 * for, the pending results its onboarding starts with, a result applied (only over a pending one,
 * so a repeat or a late answer changes nothing), and when the checks are complete. Every store
 * keeps the result inside the session, written by compare-and-set, so these rules are the one place
 * a result is applied whichever store or instance applies it.
 */
import {
  CHECK_SERVICES,
  type CheckResult,
  type DocumentReading,
  type ReportedCheck,
  type SessionCheck,
  type SessionChecks,
  type SessionStep,
} from '@onboarding-kit/contract';
import type { SessionRecord } from '../backend-state.js';

/** Every check a session reports: those asked for, in their order, then the proof of address its step brings. */
export function requestedChecks(checks: readonly SessionCheck[] | undefined, steps: readonly SessionStep[] | undefined): ReportedCheck[] {
  const requested: ReportedCheck[] = [...(checks ?? [])];
  if (steps?.includes('proof-of-address')) requested.push('proof_of_address');
  return requested;
}

/** The checks of a session as its onboarding is created at `at`: each one pending. */
export function pendingChecks(requested: readonly ReportedCheck[], at: string): SessionChecks {
  return {
    requested: [...requested],
    results: requested.map((check) => ({ check, service: CHECK_SERVICES[check], state: 'pending', requestedAt: at })),
  };
}

/** The session as its onboarding is submitted at `at`: each asked check pending, the page's reading kept as a record. */
export const withSubmittedChecks = (s: SessionRecord, at: string, documentReading: DocumentReading | undefined): SessionRecord => ({
  ...s,
  ...(s.checks && s.checks.results.length === 0 && { checks: pendingChecks(s.checks.requested, at) }),
  ...(documentReading && { documentReading }),
});

export const isPending = (r: Pick<CheckResult, 'state'>): boolean => r.state === 'pending';

/** Whether every check asked for has a final result. */
export const checksComplete = (c: SessionChecks): boolean => c.results.length > 0 && !c.results.some(isPending);

/**
 * The session with `result` in place of its pending check, `completedAt` set (to the result's
 * time) when it was the last one pending; null when there is nothing to change: no such check
 * pending (a repeat, a late answer, a redacted session, checks never asked for).
 */
export function applyCheckResult(s: SessionRecord, result: CheckResult): SessionRecord | null {
  const checks = s.checks;
  if (!checks || s.redactedAt) return null;
  const at = checks.results.findIndex((r) => r.check === result.check && isPending(r));
  if (at < 0 || isPending(result)) return null;
  const results = checks.results.map((r, i) => (i === at ? { ...result, requestedAt: r.requestedAt } : r));
  const next: SessionChecks = { ...checks, results };
  if (checksComplete(next)) next.completedAt = result.completedAt ?? new Date().toISOString();
  return { ...s, checks: next };
}

/** Whether applying a result made the checks complete just now (the one write that sends `session.checks_completed`). */
export const completedBy = (before: SessionRecord, after: SessionRecord): boolean =>
  !before.checks?.completedAt && after.checks?.completedAt !== undefined;

/** What a redaction keeps of the checks: which were asked, where each stood and when; no result, message or externalId. */
export function redactedChecks(c: SessionChecks): SessionChecks {
  return {
    requested: [...c.requested],
    results: c.results.map(({ check, service, state, requestedAt, completedAt }) => ({
      check,
      service,
      state,
      requestedAt,
      ...(completedAt !== undefined && { completedAt }),
    })),
    ...(c.completedAt !== undefined && { completedAt: c.completedAt }),
  };
}

/** What a check left pending too long reads as (see `effectiveChecks`). */
export const INTERRUPTED_MESSAGE =
  'Interrupted: the companion stopped before this check answered; the photos it needed are no longer kept.';

/**
 * The checks as they stand at `nowMs`: a result still pending past its bound (`interruptedAfterMs`
 * after it was asked, the inspection `inspectionAfterMs`) reads as `failed`, and the checks as
 * complete once none is pending. Derived when read, like an open session's expiry, so a companion
 * that stopped mid-check leaves no check pending for ever, whichever instance reads it.
 */
export function effectiveChecks(
  c: SessionChecks,
  nowMs: number,
  bounds: { interruptedAfterMs: number; inspectionAfterMs: number },
): SessionChecks {
  let latest = c.completedAt;
  const results = c.results.map((r): CheckResult => {
    if (!isPending(r)) return r;
    const bound = r.check === 'document_inspection' ? bounds.inspectionAfterMs : bounds.interruptedAfterMs;
    const endMs = Date.parse(r.requestedAt) + bound;
    if (!(nowMs >= endMs)) return r;
    const completedAt = new Date(endMs).toISOString();
    if (!latest || completedAt > latest) latest = completedAt;
    return { ...r, state: 'failed', message: INTERRUPTED_MESSAGE, completedAt };
  });
  const next: SessionChecks = { ...c, results };
  if (checksComplete(next) && latest) next.completedAt = c.completedAt ?? latest;
  return next;
}
