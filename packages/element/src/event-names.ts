/**
 * The names of the events `<onboarding-flow>` dispatches, in the order a flow first fires them.
 * The one list that the event classes, the framework wrappers, the demo's event log and the
 * tests all use. A module with no imports: a page that only listens can load the names without
 * the element (`@onboarding-kit/element/event-names`).
 */
export const ONBOARDING_EVENTS = [
  'onboarding-step-change',
  'onboarding-capture',
  'onboarding-handoff',
  'onboarding-submitted',
  'onboarding-complete',
  'onboarding-error',
  'onboarding-cancel',
  'onboarding-continue',
] as const;

export type OnboardingEventName = (typeof ONBOARDING_EVENTS)[number];
