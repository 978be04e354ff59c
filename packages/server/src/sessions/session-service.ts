/**
 * Sessions (docs/backend-api.md#sessions): opened by the integrator's backend for a person it
 * knows, they are what lets a page create one onboarding. Every change of a session is a
 * compare-and-set on its version, so instances racing to claim, submit, complete or expire one
 * session cannot both win; each change that matters to the backend queues a notification after it.
 */
import { randomBytes } from 'node:crypto';
import {
  isTerminalStatus,
  type CreateSessionResponse,
  type NotificationType,
  type SessionView,
  type ValidCreateSession,
} from '@onboarding-kit/contract';
import { hashSecret } from '../auth/access-key.js';
import { idempotencyConflict, idempotencyInProgress } from '../idempotency/idempotency-rules.js';
import type { Logger } from '../logger.js';
import type { Timers, TimerHandle } from '../relay/timers.js';
import type { SessionRecord, SessionSecretKind } from '../store/backend-state.js';
import type { OnboardingRecord, Store } from '../store/index.js';
import { holds, sessionHandedOff, withEvent, type PageCaller } from '../handoff/handoff-rules.js';
import { effectiveStatus, toSessionView } from './session-view.js';
import { newSecrets, newSessionRecord, sessionResponse } from './new-session.js';
import { pageSecretOpens } from './page-secret-rules.js';
import { CLAIM_REFUSALS, sessionExpired, sessionUsed } from './session-refusals.js';
import {
  CREATION_HOLD_MS,
  HOUR_MS,
  IDEMPOTENCY_TTL_MS,
  PAGE_READ_GRACE_MS,
  RETENTION_MS,
  SESSION_MAX_AGE_MS,
  SESSION_SWEEP_EVERY_MS,
} from '../config/defaults.js';
import { claimLive, decideClaim } from '../store/index.js';
import { completionReport, type ReadReport, type ReportExtras } from './completion-report.js';
import { redactedOnboarding, redactedSession } from '../store/rules/redaction.js';
import { sessionEventId, type SessionNotificationType } from './lifecycle-rules.js';
import { withSubmittedChecks } from '../store/rules/checks.js';
import { withPageIntegrity, type SubmittedByPage } from '../integrity/integrity-rules.js';

/** Where session events go (the notifier, when `ONBOARDING_NOTIFY_URL` is set). */
export interface SessionNotifier {
  notify(input: { id: string; type: NotificationType; orderKey: string; data: unknown }): Promise<unknown>;
}

export interface SessionServiceOptions {
  store: Store;
  timers: Timers;
  logger: Logger;
  /** The companion's public base URL: session `url`s are `<publicUrl>/capture/<token>` (default: the origin the request came to). */
  publicUrl?: string;
  notifier?: SessionNotifier;
  /** How long a claim by a creation that never finished blocks the session (its upstream call with its retries must fit in it). */
  claimTimeoutMs?: number;
  /** How often open sessions are checked for expiry and submitted ones reconciled (default 15 s: an expiry is told within a minute). */
  sweepEveryMs?: number;
  /** Ended sessions are deleted this long after they ended (default 24 h). */
  retentionMs?: number;
  /** How long page secrets other than the client secret still open a session once it ended (default 5 min). */
  pageReadGraceMs?: number;
  /** Reads an onboarding's report for a completion that came without it (sessions/completion-report.ts). */
  readReport?: ReadReport;
}

export type ClaimResult =
  | { kind: 'claimed'; session: SessionRecord }
  | { kind: 'replay'; tokenOnboarding: string }
  /** The key of the session's onboarding, asked without a body: ask again with the body's fingerprint. */
  | { kind: 'needs_body' };

const CAS_ATTEMPTS = 5;
const PURGE_EVERY_MS = HOUR_MS;

export class SessionService {
  readonly #o: Required<Pick<SessionServiceOptions, 'claimTimeoutMs' | 'sweepEveryMs' | 'retentionMs' | 'pageReadGraceMs'>> &
    SessionServiceOptions;
  #timer: TimerHandle | undefined;
  #closed = false;
  #sweeping: Promise<void> | undefined;
  #nextPurge = 0;

