/**
 * How many hand-off attempts the store's rate windows let through (docs/page-api.md#guessing-a-code):
 * short-code claims per client address and from all addresses together, and offers per session.
 * The windows live in the store, so every instance on it counts against the same budget.
 */
import { HANDOFF_LIMITS } from '@onboarding-kit/contract';
import type { DomainError } from '../errors/domain-error.js';
import { rateLimited } from '../errors/rate-limited.js';
import type { Store } from '../store/index.js';

const MINUTE_MS = 60_000;

export type AttemptCounters = Pick<Store, 'consumeRateLimit'>;

/** The budget of all addresses together: a key no client address can take (addresses never start with `*`). */
const CODE_BUDGET_KEY = 'handoff:*';
const codeAttemptKey = (address: string): string => `handoff:${address}`;
const offerKey = (sessionId: string): string => `handoff-offer:${sessionId}`;

/**
 * Counts one short-code attempt, right or wrong, from `address`: null when it may go on, else the
 * 429 to answer and which limit refused it. The address's own window is asked first, so an
 * address past its limit spends none of the budget everyone shares.
 */
export async function countCodeAttempt(
  counters: AttemptCounters,
  address: string,
  budgetPerMinute: number,
): Promise<{ error: DomainError; limit: 'address' | 'all addresses' } | null> {
  const own = await counters.consumeRateLimit(
    codeAttemptKey(address),
    HANDOFF_LIMITS.claimAttemptsPerWindow,
    HANDOFF_LIMITS.claimWindowS * 1000,
  );
  if (!own.allowed) return { error: rateLimited('Too many code attempts from this address', own.retryAfterMs), limit: 'address' };
  const all = await counters.consumeRateLimit(CODE_BUDGET_KEY, budgetPerMinute, MINUTE_MS);
  if (!all.allowed) return { error: rateLimited('Too many code attempts right now', all.retryAfterMs), limit: 'all addresses' };
  return null;
}

/**
 * Counts one offer of `sessionId` within a link's life: each offer puts a new code in the store
 * for that long, so a session offering without end would fill the code space it is guessed in.
 */
export async function countOffer(counters: AttemptCounters, sessionId: string, perSession: number): Promise<void> {
  const d = await counters.consumeRateLimit(offerKey(sessionId), perSession, HANDOFF_LIMITS.ttlS * 1000);
  if (!d.allowed) throw rateLimited('Too many hand-off links for this session', d.retryAfterMs);
}
