/**
 * Standalone query requests (docs/backend-api.md#standalone-queries): every answered
 * `POST /v1/queries` is recorded with an id; an asynchronous inspection stays pending until a
 * consultation of the upstream (`SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT` with its key) says it
 * ended, and only then is it completed and `query.completed` sent, once per request.
 *
 * An envelope webhook is a hint, never the outcome: it names a key, the pending request of that
 * key is consulted at once, and what the upstream answers decides. Webhooks get lost (the upstream
 * never resends), so pending inspections are also consulted on a schedule (doubling waits), by
 * one instance at a time (the store lease `queries`). The same loop applies retention: an outcome
 * is erased `retentionMs` after its request ended, a request deleted `maxAgeMs` after its creation.
 */
import type { Outcome } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import type { NotifyInput } from '../notifications/outbox.js';
import { realTimers, type TimerHandle, type Timers } from '../relay/timers.js';
import type { QueryRequestRecord } from '../store/backend-state.js';
import type { Store } from '../store/index.js';
import {
  givenUp,
  hintedKey,
  inspectionVerdict,
  newQueryId,
  nextCheckDelay,
  queryCompletedEvent,
  type InspectionChecks,
} from './inspection-rules.js';

const QUERIES_LEASE = 'queries';
/** Due inspections consulted per round. */
const ROUND = 50;
/** Retention runs at most this often. */
const PURGE_EVERY_MS = 60_000;

export interface QueryServiceOptions {
  store: Pick<
    Store,
    | 'insertQueryRequest'
    | 'getQueryRequest'
    | 'findQueryRequestByKey'
    | 'finishQueryRequest'
    | 'rescheduleQueryRequest'
    | 'dueQueryRequests'
    | 'purgeQueryRequests'
    | 'acquireLease'
    | 'releaseLease'
  >;
  /** Consults an inspection by its key (the upstream's consult service); throws on a technical failure. */
  consult: (key: string, request: QueryRequestRecord) => Promise<Outcome>;
  /** Where the end of a session's inspection goes (checks/check-service.ts); no outcome: it was given up. */
  sessionInspectionEnded?: (sessionId: string, outcome: Outcome | undefined) => Promise<void>;
  /** Where `query.completed` goes; without it requests are still recorded and completed. */
  notifier?: { notify(input: NotifyInput): Promise<unknown> };
  logger: Logger;
  timers?: Timers;
  checks: InspectionChecks;
  /** An outcome is erased this long after its request ended. */
  retentionMs: number;
  /** A request is deleted this long after its creation. */
  maxAgeMs: number;
  /** This instance, as the lease names it. */
  owner?: string;
}

export class QueryService {
  readonly #o: QueryServiceOptions;
  readonly #timers: Timers;
  readonly #owner: string;
  #timer: TimerHandle | undefined;
  #round: Promise<void> | undefined;
  #closed = false;
  #nextPurgeMs = 0;
  /** Keys being consulted here, so a burst of repeated webhooks costs one consultation. */
  readonly #consulting = new Set<string>();

  constructor(options: QueryServiceOptions) {
    this.#o = options;
    this.#timers = options.timers ?? realTimers;
    this.#owner = options.owner ?? `queries-${newQueryId().slice(4, 20)}`;
  }

