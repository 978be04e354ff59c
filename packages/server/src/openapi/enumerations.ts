/**
 * The value lists the document shares between its schemas and parameters, taken from the
 * contract's own lists where it has them.
 */
import { NOTIFICATION_TYPES, SESSION_STATUSES, type OutcomeKind } from '@onboarding-kit/contract';

/** `values` then those of `more` it lacks: the document names every value its routes answer, the contract's list first. */
function unionOf(values: readonly string[], more: readonly string[]): string[] {
  return [...values, ...more.filter((v) => !values.includes(v))];
}

/** Session statuses the routes answer; `POST /v1/sessions/{id}/cancel` answers `cancelled`. */
export const SESSION_STATUS_VALUES = unionOf(SESSION_STATUSES, ['cancelled']);

/** Notification types the companion sends; the cancel and redact routes send `session.cancelled` and `session.redacted`. */
export const NOTIFICATION_TYPE_VALUES = unionOf(NOTIFICATION_TYPES, ['session.cancelled', 'session.redacted']).sort();

/** Every kind of a classified outcome: `satisfies` holds it to the contract's `OutcomeKind`, no more, no fewer. */
export const OUTCOME_KINDS = Object.keys({
  success: true,
  'no-data': true,
  refused: true,
  error: true,
  'no-access': true,
  'missing-image': true,
  'face-not-found': true,
  unauthorized: true,
  failed: true,
} satisfies Record<OutcomeKind, true>);

/** The kinds a query answers with 200: the upstream's answer to the query, whatever it says (the rest is an error answer). */
export const ANSWER_KINDS: readonly OutcomeKind[] = [
  'success',
  'no-data',
  'refused',
  'failed',
  'no-access',
  'missing-image',
  'face-not-found',
];

export const TEXT_RULES = "Plain text: letters, digits, spaces and `.,'’()/-`.";
