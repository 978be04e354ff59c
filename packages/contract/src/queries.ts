/**
 * Standalone query requests of the integrator's backend (docs/backend-api.md#standalone-queries):
 * what `POST /v1/queries` answers, what `GET /v1/queries/{id}` reads back, and the data of the
 * `query.completed` notification.
 */
import type { Outcome } from './classify.js';

export const QUERY_REQUEST_STATUSES = ['pending', 'completed', 'failed'] as const;
export type QueryRequestStatus = (typeof QUERY_REQUEST_STATUSES)[number];

/** 200 answer of `POST /v1/queries` (with `id`) and `GET /v1/queries/{key}` (without). */
export type QueryAnswer = Outcome & {
  /** The inspection's key (asynchronous inspections only). */
  key?: string;
  /** The request's id (`qry_...`): `GET /v1/queries/{id}`, and `requestId` of its `query.completed`. */
  id?: string;
};

/** 200 answer of `GET /v1/queries/{id}`. */
export interface QueryRequestView {
  id: string;
  /** The service as the caller named it. */
  service: string;
  status: QueryRequestStatus;
  createdAt: string;
  completedAt?: string;
  /** The inspection's key (asynchronous inspections only). */
  key?: string;
  /** The outcome as `POST /v1/queries` answered it, or as the inspection finished; absent while pending, for an inspection given up, and once erased. */
  result?: Outcome & { key?: string };
  /** When retention erased `result`. */
  resultErasedAt?: string;
}

/** `data` of a `query.completed` notification: the request, then its outcome (absent for an inspection given up). */
export type QueryCompletedData = Partial<Outcome> & {
  requestId: string;
  service: string;
  status: Exclude<QueryRequestStatus, 'pending'>;
  key?: string;
};