  /**
   * Records a query the upstream answered and returns its request. A synchronous answer is
   * completed as the caller gets it; an inspection the submission left running is pending. With
   * `notify`, a request completed here sends its `query.completed` too (the caller asked for it).
   */
  async answered(input: {
    service: string;
    key?: string;
    outcome: Outcome;
    notify: boolean;
    sessionId?: string;
  }): Promise<QueryRequestRecord> {
    const now = this.#timers.now();
    const at = new Date(now).toISOString();
    const verdict = input.key === undefined ? 'completed' : inspectionVerdict(input.outcome);
    const base = {
      id: newQueryId(),
      service: input.service,
      createdAt: at,
      ...(input.key !== undefined && { key: input.key }),
      ...(input.sessionId !== undefined && { sessionId: input.sessionId }),
    };
    const outcome = { ...input.outcome, ...(input.key !== undefined && { key: input.key }) } as Record<string, unknown>;
    const record: QueryRequestRecord =
      verdict === 'pending'
        ? { ...base, status: 'pending', nextCheckMs: now + this.#o.checks.firstDelayMs, checks: 0 }
        : { ...base, status: verdict, completedAt: at, outcome };
    await this.#o.store.insertQueryRequest(record);
    if (verdict === 'pending') this.#wake(this.#o.checks.firstDelayMs);
    else if (input.notify) await this.#notify({ ...record, status: verdict });
    return record;
  }

  get(id: string): Promise<QueryRequestRecord | null> {
    return this.#o.store.getQueryRequest(id);
  }

  /**
   * An envelope webhook: finds the pending request of the key it names and consults the upstream
   * about it after the caller's answer. Anything else is acknowledged and left alone.
   */
  async hint(result: unknown, body: unknown, log: Logger): Promise<void> {
    const key = hintedKey(result, body);
    if (!key) {
      log.debug('webhook acknowledged: a standalone query without an inspection key; its caller has the answer');
      return;
    }
    const request = await this.#o.store.findQueryRequestByKey(key);
    if (!request) {
      log.info('webhook acknowledged: no query request has this inspection key, ignored', { key });
      return;
    }
    if (request.status !== 'pending') {
      log.debug('webhook acknowledged: the query request has ended already', { key, requestId: request.id, status: request.status });
      return;
    }
    log.info('webhook acknowledged: consulting the upstream about the inspection', { key, requestId: request.id });
    void this.check(request, 'webhook').catch((error: unknown) =>
      log.warn('inspection consultation failed; the schedule retries it', { key, requestId: request.id, error }),
    );
  }

  /** Consults the upstream about a pending inspection and ends, reschedules or gives it up. */
  async check(request: QueryRequestRecord, source: 'webhook' | 'schedule'): Promise<void> {
    const key = request.key;
    if (request.status !== 'pending' || key === undefined || this.#consulting.has(key)) return;
    this.#consulting.add(key);
    try {
      await this.#check(request, key, source);
    } finally {
      this.#consulting.delete(key);
    }
  }

  /** Starts the schedule of pending inspections and retention. */
  start(): void {
    this.#wake(Math.min(1_000, this.#o.checks.everyMs));
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#round;
    await this.#o.store.releaseLease(QUERIES_LEASE, this.#owner).catch(() => false);
  }

  /** One round: due inspections consulted and retention applied, by the lease holder only. */
  async round(): Promise<void> {
    const { store, checks } = this.#o;
    if (!(await store.acquireLease(QUERIES_LEASE, this.#owner, checks.everyMs * 3))) return;
    const now = this.#timers.now();
    for (const request of await store.dueQueryRequests(now, ROUND)) {
      if (this.#closed) return;
      await this.check(request, 'schedule').catch((error: unknown) =>
        this.#o.logger.warn('inspection consultation failed; retrying later', { requestId: request.id, error }),
      );
    }
    if (now >= this.#nextPurgeMs) {
      this.#nextPurgeMs = now + Math.min(PURGE_EVERY_MS, checks.everyMs * 12);
      const touched = await store.purgeQueryRequests({
        outcomesCompletedBefore: new Date(now - this.#o.retentionMs),
        createdBefore: new Date(now - this.#o.maxAgeMs),
      });
      if (touched > 0) this.#o.logger.info('retention: query outcomes erased and old query requests deleted', { count: touched });
    }
  }

  async #check(request: QueryRequestRecord, key: string, source: 'webhook' | 'schedule'): Promise<void> {
    const { store, checks, logger } = this.#o;
    let outcome: Outcome | undefined;
    try {
      outcome = await this.#o.consult(key, request);
    } catch (error) {
      logger.warn('inspection consultation failed', { key, requestId: request.id, error });
    }
    const verdict = outcome ? inspectionVerdict(outcome) : 'pending';
    const now = this.#timers.now();
    if (verdict === 'pending') {
      if (source === 'webhook')
        logger.info('webhook not confirmed: the upstream says the inspection is still running', { key, requestId: request.id });
      if (givenUp(request, now, checks)) {
        await this.#end(request, { status: 'failed', completedAt: new Date(now).toISOString() });
        logger.warn('inspection given up: still running past its time', { key, requestId: request.id });
        return;
      }
      const done = (request.checks ?? 0) + 1;
      await store.rescheduleQueryRequest(request.id, now + nextCheckDelay(done, checks), done);
      return;
    }
    const ended = await this.#end(request, {
      status: verdict,
      completedAt: new Date(now).toISOString(),
      outcome: { ...outcome!, key } as Record<string, unknown>,
    });
    if (ended) logger.info('inspection ended', { key, requestId: request.id, status: verdict, kind: outcome!.kind, source });
  }

  /**
   * Queues the event before the request is marked ended: a crash in between leaves it pending, and
   * the next consultation queues the same event id again, which the outbox takes once.
   */
  async #end(
    request: QueryRequestRecord,
    end: Required<Pick<QueryRequestRecord, 'completedAt'>> & { status: 'completed' | 'failed'; outcome?: Record<string, unknown> },
  ): Promise<boolean> {
    const current = await this.#o.store.getQueryRequest(request.id);
    if (current?.status !== 'pending') return false;
    const { nextCheckMs: _n, ...rest } = current;
    if (current.sessionId === undefined) {
      await this.#notify({ ...rest, ...end });
      return this.#o.store.finishQueryRequest(request.id, end);
    }
    // A session's inspection: its result is the session's (sealed, redacted with it), never kept here too.
    await this.#o.sessionInspectionEnded?.(current.sessionId, end.outcome as Outcome | undefined);
    const { outcome: _o, ...ended } = end;
    return this.#o.store.finishQueryRequest(request.id, ended);
  }

  async #notify(record: QueryRequestRecord & { status: 'completed' | 'failed' }): Promise<void> {
    if (this.#o.notifier) await this.#o.notifier.notify(queryCompletedEvent(record));
  }

  #wake(inMs: number): void {
    if (this.#closed) return;
    const at = this.#timers.now() + inMs;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    this.#timers.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#timers.setTimeout(() => void this.#tick(), inMs);
  }

  #timerAt = Infinity;

  async #tick(): Promise<void> {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    if (this.#closed || this.#round) return;
    this.#round = this.round()
      .catch((error: unknown) => this.#o.logger.warn('query round failed; retrying at the next one', { error }))
      .finally(() => {
        this.#round = undefined;
        this.#wake(this.#o.checks.everyMs);
      });
    await this.#round;
  }
}
