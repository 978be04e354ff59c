/**
 * What the upstream's webhooks become (docs/page-api.md#upstream-webhooks): a finished standalone
 * query as its `query.completed` notification, a report with a status the contract does not
 * know as a bounded log entry, an onboarding's status as a hint checked against the upstream's
 * report, and a failed authentication as one counted against its address.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { OnboardingStatus, QueryWebhook } from '@onboarding-kit/contract';
import type { NotifyInput } from '../notifications/outbox.js';

/**
 * The `query.completed` event of a standalone envelope: its classified outcome, with the inspection's
 * `key` when the envelope names one. Its id follows from the key (else the externalId), so the same
 * webhook delivered twice queues one notification; an envelope with neither gets a random id.
 */
export function queryCompleted(parsed: QueryWebhook, body: unknown): NotifyInput {
  const rawKey = (body as Record<string, unknown>).key;
  const key = typeof rawKey === 'string' && rawKey && rawKey.length <= 128 ? rawKey : undefined;
  const { externalId } = parsed;
  // The shape `POST /v1/queries` answers, so one reader serves the synchronous and the asynchronous result.
  const data = { ...parsed.outcome, ...(externalId && { externalId }), ...(key && { key }) };
  const basis = key ? `key:${key}` : externalId ? `externalId:${externalId}` : undefined;
  if (!basis) {
    // Unrelated queries never wait for each other: each has its own order key.
    const id = `evt_${randomUUID().replaceAll('-', '')}`;
    return { id, type: 'query.completed', orderKey: id, data };
  }
  const id = `evt_${createHash('sha256').update(`query.completed:${basis}`).digest('hex').slice(0, 32)}`;
  return { id, type: 'query.completed', orderKey: `query:${basis}`, data };
}

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
