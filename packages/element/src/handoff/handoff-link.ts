/**
 * The computer's side of the hand-off (docs/page-api.md#hand-off), without DOM: it asks the
 * companion for a link, counts down its lapse, follows the session's events (the phone connected,
 * where the person is and which photos are taken, the sending, the outcome) and takes the session
 * back on request. The hand-off panel shows its state and passes on what it reports. Part of the
 * lazily loaded hand-off file.
 */
import {
  formatHandoffCode,
  type HandoffAnswers,
  type HandoffOffer,
  type HandoffOfferRequest,
  type HandoffRole,
  type PageSession,
  type SessionEvent,
} from '@onboarding-kit/contract';
import { postSession } from '../api/companion-client.js';
import { CompanionError } from '../api/errors.js';
import type { HandoffOutcome, HandoffReport } from './panel-events.js';
import { SETTLE_MS, followSessionEvents } from './session-events.js';
import type { HandoffTexts } from './texts.js';

/**
 * `pending`: a link is out; `creating`, `failed`: asking for one; `expired`: it lapsed unused;
 * `claimed`: a phone holds the session; `submitted`: the phone sent it.
 */
export type HandoffPhase = 'creating' | 'failed' | 'pending' | 'expired' | 'claimed' | 'submitted' | 'reclaimed';

export interface HandoffLinkOptions {
  /** The companion's base URL, normalised (`.../v1`). */
  endpoint(): string;
  /** The page secret, read for each request. */
  secret(): string;
  /** What the person answered here, sent in the offer's body (never in the link): the phone resumes with them. */
  answers(): HandoffAnswers | null;
  texts(): HandoffTexts;
  /** What changed is to be shown. */
  changed(): void;
  /** What the flow is to act on. */
  report(report: HandoffReport): void;
}

function isOffer(value: unknown): value is HandoffOffer {
  const v = value as HandoffOffer | null;
  return (
    !!v && typeof v.url === 'string' && typeof v.shortUrl === 'string' && typeof v.code === 'string' && typeof v.expiresAt === 'string'
  );
}

export class HandoffLink {
  phase: HandoffPhase = 'creating';
  offer: HandoffOffer | null = null;
  /** The clock of the countdown, advanced each second while a link is out. */
  now = Date.now();
  progress: { step: string; photos: HandoffRole[] } | null = null;
  /** The companion is out of reach. */
  offline = false;
  error: string | null = null;
  /** A take-back is under way. */
  busy = false;

  readonly #options: HandoffLinkOptions;
  #run: AbortController | null = null;
  #tick: ReturnType<typeof setInterval> | undefined;
  #settle: ReturnType<typeof setTimeout> | undefined;
  /** Whether this offer's own `handoff.created` was seen: what the stream said before it is history. */
  #armed = false;
  /** Events that came before this offer's own `handoff.created` was seen. */
  #backlog: SessionEvent[] = [];
  /** What the flow was last told: the phase, the progress, whether the companion was out of reach. */
  #told: { phase: HandoffPhase; step: string | null; photos: HandoffRole[] } = { phase: 'creating', step: null, photos: [] };
  #submittedToken: string | null = null;
  #outcome: HandoffOutcome | null = null;
  #ended = false;

  constructor(options: HandoffLinkOptions) {
    this.#options = options;
  }

  /** The code as the person types it, while a link is out. */
  get code(): string {
    return this.offer ? formatHandoffCode(this.offer.code) : '';
  }

