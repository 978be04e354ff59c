/** The one wording of a rate limit's refusal, wherever a window refuses (creations, webhook keys, hand-off codes and offers). */
import { DomainError } from './domain-error.js';

/** 429 `rate_limited`: `Retry-After` is the refusing window's end in whole seconds (at least 1), and the message says it too. */
export function rateLimited(what: string, retryAfterMs: number): DomainError<'rate_limited'> {
  const retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new DomainError('rate_limited', `${what}; try again in ${retryAfterS} s.`, { retryAfterS });
}
