/**
 * The backend's hold on a session's life (docs/backend-api.md#sessions): cancel an open session,
 * erase a session's personal data (an integrator's answer to a person's LGPD deletion request),
 * and list sessions page by page. Each change goes through the session service's compare-and-set,
 * and each one that matters queues its notification, one per session and type.
 */
import type { SessionList, SessionView } from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';
import type { Logger } from '../logger.js';
import type { SessionRecord } from '../store/backend-state.js';
import { redactedEventBody, redactedOnboarding, redactedSession } from '../store/rules/redaction.js';
import { positionOf } from '../store/rules/session-list.js';
import type { SessionQuery } from '../store/backend-state.js';
import {
  cancelledSession,
  decideCancel,
  SESSION_NOTIFICATION_TYPES,
  sessionEventId,
  type SessionNotificationType,
} from './lifecycle-rules.js';
import { encodeCursor } from './list-rules.js';
import type { SessionNotifier, SessionService } from './session-service.js';
import { sessionUsed } from './session-refusals.js';
import { effectiveStatus } from './session-view.js';

export interface LifecycleServiceOptions {
  sessions: SessionService;
  logger: Logger;
  notifier?: SessionNotifier;
}

const SESSION_ID = /^ses_[0-9a-f]{32}$/;
const noSuchSession = () => new DomainError('not_found', 'No such session.');
const creationUnderWay = () =>
  new DomainError(
    'session_used',
    'An onboarding is being created in this session: its outcome decides the session. Ask again in a minute.',
  );

export class LifecycleService {
  constructor(private readonly o: LifecycleServiceOptions) {}

  /** `POST /v1/sessions/{id}/cancel`: the open session becomes `cancelled`; a cancelled one is answered as it is. */
  async cancel(id: string): Promise<SessionView> {
    await this.#found(id);
    const { sessions } = this.o;
    let refusal: DomainError | undefined;
    const changed = await sessions.change(id, (s) => {
      const decision = decideCancel(s, effectiveStatus(s, sessions.now()), sessions.now(), sessions.claimTimeoutMs);
      if (decision.kind === 'refused') refusal = decision.reason === 'creating' ? creationUnderWay() : sessionUsed();
      return decision.kind === 'cancel' ? cancelledSession(s, this.#at()) : null;
    });
    if (refusal) throw refusal;
    if (changed) {
      this.o.logger.info('session cancelled', { sessionId: id });
      await this.#notify('session.cancelled', id);
    }
    return this.#view(id);
  }

  /**
   * `POST /v1/sessions/{id}/redact`: an open session is cancelled first; then the session keeps
   * its skeleton (rules/redaction.ts), its onboarding's record and notifications lose their
   * personal parts, and no page secret, hand-off link or access key opens it any more. Every step
   * runs again on a repeat, so a redaction cut short is finished by the next; the notification
   * goes once.
   */
  async redact(id: string): Promise<SessionView> {
    const found = await this.#found(id);
    const { sessions } = this.o;
    const { store } = sessions;
    if (decideCancel(found, effectiveStatus(found, sessions.now()), sessions.now(), sessions.claimTimeoutMs).kind === 'cancel')
      await this.cancel(id).catch((error: unknown) => {
        // A creation that took the session meanwhile decides it: the redaction goes on regardless.
        if (!(error instanceof DomainError && error.code === 'session_used')) throw error;
      });
    const at = this.#at();
    const redacted = await sessions.change(id, (s) => {
      const skeleton = redactedSession(s, at);
      return JSON.stringify(skeleton) === JSON.stringify(s) ? null : skeleton;
    });
    const session = redacted ?? (await store.getSession(id));
    if (!session?.redactedAt) throw noSuchSession();
    const redactedAt = session.redactedAt;
    if (session.tokenOnboarding) await store.redactOnboarding(session.tokenOnboarding, redactedOnboarding);
    for (const type of SESSION_NOTIFICATION_TYPES)
      await store.redactNotification(sessionEventId(id, type), (entry) => redactedEventBody(entry, redactedAt));
    await store.revokeSessionAccess(id);
    if (redacted) this.o.logger.info('session redacted', { sessionId: id });
    await this.#notify('session.redacted', id);
    return this.#view(id);
  }

  /** `GET /v1/sessions`: a page of `query` (which asks for one more than `limit`) and the cursor of the next. */
  async list(query: SessionQuery, limit: number): Promise<SessionList> {
    const { sessions } = this.o;
    const found = await sessions.store.listSessions(query);
    const page = found.slice(0, limit);
    const views = await Promise.all(page.map((s) => sessions.view(s.id)));
    // A session changed or deleted since it was listed is shown as it is now, or not at all.
    const data = views.filter((v): v is SessionView => v !== null && (query.status === undefined || v.status === query.status));
    return { data, nextCursor: found.length > limit ? encodeCursor(positionOf(page[page.length - 1]!)) : null };
  }

  async #found(id: string): Promise<SessionRecord> {
    const session = SESSION_ID.test(id) ? await this.o.sessions.store.getSession(id) : null;
    if (!session) throw noSuchSession();
    return session;
  }

  async #view(id: string): Promise<SessionView> {
    const view = await this.o.sessions.view(id);
    if (!view) throw noSuchSession();
    return view;
  }

  #at(): string {
    return new Date(this.o.sessions.now()).toISOString();
  }

  async #notify(type: SessionNotificationType, id: string): Promise<void> {
    const { notifier } = this.o;
    if (!notifier) return;
    const data = await this.o.sessions.view(id);
    if (!data) return;
    try {
      await notifier.notify({ id: sessionEventId(id, type), type, orderKey: id, data });
    } catch (error) {
      this.o.logger.error('notification not queued', { sessionId: id, type, error });
    }
  }
}