  /** Follows the session (`follow`: a phone holds it already, as a reload found) and, to offer, asks for a link. */
  start(mode: 'offer' | 'follow'): void {
    this.#run = new AbortController();
    const signal = this.#run.signal;
    if (mode === 'follow') {
      this.#armed = true;
      this.phase = 'claimed';
      this.#told = { phase: 'claimed', step: null, photos: [] };
      // A reload that found the phone holding the session: the page learns where things stand.
      this.#report({ kind: 'state', state: 'claimed' });
    }
    void followSessionEvents(
      this.#options.endpoint(),
      () => this.#options.secret(),
      {
        event: (event) => this.#receive(event),
        reachable: (reachable) => {
          if (this.offline === !reachable) return;
          this.offline = !reachable;
          this.#options.changed();
          if (!reachable) this.#announce(this.#options.texts().offline);
        },
        ended: (code) => {
          if (code === 'session_expired' || code === 'session_cancelled') this.#end();
        },
      },
      signal,
    );
    if (mode === 'offer' && !this.offer) void this.makeOffer();
    else if (this.phase === 'pending') this.#startTick();
  }

  stop(): void {
    this.#run?.abort();
    this.#run = null;
    clearInterval(this.#tick);
    clearTimeout(this.#settle);
    this.#settle = undefined;
  }

  async makeOffer(): Promise<void> {
    const t = this.#options.texts();
    const signal = this.#run?.signal;
    this.phase = 'creating';
    this.offer = null;
    this.error = null;
    this.#armed = false;
    this.#backlog = [];
    clearInterval(this.#tick);
    this.#options.changed();
    try {
      const answers = this.#options.answers();
      const body: HandoffOfferRequest | undefined = answers ? { answers } : undefined;
      const offer = await postSession(this.#options.endpoint(), 'handoff', this.#options.secret(), body, signal);
      if (signal?.aborted) return;
      if (!isOffer(offer))
        throw new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: 201 });
      this.offer = offer;
      this.now = Date.now();
      this.phase = 'pending';
      this.#told.phase = 'pending';
      this.#options.changed();
      this.#report({ kind: 'state', state: 'offered' });
      this.#announce(t.offered);
      this.#startTick();
      this.#arm();
    } catch (error) {
      if (signal?.aborted) return;
      const code = error instanceof CompanionError ? error.code : '';
      if (code === 'session_handed_off') {
        // A phone claimed the earlier code meanwhile: follow it.
        this.#armed = true;
        this.#apply({ type: 'handoff.claimed' });
        return;
      }
      if (code === 'session_expired' || code === 'session_cancelled') return this.#end();
      this.phase = 'failed';
      this.error = code === 'session_used' ? t.sent : t.offerFailed;
      this.#options.changed();
      this.#announce(this.error);
    }
  }

  async takeBack(): Promise<void> {
    const t = this.#options.texts();
    this.busy = true;
    this.error = null;
    this.#options.changed();
    try {
      const session = await postSession(this.#options.endpoint(), 'handoff/reclaim', this.#options.secret(), undefined, this.#run?.signal);
      // What is still to be told (a claim a moment ago) goes out before the take-back.
      if (this.#settle) this.#tell();
      this.#run?.abort();
      this.#report({ kind: 'state', state: 'reclaimed' });
      this.#report({
        kind: 'back',
        session: session && typeof session === 'object' && 'handoff' in session ? (session as PageSession) : null,
      });
    } catch (error) {
      if (this.#run?.signal.aborted) return;
      this.busy = false;
      this.error = error instanceof CompanionError && error.code === 'session_used' ? t.sent : t.takeBackFailed;
      this.#options.changed();
      this.#announce(this.error);
    }
  }

  #report(report: HandoffReport): void {
    this.#options.report(report);
  }

  #announce(text: string): void {
    this.#report({ kind: 'announce', text });
  }

  #startTick(): void {
    clearInterval(this.#tick);
    this.#tick = setInterval(() => {
      this.now = Date.now();
      this.#options.changed();
      if (this.phase === 'pending' && this.offer && Date.parse(this.offer.expiresAt) <= this.now) this.#apply({ type: 'handoff.expired' });
      if (this.phase !== 'pending') clearInterval(this.#tick);
    }, 1000);
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#run?.abort();
    this.#report({ kind: 'ended' });
  }

