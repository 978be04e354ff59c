/**
 * The two webhook payload shapes (spec section 6): the onboarding report for onboarding status
 * changes, and the service envelope for finished standalone queries. No single structure may be
 * assumed, so the shape is recognised from its members.
 */
import { classify, type Outcome } from './classify.js';
import { isOnboardingStatus, type OnboardingStatus, type ServiceEnvelope } from './envelope.js';

export type OnboardingWebhook = { kind: 'onboarding'; tokenOnboarding: string; status: OnboardingStatus };
export type QueryWebhook = { kind: 'query'; outcome: Outcome; externalId?: string; tokenOnboarding?: string; status?: OnboardingStatus };
export type ParsedWebhook = OnboardingWebhook | QueryWebhook;

/** Recognises a webhook body; `null` when it is neither shape. */
export function parseWebhook(body: unknown): ParsedWebhook | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.tokenOnboarding === 'string' && isOnboardingStatus(b.status)) {
    return { kind: 'onboarding', tokenOnboarding: b.tokenOnboarding, status: b.status };
  }
  if ('result' in b || 'onboardingStatus' in b || (b.status && typeof b.status === 'object')) {
    const envelope = b as ServiceEnvelope;
    const parsed: QueryWebhook = { kind: 'query', outcome: classify(envelope) };
    if (typeof b.externalId === 'string') parsed.externalId = b.externalId;
    // Some products attach the onboarding token to envelope webhooks; use it when present.
    if (typeof b.tokenOnboarding === 'string') parsed.tokenOnboarding = b.tokenOnboarding;
    if (isOnboardingStatus(b.onboardingStatus)) parsed.status = b.onboardingStatus;
    return parsed;
  }
  return null;
}
