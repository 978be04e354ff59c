/**
 * What the hand-off panel reports to the flow: one `handoff-report` event (not bubbling, not
 * composed: it never leaves the flow's shadow root) for each thing the flow acts on. Types and
 * the event's name only, so that the flow's first load carries nothing of the panel.
 */
import type { PageSession } from '@onboarding-kit/contract';

/** What the `onboarding-handoff` event says. */
export type HandoffState = 'offered' | 'claimed' | 'reclaimed' | 'expired';

export interface HandoffOutcome {
  tokenOnboarding: string;
  status: 'APPROVED' | 'REFUSED' | 'ERROR';
  externalId?: string;
}

export type HandoffReport =
  | { kind: 'state'; state: HandoffState }
  /** A line for the flow's live region. */
  | { kind: 'announce'; text: string }
  /** The phone sent the onboarding. */
  | { kind: 'submitted'; tokenOnboarding: string }
  /** Its final status arrived. */
  | { kind: 'completed'; outcome: HandoffOutcome }
  /** The session is this computer's again: the take-back's answer, or null when another of its pages took it back. */
  | { kind: 'back'; session: PageSession | null }
  /** The session expired. */
  | { kind: 'ended' };

export const HANDOFF_REPORT = 'handoff-report';

export type HandoffReportEvent = CustomEvent<HandoffReport>;
