/**
 * The instant checks of a session (docs/backend-api.md#checks), run in the background once its
 * onboarding is created, with the photos still in memory: each asked check queries its upstream
 * service, its answer is classified (checks/check-rules.ts) and applied to the session by
 * compare-and-set (store/rules/checks.ts). The document inspection, when its submission leaves it
 * running, becomes a pending query request tied to the session: the queries' schedule consults it
 * by key until it ends, after a restart too and on one instance at a time, and hands the end back
 * here. Nothing but that key outlives the creation: the photos are dropped once every check has sent them.
 *
 * When no check is pending any more, the write that made it so sends one `session.checks_completed`
 * (one event id per session: a repeat from any instance queues nothing).
 */
import { randomUUID } from 'node:crypto';
import type { CheckResult, Outcome, ReportedCheck } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import type { Timers } from '../relay/timers.js';
import type { SessionRecord } from '../store/backend-state.js';
import { applyCheckResult, completedBy } from '../store/rules/checks.js';
import { checkQuery, checkResult, failedCheck, inspectionEnded, retryable, type CheckInput } from './check-rules.js';

export interface CheckServiceOptions {
  /** Session writes by compare-and-set, and its notifications. */
  sessions: {
    change(id: string, change: (s: SessionRecord) => SessionRecord | null): Promise<SessionRecord | null>;
    notifyChecksCompleted(session: SessionRecord): Promise<void>;
  };
  /** One upstream query, classified; throws on a failure without an answer. */
  query(service: string, fields: Record<string, string>): Promise<Outcome>;
  /** Records an inspection left running, for the queries' schedule to consult by key. */
  followInspection(input: { sessionId: string; key: string; outcome: Outcome }): Promise<unknown>;
  logger: Logger;
  timers: Timers;
  /** Tries of a check failing for a retryable technical reason, in all. */
  attempts: number;
  /** The wait before the second try (doubling). */
  retryDelayMs: number;
}

export class CheckService {
  readonly #o: CheckServiceOptions;
  readonly #running = new Set<Promise<void>>();

  constructor(options: CheckServiceOptions) {
    this.#o = options;
  }

  /** Runs the checks in the background; the caller does not wait (`settled` does). */
  start(sessionId: string, requested: readonly ReportedCheck[], input: CheckInput): void {
    const run = Promise.all(requested.map((check) => this.#runOne(sessionId, check, input))).then(
      () => undefined,
      (error: unknown) => this.#o.logger.error('instant checks stopped', { sessionId, error }),
    );
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }

  /** Resolves when every check started here has its answer applied (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  /** A result applied to the session; the write that completes the checks sends `session.checks_completed`. */
  async apply(sessionId: string, result: CheckResult): Promise<void> {
    let completed = false;
    const changed = await this.#o.sessions.change(sessionId, (s) => {
      const next = applyCheckResult(s, result);
      completed = next !== null && completedBy(s, next);
      return next;
    });
    this.#o.logger.info('instant check ended', {
      sessionId,
      check: result.check,
      state: result.state,
      ...(result.externalId && { externalId: result.externalId }),
    });
    if (changed && completed) await this.#o.sessions.notifyChecksCompleted(changed);
  }

  /** The end of a session's inspection as the queries' schedule found it (no outcome: it was given up). */
  async inspectionEnded(sessionId: string, outcome: Outcome | undefined): Promise<void> {
    const at = this.#now();
    await this.apply(
      sessionId,
      outcome
        ? checkResult('document_inspection', outcome, at)
        : failedCheck('document_inspection', 'The inspection was still running past its time.', at),
    );
  }

  async #runOne(sessionId: string, check: ReportedCheck, input: CheckInput): Promise<void> {
    if (check === 'ocr' && input.reusedOcr) {
      this.#o.logger.info('instant check: the OCR of the document prefill reused (same front photo)', { sessionId });
      await this.apply(sessionId, { ...input.reusedOcr, requestedAt: this.#now() });
      return;
    }
    const key = check === 'document_inspection' ? randomUUID() : undefined;
    const query = checkQuery(check, input, key);
    if ('missing' in query) {
      await this.apply(sessionId, failedCheck(check, `Not sent: the creation has no ${query.missing}.`, this.#now()));
      return;
    }
    const outcome = await this.#ask(sessionId, check, query.service, query.fields);
    if (!outcome) {
      await this.apply(sessionId, failedCheck(check, 'The verification service did not answer.', this.#now()));
      return;
    }
    if (key !== undefined && outcome.ok && !inspectionEnded(outcome)) {
      await this.#o.followInspection({ sessionId, key, outcome });
      return;
    }
    await this.apply(sessionId, checkResult(check, outcome, this.#now()));
  }

  /** The check's answer after its bounded retries; undefined when no try got one. */
  async #ask(sessionId: string, check: ReportedCheck, service: string, fields: Record<string, string>): Promise<Outcome | undefined> {
    const { attempts, retryDelayMs, logger } = this.#o;
    let outcome: Outcome | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await this.#sleep(retryDelayMs * 2 ** (attempt - 2));
      try {
        outcome = await this.#o.query(service, fields);
        if (!retryable(outcome)) return outcome;
      } catch (error) {
        logger.warn('instant check call failed', { sessionId, check, attempt, error });
      }
    }
    return outcome;
  }

  #now(): string {
    return new Date(this.#o.timers.now()).toISOString();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.#o.timers.setTimeout(resolve, ms));
  }
}
