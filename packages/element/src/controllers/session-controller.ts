/**
 * The session of `<onboarding-flow session="...">` as a Lit reactive controller: reads
 * `GET /session` with the client secret before the flow can start, and tells the host whether
 * the session is loading, usable, or why it is not. The client secret is read from the flow's
 * context for each request and kept nowhere else: never in an event, an error, the DOM or a render.
 */
import type { PageSession } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import { CompanionError, getSession } from '../api/index.js';
import { OnboardingErrorEvent } from '../events.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import { LatestRun } from './latest-run.js';

/**
 * Why a session cannot be used: `invalid` (the companion knows no session for this secret),
 * `expired`, `used` (it already produced an onboarding), `unavailable` (it could not be read:
 * network trouble, a server error; worth trying again), `handedOff` (this device was handed
 * the session, and the page that opened it took it back), or `cancelled` (the service provider
 * cancelled it).
 */
export type SessionProblem = 'invalid' | 'expired' | 'used' | 'unavailable' | 'handedOff' | 'cancelled';

/** `none`: no session attribute, the flow works as without sessions. */
export type SessionState = 'none' | 'loading' | 'ready' | 'failed';

/** The `onboarding-error` code of each problem. */
const SESSION_ERROR_CODES: Record<SessionProblem, string> = {
  invalid: 'session_invalid',
  expired: 'session_expired',
  used: 'session_used',
  unavailable: 'session_unavailable',
  handedOff: 'session_handed_off',
  cancelled: 'session_cancelled',
};

export interface SessionOptions {
  /** The flow's settings as resolved: the client secret the integrator set (or ''), the endpoint, the messages. */
  context: FlowContextSource;
  /** The session became usable. */
  loaded(session: PageSession): void;
  /**
   * True while the page waits for an onboarding the session already produced (after a reload):
   * the session being used then is no news, and no `onboarding-error` is fired for it.
   */
  quiet?(): boolean;
  /** The session cannot be used, and someone waiting on the flow is to be told (not while quiet). */
  failed?(): void;
}

export function sessionProblem(error: CompanionError): SessionProblem {
  if (error.code === 'session_handed_off') return 'handedOff';
  if (error.code === 'session_cancelled') return 'cancelled';
  if (error.status === 401 || error.status === 403 || error.status === 404) return 'invalid';
  if (error.status === 410 || error.code === 'session_expired') return 'expired';
  if (error.status === 409 || error.code === 'session_used') return 'used';
  return 'unavailable';
}

/**
 * What a session read successfully says about its use: null when it can start a flow, or when
 * this page opened it and another device holds it (the page follows that device, sent or not).
 */
export function problemOfSession(session: PageSession, nowMs: number): SessionProblem | null {
  if (session.status === 'expired') return 'expired';
  if (session.status === 'cancelled') return 'cancelled';
  if (session.handoff?.state === 'claimed' && !session.handoff.holder) return null;
  if (session.status !== 'open') return 'used';
  // The companion sweeps expired sessions on its own schedule; the clock here already knows.
  const expires = Date.parse(session.expiresAt);
  return Number.isFinite(expires) && expires <= nowMs ? 'expired' : null;
}

export class SessionController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: SessionOptions;
  readonly #run = new LatestRun();
  #state: SessionState = 'none';
  #session: PageSession | null = null;
  #problem: SessionProblem | null = null;
  /** The endpoint and secret the state above belongs to (private memory, as the host's own property is). */
  #loadedFor: string | null = null;

  constructor(host: ReactiveElement, options: SessionOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get state(): SessionState {
    return this.#state;
  }
  /** The session, once it is usable. */
  get session(): PageSession | null {
    return this.#state === 'ready' ? this.#session : null;
  }
  /** The session as last read, usable or not: a spent session's outcome still names it (its support code, its way back). */
  get lastRead(): PageSession | null {
    return this.#session;
  }
  get problem(): SessionProblem | null {
    return this.#problem;
  }
  /** The secret to bind a creation to, when a usable session is held. */
  get secret(): string | null {
    return this.#state === 'ready' ? this.#options.context.current.secret || null : null;
  }

  /** Whether the session keeps the flow from starting: being read, or unusable. */
  get blocks(): boolean {
    return this.#state === 'loading' || this.#state === 'failed';
  }

  /** The document types offered, comma-separated: the session's when it names some, else `fallback`. */
  documentTypes(fallback: string): string {
    const types = this.session?.documentTypes ?? [];
    return types.length > 0 ? types.join(',') : fallback;
  }

  /** Whether the secret or the endpoint changed since the session was last read. */
  get stale(): boolean {
    return this.#key() !== this.#loadedFor;
  }

  hostConnected(): void {
    // Back in the document after a read was cut short: read again.
    if (this.#state === 'loading' && !this.#run.running) void this.load();
  }

  hostDisconnected(): void {
    this.#run.cancel();
  }

  /** Reads the session again (or forgets it when the secret was removed). */
  async load(): Promise<void> {
    const { secret, endpoint } = this.#options.context.current;
    this.#loadedFor = this.#key();
    this.#run.cancel();
    this.#session = null;
    this.#problem = null;
    if (!secret) {
      this.#state = 'none';
      this.#host.requestUpdate();
      return;
    }
    this.#state = 'loading';
    this.#host.requestUpdate();
    const signal = this.#run.begin();
    try {
      const session = await getSession(endpoint, secret, signal);
      if (!this.#run.isCurrent(signal)) return;
      const problem = problemOfSession(session, Date.now());
      this.#session = session;
      if (problem) return this.#fail(problem);
      this.#state = 'ready';
      this.#host.requestUpdate();
      this.#options.loaded(session);
    } catch (error) {
      if (!this.#run.isCurrent(signal)) return;
      this.#fail(error instanceof CompanionError ? sessionProblem(error) : 'unavailable');
    } finally {
      this.#run.end(signal);
    }
  }

  /** The session as the companion answered it again (a take-back), without reading it anew. */
  replace(session: PageSession): void {
    this.#session = session;
    this.#host.requestUpdate();
  }

  /** The session can no longer be used here (a device that lost it): says so as a failed read does. */
  fail(problem: SessionProblem): void {
    if (this.#state === 'failed') return;
    this.#run.cancel();
    this.#fail(problem);
  }

  #fail(problem: SessionProblem): void {
    this.#state = 'failed';
    this.#problem = problem;
    this.#host.requestUpdate();
    if (this.#options.quiet?.()) return;
    this.#host.dispatchEvent(
      new OnboardingErrorEvent({ code: SESSION_ERROR_CODES[problem], message: this.#options.context.current.messages.session[problem] }),
    );
    this.#options.failed?.();
  }

  #key(): string | null {
    const { secret, endpoint } = this.#options.context.current;
    return secret ? `${endpoint}\n${secret}` : null;
  }
}
