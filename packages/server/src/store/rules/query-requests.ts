/**
 * Standalone query requests in a store: a pending one ends once (compare-and-set on its status),
 * due ones are consulted soonest first, and retention erases an outcome, then the request.
 * What stores hold is the stored form: the outcome as JSON text (sealed at rest).
 */
import type { QueryPurgeCutoffs, QueryRequestEnd, QueryRequestRecord } from '../backend-state.js';
import { msOf } from './iso-time.js';

/** A request as a backend keeps it: the outcome as (sealed) text. */
export type StoredQueryRequest = Omit<QueryRequestRecord, 'outcome'> & { outcome?: string };

/** How a backend ends a request: the outcome as (sealed) text. */
export type StoredQueryEnd = Omit<QueryRequestEnd, 'outcome'> & { outcome?: string };

/** Retention in ms since the epoch: strictly before a cutoff goes. */
export interface QueryCutoffs {
  outcomesCompletedBeforeMs: number;
  createdBeforeMs: number;
}

export const queryCutoffs = (c: QueryPurgeCutoffs): QueryCutoffs => ({
  outcomesCompletedBeforeMs: c.outcomesCompletedBefore.getTime(),
  createdBeforeMs: c.createdBefore.getTime(),
});

/** Only a pending request ends, so whoever ends it is the one that reports it. */
export function endQuery(current: StoredQueryRequest | undefined | null, end: StoredQueryEnd): StoredQueryRequest | null {
  if (!current || current.status !== 'pending') return null;
  const { nextCheckMs: _next, ...rest } = current;
  return { ...rest, status: end.status, completedAt: end.completedAt, ...(end.outcome !== undefined && { outcome: end.outcome }) };
}

/** A pending request consulted again later; null unless it is pending. */
export function rescheduled(
  current: StoredQueryRequest | undefined | null,
  nextCheckMs: number,
  checks: number,
): StoredQueryRequest | null {
  if (!current || current.status !== 'pending') return null;
  return { ...current, nextCheckMs, checks };
}

/** Pending and its next consultation has come. */
export const queryDue = (r: Pick<StoredQueryRequest, 'status' | 'nextCheckMs'>, nowMs: number): boolean =>
  r.status === 'pending' && r.nextCheckMs !== undefined && r.nextCheckMs <= nowMs;

/** Soonest consultation first; ties by insertion (`seq`). */
export const soonestCheckFirst = (x: { r: StoredQueryRequest; seq: number }, y: { r: StoredQueryRequest; seq: number }): number =>
  (x.r.nextCheckMs ?? 0) - (y.r.nextCheckMs ?? 0) || x.seq - y.seq;

/** Whether retention deletes the whole request: created before the cutoff, whatever its status. */
export const queryDeleted = (r: Pick<StoredQueryRequest, 'createdAt'>, c: QueryCutoffs): boolean => msOf(r.createdAt) < c.createdBeforeMs;

/** Whether retention erases the outcome: one is held and the request ended before the cutoff. */
export const outcomeErased = (r: Pick<StoredQueryRequest, 'outcome' | 'completedAt'>, c: QueryCutoffs): boolean =>
  r.outcome !== undefined && r.completedAt !== undefined && msOf(r.completedAt) < c.outcomesCompletedBeforeMs;

/** The request with its outcome erased at `at`. */
export function withoutOutcome(r: StoredQueryRequest, at: string): StoredQueryRequest {
  const { outcome: _gone, ...rest } = r;
  return { ...rest, outcomeErasedAt: at };
}

/** Copies through JSON, as the shared stores hold them: a field set to `undefined` reads back absent everywhere. */
export const copyQuery = (r: StoredQueryRequest): StoredQueryRequest => JSON.parse(JSON.stringify(r)) as StoredQueryRequest;