  #receive(event: SessionEvent): void {
    if (this.#armed) return this.#apply(event);
    this.#backlog.push(event);
    this.#arm();
  }

  /** Once this offer's own `handoff.created` is among the events, what came after it applies. */
  #arm(): void {
    const expiresAt = this.offer?.expiresAt;
    if (this.#armed || !expiresAt) return;
    let at = -1;
    this.#backlog.forEach((e, i) => {
      if (e.type === 'handoff.created' && e.expiresAt === expiresAt) at = i;
    });
    if (at < 0) return;
    const after = this.#backlog.slice(at + 1);
    this.#armed = true;
    this.#backlog = [];
    for (const event of after) this.#apply(event);
  }

  #apply(event: SessionEvent): void {
    switch (event.type) {
      case 'handoff.claimed':
        this.phase = 'claimed';
        this.progress = null;
        this.offer = null;
        this.error = null;
        break;
      case 'handoff.expired':
        if (this.phase !== 'pending') return;
        this.phase = 'expired';
        break;
      case 'handoff.reclaimed':
        if (this.busy) return;
        this.phase = 'reclaimed';
        this.progress = null;
        break;
      case 'capture.progress':
        this.progress = { step: event.step, photos: event.photos };
        break;
      case 'session.submitted':
        this.phase = 'submitted';
        this.#submittedToken = event.tokenOnboarding;
        break;
      case 'session.completed':
        this.#outcome = {
          tokenOnboarding: event.tokenOnboarding,
          status: event.status,
          ...(event.externalId && { externalId: event.externalId }),
        };
        break;
      case 'session.expired':
      case 'session.cancelled':
        return this.#end();
      default:
        return;
    }
    this.#options.changed();
    // A lapse seen by the clock is told at once; the rest once a burst of events has settled.
    if (event.type === 'handoff.expired') return this.#tell();
    this.#settle ??= setTimeout(() => this.#tell(), SETTLE_MS);
  }

  /** Tells the flow (and the person) what changed since it was last told. */
  #tell(): void {
    clearTimeout(this.#settle);
    this.#settle = undefined;
    if (!this.#run || this.#run.signal.aborted) return;
    const t = this.#options.texts();
    const told = this.#told;
    if (this.#outcome) {
      this.#run.abort();
      // Sent and decided within one burst: the sending is told first all the same.
      if (told.phase !== 'submitted' && this.#submittedToken) this.#report({ kind: 'submitted', tokenOnboarding: this.#submittedToken });
      return this.#report({ kind: 'completed', outcome: this.#outcome });
    }
    const phase = this.phase;
    const said: string[] = [];
    if (phase !== told.phase) {
      if (phase === 'claimed' && told.phase !== 'submitted') {
        this.#report({ kind: 'state', state: 'claimed' });
        said.push(t.claimed);
      } else if (phase === 'expired') {
        this.#report({ kind: 'state', state: 'expired' });
        said.push(t.expired);
      } else if (phase === 'reclaimed') {
        this.#run.abort();
        this.#report({ kind: 'state', state: 'reclaimed' });
        return this.#report({ kind: 'back', session: null });
      } else if (phase === 'submitted') {
        if (told.phase !== 'claimed') this.#report({ kind: 'state', state: 'claimed' });
        if (this.#submittedToken) this.#report({ kind: 'submitted', tokenOnboarding: this.#submittedToken });
        said.push(t.submitted);
      }
    }
    const progress = this.progress;
    if (progress && phase === 'claimed') {
      const taken = progress.photos.filter((role) => !told.photos.includes(role));
      if (taken.length > 0) said.push(...taken.map((role) => t.photoTaken(t.photos[role])));
      else if (progress.step !== told.step && t.steps[progress.step]) said.push(t.at(t.steps[progress.step]!));
    }
    this.#told = { phase, step: progress?.step ?? null, photos: progress?.photos ?? [] };
    if (said.length > 0) this.#announce(said.join(' '));
  }
}