  constructor(options: SessionServiceOptions) {
    this.#o = {
      claimTimeoutMs: CREATION_HOLD_MS,
      sweepEveryMs: SESSION_SWEEP_EVERY_MS,
      retentionMs: RETENTION_MS,
      pageReadGraceMs: PAGE_READ_GRACE_MS,
      ...options,
    };
  }

  get store(): Store {
    return this.#o.store;
  }

  now(): number {
    return this.#o.timers.now();
  }

  /** `POST /v1/sessions`: a new session, or with a known `Idempotency-Key` and the same body, the same session with new secrets. */
  async open(
    valid: ValidCreateSession,
    request: { idempotencyKey?: string; fingerprint: string; origin: string },
  ): Promise<{ response: CreateSessionResponse; replayed: boolean }> {
    const { store } = this.#o;
    const scope = request.idempotencyKey && `session:${request.idempotencyKey}`;
    if (scope) {
      const held = await store.reserveIdempotencyKey(scope, request.fingerprint, { ttlMs: IDEMPOTENCY_TTL_MS, pendingTtlMs: 30_000 });
      if (held.state !== 'reserved') {
        if (held.fingerprint !== request.fingerprint) throw idempotencyConflict();
        if (held.state === 'pending') throw idempotencyInProgress();
        const session = await store.getSession(held.result);
        // Deleted by retention: the key outlived it, and nothing can be replayed.
        if (!session) throw idempotencyConflict();
        return { response: await this.#reissue(session, request.origin), replayed: true };
      }
    }
    try {
      const record = newSessionRecord(valid, this.now());
      const secrets = newSecrets(record.id);
      await store.createSession(record, { client: hashSecret(secrets.clientSecret), capture: hashSecret(secrets.captureToken) });
      if (scope) await store.completeIdempotencyKey(scope, record.id, IDEMPOTENCY_TTL_MS);
      this.#o.logger.info('session opened', { sessionId: record.id, expiresAt: record.expiresAt });
      return { response: sessionResponse(this.publicBase(request.origin), this.now(), record, secrets), replayed: false };
    } catch (error) {
      if (scope) await store.releaseIdempotencyKey(scope).catch(() => undefined);
      throw error;
    }
  }

  /** The session a page's client secret opens, or null. */
  async authenticate(clientSecret: string | undefined): Promise<SessionRecord | null> {
    if (!clientSecret || clientSecret.length > 512) return null;
    return this.#o.store.findSessionBySecret('client', hashSecret(clientSecret));
  }

  /**
   * The page a Bearer secret belongs to: a client secret or a capture token (the session's
   * origin), or a device secret from a hand-off claim; null for anything else. Whether it may act
   * is the caller's to check (`holds`, `stillValid`).
   */
  async authenticatePage(secret: string | undefined): Promise<PageCaller | null> {
    if (!secret || secret.length > 512) return null;
    const hash = hashSecret(secret);
    const kinds: SessionSecretKind[] = ['client', 'capture', 'page', 'device'];
    const found = await Promise.all(kinds.map((kind) => this.#o.store.findSessionBySecret(kind, hash)));
    const i = found.findIndex((s) => s !== null);
    if (i < 0) return null;
    const caller: PageCaller = { session: found[i]!, kind: kinds[i]!, secret };
    return pageSecretOpens(caller.session, caller, this.now(), this.#o.pageReadGraceMs) ? caller : null;
  }

  /** The base of the companion's public URLs (`ONBOARDING_PUBLIC_URL`, else the origin the request came to). */
  publicBase(origin: string): string {
    return (this.#o.publicUrl ?? origin).replace(/\/+$/, '');
  }

  /** Applies `change` by compare-and-set (re-reading on a lost race); the new record, or null when `change` declined. */
  change(id: string, change: (s: SessionRecord) => SessionRecord | null): Promise<SessionRecord | null> {
    return this.#change(id, change);
  }

  async view(id: string): Promise<SessionView | null> {
    const session = /^ses_[0-9a-f]{32}$/.test(id) ? await this.#o.store.getSession(id) : null;
    return session ? this.#view(session) : null;
  }

  /**
   * Takes the session for one onboarding creation. A creation with the `Idempotency-Key` of the
   * one that made the session's onboarding is a replay (same body) or a conflict; any other is
   * refused once the session is used or claimed, and every one once it has expired. Asked before
   * the creation's body is read (no `fingerprint`), so a refusal costs no upload.
   */
  async claim(
    session: SessionRecord,
    request: { idempotencyKey?: string; fingerprint?: string; caller?: PageCaller },
  ): Promise<ClaimResult> {
    let current: SessionRecord | null = session;
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      if (attempt > 0 && !(current = await this.#o.store.getSession(session.id))) throw sessionExpired();
      // A hand-off may have moved the session since the caller was authenticated.
      if (request.caller && !holds(current, request.caller)) throw sessionHandedOff();
      const now = this.now();
      const decision = decideClaim(current, request, effectiveStatus(current, now), now, this.#o.claimTimeoutMs);
      if (decision.kind === 'replay' || decision.kind === 'needs_body') return decision;
      if (decision.kind === 'refused') throw CLAIM_REFUSALS[decision.reason]();
      const next: SessionRecord = {
        ...current,
        version: current.version + 1,
        claim: {
          key: request.idempotencyKey ?? `auto_${randomBytes(12).toString('hex')}`,
          ...(request.fingerprint !== undefined && { fingerprint: request.fingerprint }),
          at: new Date(now).toISOString(),
        },
      };
      if (await this.#o.store.replaceSession(next, current.version)) return { kind: 'claimed', session: next };
    }
    throw sessionUsed();
  }

  /** Gives a claim back after its creation failed, so the person can try again. */
  async release(claimed: SessionRecord): Promise<void> {
    await this.#change(claimed.id, (s) =>
      s.claim?.key === claimed.claim?.key && !s.tokenOnboarding ? { ...s, claim: undefined } : null,
    ).catch((error: unknown) => {
      this.#o.logger.warn('session claim not released; it lapses by itself', { sessionId: claimed.id, error });
    });
  }

  /** The claimed creation succeeded: `submitted` (the claim keeps the body's `fingerprint`, telling a replay from another body), the backend told. */
  async submitted(claimed: SessionRecord, onboarding: OnboardingRecord, fingerprint: string, page: SubmittedByPage = {}): Promise<void> {
    const at = new Date(this.now()).toISOString();
    const { reading, integrity } = page;
    const changed = await this.#change(claimed.id, (s) =>
      s.claim?.key === claimed.claim?.key && !s.tokenOnboarding
        ? withEvent(
            {
              ...withPageIntegrity(withSubmittedChecks(s, at, reading), integrity, at),
              status: 'submitted',
              tokenOnboarding: onboarding.tokenOnboarding,
              claim: { ...s.claim!, fingerprint },
              ...(onboarding.keptAnyway && { keptAnyway: onboarding.keptAnyway }),
            },
            { type: 'session.submitted', tokenOnboarding: onboarding.tokenOnboarding },
            at,
          )
        : null,
    );
    if (!changed) {
      this.#o.logger.error('onboarding created but its session was taken meanwhile', {
        sessionId: claimed.id,
        tokenOnboarding: onboarding.tokenOnboarding,
      });
      return;
    }
    await this.#notify('session.submitted', changed, onboarding);
    // An outcome that arrived before the session said submitted (a very fast webhook) is applied now.
    if (isTerminalStatus(onboarding.status)) await this.onboardingChanged(onboarding);
  }

  /** Every status change of an onboarding: a terminal one completes its session, which keeps its report's `services`. */
  async onboardingChanged(record: OnboardingRecord, report?: ReportExtras): Promise<void> {
    if (!record.sessionId || !isTerminalStatus(record.status)) return;
    const at = record.finishedAt ?? record.updatedAt;
    const services = (report ?? (await completionReport(record, this.#o)))?.services ?? undefined;
    const changed = await this.#change(record.sessionId, (s) => {
      if (s.tokenOnboarding !== record.tokenOnboarding || s.status !== 'submitted') return null;
      const completed = withEvent(
        {
          ...s,
          status: 'completed',
          outcome: { status: record.status, ...(record.externalId && { externalId: record.externalId }), at },
          ...(services !== undefined && { reportServices: services }),
          endedAt: new Date(this.now()).toISOString(),
        },
        {
          type: 'session.completed',
          tokenOnboarding: record.tokenOnboarding,
          status: record.status as 'APPROVED' | 'REFUSED' | 'ERROR',
          ...(record.externalId && { externalId: record.externalId }),
        },
        new Date(this.now()).toISOString(),
      );
      // An outcome landing after a redaction keeps only what a redaction keeps.
      return s.redactedAt ? redactedSession(completed, s.redactedAt) : completed;
    });
    if (changed) {
      // What the upstream sent after a redaction is erased as it lands.
      if (changed.redactedAt) await this.#o.store.redactOnboarding(record.tokenOnboarding, redactedOnboarding);
      this.#o.logger.info('session completed', { sessionId: changed.id, status: record.status });
      await this.#notify('session.completed', changed, record);
    }
  }

  /** Tells the backend a session's checks are all final (once per session, whoever calls). */
  async notifyChecksCompleted(session: SessionRecord): Promise<void> {
    await this.#notify(
      'session.checks_completed',
      session,
      session.tokenOnboarding ? await this.#o.store.get(session.tokenOnboarding) : null,
    );
  }

  /** Starts the periodic sweep (expiry, reconciliation, retention). */
  start(): void {
    if (this.#closed || this.#timer) return;
    const tick = () => {
      this.#timer = undefined;
      if (this.#closed) return;
      this.#sweeping = this.sweep()
        .catch((error: unknown) => this.#o.logger.warn('session sweep failed; retrying at the next one', { error }))
        .finally(() => {
          this.#sweeping = undefined;
          if (!this.#closed) this.#timer = this.#o.timers.setTimeout(tick, this.#o.sweepEveryMs);
        });
    };
    this.#timer = this.#o.timers.setTimeout(tick, Math.min(1_000, this.#o.sweepEveryMs));
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#o.timers.clearTimeout(this.#timer);
    await this.#sweeping;
  }

  /**
   * One pass: open sessions past their time become `expired` (and the backend is told) even when
   * no request touches them; submitted ones whose onboarding finished while no hook saw it (a
   * crash between the two) are completed; old state is purged.
   */
  async sweep(): Promise<void> {
    const { store } = this.#o;
    const now = this.now();
    const due = await store.listSessionsByStatus('open', { limit: 200, expiresBefore: new Date(now) });
    for (const s of due) await this.expireIfDue(s);
    const submitted = await store.listSessionsByStatus('submitted', { limit: 200 });
    for (const s of submitted) {
      const onboarding = s.tokenOnboarding ? await store.get(s.tokenOnboarding) : null;
      if (onboarding && isTerminalStatus(onboarding.status)) await this.onboardingChanged(onboarding);
    }
    if (now >= this.#nextPurge) {
      this.#nextPurge = now + PURGE_EVERY_MS;
      const purged = await store.purgeBackendState({
        sessionsEndedBefore: new Date(now - this.#o.retentionMs),
        sessionsCreatedBefore: new Date(now - SESSION_MAX_AGE_MS),
        // A delivered event is the backend's now; a given-up one has been logged and could be replayed for a day.
        outboxBefore: new Date(now - this.#o.retentionMs),
      });
      if (purged > 0) this.#o.logger.info('retention: sessions and settled notifications deleted', { count: purged });
    }
  }

  /** An open session past its time becomes `expired` (the backend told), unless a creation under way that started before the end may still succeed. */
  async expireIfDue(s: SessionRecord): Promise<void> {
    if (claimLive(s, this.now(), this.#o.claimTimeoutMs)) return;
    const changed = await this.#change(s.id, (c) => {
      if (c.status !== 'open' || c.tokenOnboarding || effectiveStatus(c, this.now()) !== 'expired') return null;
      const at = new Date(this.now()).toISOString();
      return withEvent({ ...c, status: 'expired', claim: undefined, endedAt: at }, { type: 'session.expired' }, at);
    });
    if (changed) {
      this.#o.logger.info('session expired', { sessionId: changed.id });
      await this.#notify('session.expired', changed, null);
    }
  }

  /** How long a creation's claim blocks the session (a hand-off claim must not take it meanwhile). */
  get claimTimeoutMs(): number {
    return this.#o.claimTimeoutMs;
  }

  async #view(session: SessionRecord, onboarding?: OnboardingRecord | null): Promise<SessionView> {
    const record =
      onboarding !== undefined ? onboarding : session.tokenOnboarding ? await this.#o.store.get(session.tokenOnboarding) : null;
    return toSessionView(session, record, this.now());
  }

  /** Applies `change` by compare-and-set, re-reading on a lost race; the new record, or null when `change` declined. */
  async #change(id: string, change: (s: SessionRecord) => SessionRecord | null): Promise<SessionRecord | null> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const current = await this.#o.store.getSession(id);
      if (!current) return null;
      const proposed = change(current);
      if (!proposed) return null;
      const next: SessionRecord = { ...proposed, version: current.version + 1 };
      if (next.claim === undefined) delete next.claim;
      if (await this.#o.store.replaceSession(next, current.version)) return next;
    }
    throw new Error(`session ${id}: too many concurrent changes`);
  }

  async #notify(type: SessionNotificationType, session: SessionRecord, onboarding: OnboardingRecord | null): Promise<void> {
    const { notifier } = this.#o;
    if (!notifier) return;
    const data = await this.#view(session, onboarding);
    try {
      // A repeat (two instances, a sweep after a hook) queues nothing: one id per session and type.
      await notifier.notify({ id: sessionEventId(session.id, type), type, orderKey: session.id, data });
    } catch (error) {
      this.#o.logger.error('notification not queued', { sessionId: session.id, type, error });
    }
  }

  async #reissue(session: SessionRecord, origin: string): Promise<CreateSessionResponse> {
    const secrets = newSecrets(session.id);
    const { store } = this.#o;
    if (
      !(await store.addSessionSecret(session.id, 'client', hashSecret(secrets.clientSecret))) ||
      !(await store.addSessionSecret(session.id, 'capture', hashSecret(secrets.captureToken)))
    ) {
      throw idempotencyConflict();
    }
    return sessionResponse(this.publicBase(origin), this.now(), session, secrets);
  }
}
