/**
 * Rate windows: a fixed window that starts with a key's first counted request; a request over
 * the limit is refused and not counted, so a client that keeps knocking is let in again when the
 * window ends. The Redis store runs this in Lua on its keys' TTLs; `RATE_CASES` holds every store to it.
 */
import type { RateLimitDecision } from '../store.js';

export interface RateWindow {
  count: number;
  resetAtMs: number;
}

/** The decision, and the window to store when the request was counted. */
export function consumeRate(
  held: RateWindow | undefined,
  limit: number,
  windowMs: number,
  nowMs: number,
): { decision: RateLimitDecision; write?: RateWindow } {
  const w = held && held.resetAtMs > nowMs ? held : { count: 0, resetAtMs: nowMs + windowMs };
  const retryAfterMs = w.resetAtMs - nowMs;
  if (w.count >= limit) return { decision: { allowed: false, count: w.count, retryAfterMs } };
  const write = { count: w.count + 1, resetAtMs: w.resetAtMs };
  return { decision: { allowed: true, count: write.count, retryAfterMs }, write };
}

/** Requests of one key (limit 2, window 1 s) at times after the start, and what each is told. */
export const RATE_CASES: ReadonlyArray<{ at: number; allowed: boolean; count: number; retryAfterMs: number }> = [
  { at: 0, allowed: true, count: 1, retryAfterMs: 1_000 },
  { at: 100, allowed: true, count: 2, retryAfterMs: 900 },
  { at: 200, allowed: false, count: 2, retryAfterMs: 800 },
  { at: 1_500, allowed: true, count: 1, retryAfterMs: 1_000 },
];
export const RATE_CASE_LIMIT = 2;
export const RATE_CASE_WINDOW_MS = 1_000;
