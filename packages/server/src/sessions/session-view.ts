/**
 * What each side may see of a session: the backend's view (`GET /v1/sessions/{id}` and the `data`
 * of session notifications) and the page's (`GET /v1/session`). Neither ever holds a secret.
 */
import { supportCodeOf, type PageSession, type SessionStatus, type SessionView } from '@onboarding-kit/contract';
import type { SessionRecord } from '../store/backend-state.js';
import type { OnboardingRecord } from '../store/index.js';
import { pagePrefill } from './person-rules.js';
import { redactedView } from '../store/rules/redaction.js';
import { effectiveChecks } from '../store/rules/checks.js';
import { sessionIntegrity } from '../integrity/integrity-view.js';
import { CHECK_INTERRUPTED_AFTER_MS, INSPECTION_CHECKS } from '../config/defaults.js';

const CHECK_BOUNDS = {
  interruptedAfterMs: CHECK_INTERRUPTED_AFTER_MS,
  inspectionAfterMs: INSPECTION_CHECKS.giveUpAfterMs + CHECK_INTERRUPTED_AFTER_MS,
};

/** An open session past `expiresAt` is expired, whether or not the sweep has marked it yet. */
export function effectiveStatus(session: SessionRecord, nowMs: number): SessionStatus {
  return session.status === 'open' && Date.parse(session.expiresAt) <= nowMs ? 'expired' : session.status;
}

/** The backend's view; `onboarding` is the live record when the store still holds it. */
export function toSessionView(session: SessionRecord, onboarding: OnboardingRecord | null, nowMs: number): SessionView {
  const view: SessionView = {
    id: session.id,
    supportCode: supportCodeOf(session.id),
    reference: session.reference,
    status: effectiveStatus(session, nowMs),
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    metadata: { ...session.metadata },
    ...(session.returnUrl && { returnUrl: session.returnUrl }),
    ...(session.checks && { checks: structuredClone(effectiveChecks(session.checks, nowMs, CHECK_BOUNDS)) }),
    ...(session.documentReading && { documentReading: structuredClone(session.documentReading) }),
  };
  if (session.tokenOnboarding) {
    view.integrity = sessionIntegrity(session);
    const kept = session.keptAnyway ?? onboarding?.keptAnyway;
    if (onboarding) {
      view.onboarding = {
        tokenOnboarding: session.tokenOnboarding,
        status: onboarding.status,
        ...(onboarding.externalId && { externalId: onboarding.externalId }),
        history: onboarding.history.map((h) => ({ ...h })),
        ...(kept && { keptAnyway: { ...kept } }),
        ...(session.reportServices !== undefined && { services: session.reportServices }),
      };
    } else {
      // The onboarding's own record is gone (retention): the outcome kept with the session remains.
      view.onboarding = {
        tokenOnboarding: session.tokenOnboarding,
        status: session.outcome?.status ?? 'IN_PROCESS',
        ...(session.outcome?.externalId && { externalId: session.outcome.externalId }),
        history: null,
        ...(kept && { keptAnyway: { ...kept } }),
        ...(session.reportServices !== undefined && { services: session.reportServices }),
      };
    }
  }
  return session.redactedAt ? redactedView(view, session.redactedAt) : view;
}

/** The page's view: the person only as `pagePrefill` shows them (sessions/person-rules.ts). */
export function toPageSession(session: SessionRecord, nowMs: number): PageSession {
  const status = effectiveStatus(session, nowMs);
  const prefill = pagePrefill(session, status);
  return {
    id: session.id,
    status,
    expiresAt: session.expiresAt,
    prefill,
    documentTypes: [...session.documentTypes],
    locale: session.locale,
    ...(session.returnUrl && { returnUrl: session.returnUrl }),
    // The page learns what the flow holds, never a check's result.
    ...(session.prefillFromDocument && { prefillFromDocument: true }),
    ...(session.steps && { steps: [...session.steps] }),
  };
}
