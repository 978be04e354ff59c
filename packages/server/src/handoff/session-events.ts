/**
 * A session's event stream (`GET /v1/session/events`, docs/page-api.md#hand-off): the session's
 * log after the page's `Last-Event-ID` (all of it on a first connection, so a reloaded page finds
 * the current state), then each new entry as the store tells of a change, from whichever instance
 * made it. Ends once the session is completed, expired or cancelled, or when this device no longer holds it.
 * A pending link, or the session itself, lapsing while watched is marked here (once, whichever
 * instance's stream comes first), so both pages hear of it.
 */
import type { Timers, TimerHandle } from '../relay/timers.js';
import type { SessionRecord } from '../store/backend-state.js';
import { EventStream, type EventStreamDeps } from '../transport/index.js';
import type { SessionService } from '../sessions/session-service.js';
import { stillValid, type PageCaller } from './handoff-rules.js';
import type { HandoffService } from './handoff-service.js';

export interface SessionEventDeps extends EventStreamDeps {
  sessions: SessionService;
  handoff: HandoffService;
  timers: Timers;
}

export class SessionEvents extends EventStream<SessionEventDeps> {
  private unsubscribe: (() => void) | undefined;
  private due: TimerHandle | undefined;

  constructor(
    private readonly caller: PageCaller,
    /** The last entry the page has (its sequence number). */
    private sent: number,
    deps: SessionEventDeps,
    requestId: string,
  ) {
    super(deps, requestId);
  }

  protected get failureMessage(): string {
    return 'session event stream ended with an error';
  }

  protected open(): void {
    this.unsubscribe = this.deps.sessions.store.subscribeSession(this.caller.session.id, () => this.poke());
  }

  protected release(): void {
    this.deps.timers.clearTimeout(this.due);
    this.due = undefined;
    this.unsubscribe?.();
  }

  protected async send(): Promise<boolean> {
    const { sessions, handoff, timers } = this.deps;
    const id = this.caller.session.id;
    const session = await sessions.store.getSession(id);
    if (!session) return true;
    for (const entry of session.events ?? []) {
      if (entry.seq <= this.sent) continue;
      this.write(`event: ${entry.event.type}\ndata: ${JSON.stringify(entry.event)}\nid: ${entry.seq}\n\n`);
      this.sent = entry.seq;
    }
    if (
      session.status === 'completed' ||
      session.status === 'expired' ||
      session.status === 'cancelled' ||
      !stillValid(session, this.caller)
    )
      return true;
    timers.clearTimeout(this.due);
    this.due = scheduleLapse(session, sessions.now(), timers, () => {
      void Promise.all([handoff.expireOfferIfDue(id), sessions.expireIfDue(session)]).catch(() => this.poke());
    });
    return false;
  }
}

/** A timer for the next moment the session changes by itself (a pending link or the session lapsing). */
function scheduleLapse(session: SessionRecord, nowMs: number, timers: Timers, fn: () => void): TimerHandle | undefined {
  const moments: number[] = [];
  const offer = session.handoff?.offer;
  if (offer?.state === 'pending') moments.push(Date.parse(offer.expiresAt));
  if (session.status === 'open') moments.push(Date.parse(session.expiresAt));
  if (moments.length === 0) return undefined;
  // Already due but not marked: at once. A failure (store down) pokes the loop, which schedules again.
  const at = Math.min(...moments);
  return timers.setTimeout(fn, Math.max(0, at - nowMs));
}
