/**
 * The two webhook payload shapes (docs/upstream-api.md#webhooks): the onboarding report for
 * onboarding status changes, and the service envelope for finished standalone queries. No single
 * structure may be assumed, so the shape is recognised from its members, and both come out as one
 * normalised result: a receiver reads `tokenOnboarding`, `status` and `externalId` the same way
 * whichever shape arrived.
 */
import { classify, type Outcome } from './classify.js';
import { isOnboardingStatus, parseOnboardingReport, type OnboardingStatus } from './envelope.js';
import { isNonEmptyString, isRecord } from './guards.js';

/** An onboarding status change: the onboarding report. */
export interface OnboardingWebhook {
  kind: 'onboarding';
  tokenOnboarding: string;
  status: OnboardingStatus;
  /** Present only when the upstream sent a non-empty one. */
  externalId?: string;
}

/** A finished standalone query: the service envelope, classified. */
export interface QueryWebhook {
  kind: 'query';
  outcome: Outcome;
  /** Some products attach the onboarding to envelope webhooks; absent otherwise. */
  tokenOnboarding?: string;
  /** The envelope's `onboardingStatus`, when it names the attached onboarding's outcome. */
  status?: OnboardingStatus;
  /** Present only when the upstream sent a non-empty one. */
  externalId?: string;
}

export type ParsedWebhook = OnboardingWebhook | QueryWebhook;

/** Recognises a webhook body; `null` when it is neither shape. */
export function parseWebhook(body: unknown): ParsedWebhook | null {
  if (!isRecord(body)) return null;
  const report = parseOnboardingReport(body);
  if (report) {
    const { tokenOnboarding, status, externalId } = report;
    return { kind: 'onboarding', tokenOnboarding, status, ...(externalId !== undefined && { externalId }) };
  }
  if ('result' in body || 'onboardingStatus' in body || isRecord(body.status)) {
    const parsed: QueryWebhook = { kind: 'query', outcome: classify(body) };
    if (isNonEmptyString(body.externalId)) parsed.externalId = body.externalId;
    if (isNonEmptyString(body.tokenOnboarding)) parsed.tokenOnboarding = body.tokenOnboarding;
    if (isOnboardingStatus(body.onboardingStatus)) parsed.status = body.onboardingStatus;
    return parsed;
  }
  return null;
}
