/**
 * The notification outbox: what a try writes, which entries are due and in what order they are
 * served, which ones a listing shows, when a settled entry may go, and the retry schedule.
 */
import type { OutboxEntry, OutboxState, OutboxUpdate } from '../backend-state.js';
import { msOf } from './iso-time.js';

/** The fields of a try, and only those it sets (an absent field stays absent, never `undefined`). */
export function outboxTry(u: OutboxUpdate): OutboxUpdate {
  return {
    state: u.state,
    attempts: u.attempts,
    nextAttemptMs: u.nextAttemptMs,
    ...(u.lastAttemptAt !== undefined && { lastAttemptAt: u.lastAttemptAt }),
    ...(u.lastError !== undefined && { lastError: u.lastError }),
    ...(u.deliveredAt !== undefined && { deliveredAt: u.deliveredAt }),
  };
}

/** The part of an entry no try changes. */
export const outboxBase = (e: OutboxEntry): Pick<OutboxEntry, 'id' | 'type' | 'body' | 'orderKey' | 'createdAt'> => ({
  id: e.id,
  type: e.type,
  body: e.body,
  orderKey: e.orderKey,
  createdAt: e.createdAt,
});

/**
 * An entry after a try: the update sets every field a try decides, and leaves out what it omits,
 * so a delivery does not keep the error of the try before it.
 */
export const applyOutboxUpdate = (entry: OutboxEntry, u: OutboxUpdate): OutboxEntry => ({ ...outboxBase(entry), ...outboxTry(u) });

/** When an entry last changed, which retention measures settled entries by. */
export const outboxChangedMs = (e: Pick<OutboxEntry, 'createdAt' | 'lastAttemptAt' | 'deliveredAt'>): number =>
  msOf(e.deliveredAt ?? e.lastAttemptAt ?? e.createdAt);

/** Pending and its next try has come. */
export const isDue = (e: Pick<OutboxEntry, 'state' | 'nextAttemptMs'>, nowMs: number): boolean =>
  e.state === 'pending' && e.nextAttemptMs <= nowMs;

/** An entry with its place in the queue: the insertion number breaks ties of `createdAt`. */
export interface Queued {
  entry: OutboxEntry;
  seq: number;
}

/** Queue order: oldest first, then first inserted. */
export const queueOrder = (x: Queued, y: Queued): number => msOf(x.entry.createdAt) - msOf(y.entry.createdAt) || x.seq - y.seq;

/** Whether a listing of `state` shows `e` (failing only: pending entries with a failed try). */
export const listed = (e: Pick<OutboxEntry, 'state' | 'attempts'>, state: OutboxState, failingOnly = false): boolean =>
  e.state === state && (!failingOnly || e.attempts > 0);

/** Whether retention removes `e`: settled (delivered or failed) and last changed before the cutoff. */
export const outboxSettledBefore = (e: OutboxEntry, cutoffMs: number): boolean => e.state !== 'pending' && outboxChangedMs(e) < cutoffMs;

export interface RetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
  giveUpAfterMs: number;
}

/** The wait after the `attempts`-th failed try: doubling from the first delay, capped. */
export function retryDelay(attempts: number, s: Pick<RetrySchedule, 'firstDelayMs' | 'maxDelayMs'>): number {
  const doubled = s.firstDelayMs * 2 ** Math.min(Math.max(0, attempts - 1), 40);
  return Math.min(doubled, s.maxDelayMs);
}

/** The waits the schedule has spent after `failedTries` failed tries. */
export function scheduledWait(failedTries: number, s: Pick<RetrySchedule, 'firstDelayMs' | 'maxDelayMs'>): number {
  let total = 0;
  for (let i = 1; i <= failedTries; i++) total += retryDelay(i, s);
  return total;
}

/**
 * What the `attempts`-th try, failed at `atMs`, leaves: `failed` once the waits already spent
 * reach the give-up time (counted in tries, so a replayed entry gets a whole new schedule), else
 * pending until the next delay has passed.
 */
export function afterFailedTry(attempts: number, atMs: number, s: RetrySchedule): { state: 'failed' | 'pending'; nextAttemptMs: number } {
  if (scheduledWait(attempts - 1, s) >= s.giveUpAfterMs) return { state: 'failed', nextAttemptMs: atMs };
  return { state: 'pending', nextAttemptMs: atMs + retryDelay(attempts, s) };
}

/**
 * Which pending entries (in queue order, due or not) a scan starts now: the first of each order
 * key only (a later one waits for it, even while it waits for its retry), none already in flight,
 * at most `room` of them; and when to look again if nothing sooner wakes the scan.
 */
export function pickDeliveries(
  pending: OutboxEntry[],
  nowMs: number,
  options: { inFlight: (id: string) => boolean; room: number; nextLookMs: number },
): { start: OutboxEntry[]; nextAtMs: number } {
  const start: OutboxEntry[] = [];
  const seen = new Set<string>();
  let nextAtMs = nowMs + options.nextLookMs;
  for (const entry of pending) {
    if (seen.has(entry.orderKey)) continue;
    seen.add(entry.orderKey);
    if (options.inFlight(entry.id)) continue;
    if (entry.nextAttemptMs > nowMs) nextAtMs = Math.min(nextAtMs, entry.nextAttemptMs);
    else if (start.length < options.room) start.push(entry);
  }
  return { start, nextAtMs };
}
