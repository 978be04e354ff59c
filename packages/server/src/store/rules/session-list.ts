/**
 * `GET /v1/sessions` in a store: which sessions a query lists and in what order. Every store lists
 * newest first by (creation time, id), a key each session carries for life, so a page's last
 * position marks where the next page starts whatever is inserted meanwhile: new sessions sort
 * before it and never shift the pages after it.
 */
import type { SessionPosition, SessionQuery, SessionRecord } from '../backend-state.js';
import { msOf } from './iso-time.js';

export type { SessionPosition, SessionQuery };

export const positionOf = (s: Pick<SessionRecord, 'createdAt' | 'id'>): SessionPosition => ({ createdMs: msOf(s.createdAt), id: s.id });

/** Newest first; sessions of one millisecond by id, highest first. */
export function listingOrder(x: SessionPosition, y: SessionPosition): number {
  return y.createdMs - x.createdMs || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0);
}

/** Whether `p` comes after `cursor` in the listing. */
export const listedAfter = (p: SessionPosition, cursor: SessionPosition): boolean => listingOrder(cursor, p) < 0;

/** Whether `q` lists `s` (the status as stored: the sweep marks an open session expired within its period). */
export function listedBy(s: SessionRecord, q: SessionQuery): boolean {
  const p = positionOf(s);
  return (
    (q.reference === undefined || s.reference === q.reference) &&
    (q.status === undefined || s.status === q.status) &&
    (q.createdAfterMs === undefined || p.createdMs > q.createdAfterMs) &&
    (q.createdBeforeMs === undefined || p.createdMs < q.createdBeforeMs) &&
    (q.after === undefined || listedAfter(p, q.after)) &&
    (q.idPrefix === undefined || s.id.startsWith(q.idPrefix))
  );
}

/** The sessions `q` lists from `all`, in listing order, at most `q.limit`. */
export function pageOf(all: SessionRecord[], q: SessionQuery): SessionRecord[] {
  return all
    .filter((s) => listedBy(s, q))
    .sort((x, y) => listingOrder(positionOf(x), positionOf(y)))
    .slice(0, Math.max(0, q.limit));
}
