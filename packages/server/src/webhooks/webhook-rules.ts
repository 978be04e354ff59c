/**
 * What the upstream's webhooks become (docs/page-api.md#upstream-webhooks): a report with a
 * status the contract does not know as a bounded log entry, an onboarding's status as a hint
 * checked against the upstream's report, and a failed authentication as one counted against its
 * address. A finished standalone query's hint is queries/inspection-rules.ts `hintedKey`.
 */
import type { OnboardingStatus } from '@onboarding-kit/contract';

/** An onboarding report whose `status` is a string outside the contract's statuses (for the log: token and a bounded status). */
export function withUnknownStatus(body: unknown): { tokenOnboarding: string; status: string } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { tokenOnboarding, status } = body as Record<string, unknown>;
  if (typeof tokenOnboarding !== 'string' || !tokenOnboarding || typeof status !== 'string') return null;
  return { tokenOnboarding: tokenOnboarding.slice(0, 128), status: status.slice(0, 40) };
}

/**
 * Where a webhook's authentication leads, given whether its key matched and the failed
 * authentications counted for its address (`window.count`; the window was only read when the key
 * matched, so a right key never counts). Past `limit` failures even a right key is refused until
 * the window ends: a 200 past the limit would tell a guesser which key is right.
 */
export function webhookAuthVerdict(
  keyMatches: boolean,
  window: { allowed: boolean; count: number },
  limit: number,
): 'pass' | 'unauthorized' | 'limited' {
  if (keyMatches) return window.count >= limit ? 'limited' : 'pass';
  return window.allowed ? 'unauthorized' : 'limited';
}

/**
 * A webhook's status against the upstream's report read because of it: `unread` when the read
 * failed or was not made (polling brings the outcome), `confirmed` when both say the same, and
 * `disagrees` otherwise. The upstream's status is what the store gets in every case.
 */
export function hintCheck(hint: OnboardingStatus, upstream: OnboardingStatus | null): 'unread' | 'confirmed' | 'disagrees' {
  if (upstream === null) return 'unread';
  return upstream === hint ? 'confirmed' : 'disagrees';
}
