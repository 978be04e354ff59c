/**
 * When a call is tried again and how long it waits first: pure functions, so that the policy is
 * tested without a clock or a socket.
 */

/** First wait of the exponential backoff. */
export const BASE_DELAY_MS = 500;
/** No computed wait is longer than this. */
export const MAX_BACKOFF_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error goes to the caller, `retryAfterS` set. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * How a call may be repeated:
 * - `safe`: repeating it changes nothing (reads, cancel, redact, and creations that carry an
 *   `Idempotency-Key` the companion honours): every 429 and 5xx, and a failed connection.
 * - `unsafe`: a repeat may do the work twice; only answers that say nothing was done (429 and 503)
 *   are retried.
 */
export type RetryPolicy = 'safe' | 'unsafe';

/** 503 is answered before any work: busy, store or upstream unreachable, a waiting line full. */
const NOT_DONE = new Set([429, 503]);

/**
 * Whether an error answer is worth another try. `idempotency_in_progress` (409) means the first
 * try of this very call, same key, is still running: the repeat gets its answer once it is done.
 */
export function retriesAnswer(policy: RetryPolicy, status: number, code: string | undefined): boolean {
  if (NOT_DONE.has(status)) return true;
  if (code === 'idempotency_in_progress') return true;
  return policy === 'safe' && status >= 500 && status <= 599;
}

/** A failed connection (refused, reset, timed out) may have reached the companion: only a safe call repeats it. */
export function retriesConnectionFailure(policy: RetryPolicy): boolean {
  return policy === 'safe';
}

/**
 * Milliseconds a `Retry-After` asks for: delta-seconds or an HTTP date (RFC 9110, "Retry-After");
 * undefined when absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The wait before retry number `retry` (0 for the first): the server's `Retry-After` when it gave
 * one, plus up to 10 % so that clients told the same second do not return together; else
 * exponential from BASE_DELAY_MS, capped, with "equal jitter" (half fixed, half random).
 * `random` is in [0, 1).
 */
export function retryDelayMs(retry: number, retryAfterMs: number | undefined, random: number): number {
  if (retryAfterMs !== undefined) return Math.round(retryAfterMs + retryAfterMs * 0.1 * random);
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
