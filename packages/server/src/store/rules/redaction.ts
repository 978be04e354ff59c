/**
 * What `POST /v1/sessions/{id}/redact` leaves of a session (docs/backend-api.md#post-v1sessionsidredact-api-key-scope-sessions):
 * a skeleton for audit, written as a list of what is KEPT, so a field added later holds no
 * personal data by mistake after a redaction. Pure: the session service applies it by
 * compare-and-set, and every store writes what it returns.
 *
 * Kept: ids, `reference`, statuses, times, the onboarding's token, status and status history
 * (statuses and times only), the claim's key and time (a creation under way still lands), the
 * steps and checks asked for and where each check stood (rules/checks.ts `redactedChecks`).
 * Erased: CPF/CNPJ, name, metadata values, `returnUrl`, the onboarding's `externalId`, the report's
 * `services`, the checks' results, messages and externalIds, the document reading and prefill, photos kept anyway, hand-off state and the answers carried with it, exchanged capture tokens, the event log's personal parts, the access
 * keys of the onboarding, and the personal part of every notification body of the session.
 */
import { supportCodeOf, type SessionEvent, type SessionView } from '@onboarding-kit/contract';
import type { OutboxEntry, SessionLogEntry, SessionRecord } from '../backend-state.js';
import type { OnboardingRecord } from '../store.js';
import { redactedChecks } from './checks.js';

/** An access-key hash no key has (SHA-256 never gives it): a redacted onboarding opens for no page. */
export const REVOKED_KEY_HASH = '0'.repeat(64);

const eventKept = (event: SessionEvent): SessionEvent =>
  event.type === 'session.completed' ? { type: event.type, tokenOnboarding: event.tokenOnboarding, status: event.status } : event;

/** The skeleton of `s`; `at` marks the first redaction (a later one keeps it). */
export function redactedSession(s: SessionRecord, at: string): SessionRecord {
  return {
    id: s.id,
    version: s.version,
    reference: s.reference,
    status: s.status,
    createdAt: s.createdAt,
    expiresAt: s.expiresAt,
    documentTypes: [...s.documentTypes],
    locale: s.locale,
    metadata: {},
    ...(s.claim && { claim: { key: s.claim.key, at: s.claim.at } }),
    ...(s.tokenOnboarding !== undefined && { tokenOnboarding: s.tokenOnboarding }),
    ...(s.outcome && { outcome: { status: s.outcome.status, at: s.outcome.at } }),
    ...(s.endedAt !== undefined && { endedAt: s.endedAt }),
    ...(s.events && { events: s.events.map((e): SessionLogEntry => ({ seq: e.seq, at: e.at, event: eventKept(e.event) })) }),
    ...(s.eventSeq !== undefined && { eventSeq: s.eventSeq }),
    ...(s.steps && { steps: [...s.steps] }),
    ...(s.prefillFromDocument && { prefillFromDocument: true }),
    ...(s.checks && { checks: redactedChecks(s.checks) }),
    redactedAt: s.redactedAt ?? at,
  };
}

/** The skeleton of an onboarding: token, status, times, history and session; no key opens it. */
export function redactedOnboarding(r: OnboardingRecord): OnboardingRecord {
  return {
    tokenOnboarding: r.tokenOnboarding,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    accessKeyHash: REVOKED_KEY_HASH,
    history: r.history.map(({ status, at, source }) => ({ status, at, source })),
    ...(r.finishedAt !== undefined && { finishedAt: r.finishedAt }),
    ...(r.sessionId !== undefined && { sessionId: r.sessionId }),
  };
}

type ViewLike = Partial<SessionView>;

/** A session view as a redacted session shows it (the same list of what is kept). */
export function redactedView(view: ViewLike, redactedAt: string): SessionView {
  const o = view.onboarding;
  return {
    id: String(view.id),
    supportCode: view.supportCode ?? supportCodeOf(String(view.id)),
    reference: String(view.reference),
    status: view.status!,
    createdAt: String(view.createdAt),
    expiresAt: String(view.expiresAt),
    metadata: {},
    ...(o && {
      onboarding: {
        tokenOnboarding: o.tokenOnboarding,
        status: o.status,
        history: o.history ? o.history.map(({ status, at, source }) => ({ status, at, source })) : null,
      },
    }),
    ...(view.checks && { checks: redactedChecks(view.checks) }),
    redactedAt,
  };
}

/**
 * A notification body of a redacted session: the envelope as queued, its `data` the redacted view.
 * A body that is not one of the kit's keeps its id, type and time only.
 */
export function redactedEventBody(entry: Pick<OutboxEntry, 'id' | 'type' | 'createdAt' | 'body'>, redactedAt: string): string {
  let event: Record<string, unknown> | null = null;
  try {
    event = JSON.parse(entry.body) as Record<string, unknown>;
  } catch {
    // Not JSON: nothing of it is kept.
  }
  if (!event || typeof event !== 'object' || !event.data || typeof event.data !== 'object')
    return JSON.stringify({ id: entry.id, type: entry.type, createdAt: entry.createdAt, data: null });
  const kept: Record<string, unknown> = {};
  for (const k of ['id', 'type', 'createdAt', 'environment']) if (event[k] !== undefined) kept[k] = event[k];
  return JSON.stringify({ ...kept, data: redactedView(event.data as ViewLike, redactedAt) });
}
