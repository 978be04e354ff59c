/**
 * What a standalone query request becomes (docs/backend-api.md#standalone-queries): its id, where
 * an asynchronous inspection stands after a consultation of the upstream, when it is consulted
 * next, the view `GET /v1/queries/{id}` answers and the `query.completed` event it sends.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Outcome, QueryCompletedData, QueryRequestView } from '@onboarding-kit/contract';
import type { QueryRequestRecord } from '../store/backend-state.js';
import type { NotifyInput } from '../notifications/outbox.js';
import { UUID } from './query-rules.js';

/**
 * The upstream shows only `APPROVED` as an inspection's status (docs/upstream-api.md#asynchronous-document-inspection);
 * its pending value is not shown. The kit takes the upstream's own in-process word of onboardings
 * for it: an inspection whose status is absent or this word is still running, any other status ended it.
 */
const INSPECTION_RUNNING = 'IN_PROCESS';

/** `qry_` and 128 random bits in hex. */
export const newQueryId = (): string => `qry_${randomBytes(16).toString('hex')}`;
export const QUERY_ID = /^qry_[0-9a-f]{32}$/;

/** Outcomes that say the upstream will never finish this inspection: the request fails. */
const NEVER_FINISHES = new Set<Outcome['kind']>(['no-data', 'no-access', 'missing-image', 'face-not-found', 'failed']);

/**
 * Where an inspection stands given the upstream's answer about it (a submission's or a
 * consultation's): `pending` while it runs, and after a technical failure (the next consultation
 * may answer); `completed` with a result or a refusal (a business outcome); `failed` when the
 * upstream answered that it has nothing to finish.
 */
export function inspectionVerdict(outcome: Outcome): 'pending' | 'completed' | 'failed' {
  if (outcome.kind === 'refused') return 'completed';
  if (outcome.kind === 'success') {
    const status = (outcome.result as Record<string, unknown> | undefined)?.status;
    return typeof status !== 'string' || status === INSPECTION_RUNNING ? 'pending' : 'completed';
  }
  return NEVER_FINISHES.has(outcome.kind) ? 'failed' : 'pending';
}

export interface InspectionChecks {
  /** After the submission, the first consultation's wait. */
  firstDelayMs: number;
  /** The longest wait between two consultations (they double from the first). */
  maxDelayMs: number;
  /** A pending inspection fails this long after its submission. */
  giveUpAfterMs: number;
  /** How often due inspections are looked for. */
  everyMs: number;
}

/** The wait after the `checks`-th consultation left the inspection pending: doubling from the first, capped. */
export const nextCheckDelay = (checks: number, s: Pick<InspectionChecks, 'firstDelayMs' | 'maxDelayMs'>): number =>
  Math.min(s.firstDelayMs * 2 ** Math.min(Math.max(0, checks), 30), s.maxDelayMs);

/** Whether a pending inspection is past its time. */
export const givenUp = (r: Pick<QueryRequestRecord, 'createdAt'>, nowMs: number, s: Pick<InspectionChecks, 'giveUpAfterMs'>): boolean =>
  nowMs - Date.parse(r.createdAt) >= s.giveUpAfterMs;

export const queryRequestView = (r: QueryRequestRecord): QueryRequestView => ({
  id: r.id,
  service: r.service,
  status: r.status,
  createdAt: r.createdAt,
  ...(r.completedAt !== undefined && { completedAt: r.completedAt }),
  ...(r.key !== undefined && { key: r.key }),
  ...(r.outcome !== undefined && { result: r.outcome as unknown as NonNullable<QueryRequestView['result']> }),
  ...(r.outcomeErasedAt !== undefined && { resultErasedAt: r.outcomeErasedAt }),
});

/**
 * The `query.completed` event of an ended request: one id per request, so however often the
 * upstream repeats itself or instances race, one event is queued.
 */
export function queryCompletedEvent(r: QueryRequestRecord & { status: 'completed' | 'failed' }): NotifyInput<QueryCompletedData> {
  const id = `evt_${createHash('sha256').update(`query.completed:${r.id}`).digest('hex').slice(0, 32)}`;
  return {
    id,
    type: 'query.completed',
    orderKey: `query:${r.id}`,
    data: {
      ...(r.outcome as Partial<Outcome> | undefined),
      requestId: r.id,
      service: r.service,
      status: r.status,
      ...(r.key !== undefined && { key: r.key }),
    },
  };
}

/**
 * The inspection key an envelope webhook names (its result's `key`, else a top-level one),
 * UUID-shaped, as written: a key the upstream echoes in another case finds no request, and the
 * schedule consults that inspection anyway.
 */
export function hintedKey(result: unknown, body: unknown): string | undefined {
  for (const holder of [result, body]) {
    const key = holder && typeof holder === 'object' ? (holder as Record<string, unknown>).key : undefined;
    if (typeof key === 'string' && UUID.test(key)) return key;
  }
  return undefined;
}
