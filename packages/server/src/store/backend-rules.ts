/**
 * Rules of the backend's state that every store applies the same way, so a record reads back
 * alike from memory, SQLite or Redis.
 */
import type { OutboxEntry, OutboxUpdate, SessionRecord } from './backend-state.js';
import { msOf } from './iso-time.js';

/**
 * Sessions travel as JSON in the shared stores, where a property set to `undefined` vanishes; the
 * memory store copies them the same way, so a field cleared with `undefined` reads back absent
 * everywhere, and no caller ever holds the stored object.
 */
export const copySession = (s: SessionRecord): SessionRecord => JSON.parse(JSON.stringify(s)) as SessionRecord;

/**
 * An entry after a try: the update sets every field a try decides, and leaves out what it omits,
 * so a delivery does not keep the error of the try before it.
 */
export function applyOutboxUpdate(entry: OutboxEntry, u: OutboxUpdate): OutboxEntry {
  return { id: entry.id, type: entry.type, body: entry.body, orderKey: entry.orderKey, createdAt: entry.createdAt, ...outboxTry(u) };
}

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

/** When an entry last changed, which retention measures settled entries by. */
export const outboxChangedMs = (e: Pick<OutboxEntry, 'createdAt' | 'lastAttemptAt' | 'deliveredAt'>): number => msOf(e.deliveredAt ?? e.lastAttemptAt ?? e.createdAt);
