/**
 * The hand-off panel: the computer hands its session to a phone and follows it there
 * (docs/page-api.md#hand-off). It asks the companion for a link and shows it as a QR code (drawn
 * here, by uqr, as an SVG: nothing leaves the page to draw it) and as a short code to type at the
 * short address, with a countdown and a new code on request or once it lapses; then it follows
 * the session's events: the phone connected, where the person is and which photos are taken, the
 * sending, and the outcome, which the flow then shows as its own. "Back to this computer" takes
 * the session back.
 *
 * Loaded lazily (onboarding-flow.handoff.js beside the script) when the person asks for the
 * hand-off, or when a reload finds a phone holding the session. The element's Lit is handed in
 * (`defineHandoffPanel`), so the file carries no second copy of it. The page secret is read
 * through the host for each request and is never rendered.
 */
import type { LitElement, PropertyValues, TemplateResult, css as litCss, html as litHtml, nothing as litNothing, svg as litSvg } from 'lit';
import { encode } from 'uqr';
import {
  HANDOFF_PROGRESS_STEPS,
  formatHandoffCode,
  type HandoffOffer,
  type HandoffRole,
  type PageSession,
  type SessionEvent,
  type SessionProgressReport,
} from '@onboarding-kit/contract';
import { postSession } from '../api/companion-client.js';
import { CompanionError } from '../api/errors.js';
import type { OnboardingLocale } from '../messages/index.js';
import { handoffPanelStyles } from './handoff-panel.styles.js';
import { followSessionEvents } from './session-events.js';
import { handoffTexts } from './texts.js';

export { handoffTexts, type HandoffTexts } from './texts.js';

/** How long a copy may wait for the clipboard before the person is told to type the code instead. */
const COPY_WAIT_MS = 3000;

/** What the panel takes from the element's own Lit. */
export interface HandoffLitKit {
  LitElement: typeof LitElement;
  html: typeof litHtml;
  svg: typeof litSvg;
  css: typeof litCss;
  nothing: typeof litNothing;
}

export const HANDOFF_PANEL_TAG = 'onboarding-handoff-panel';

/** What the `onboarding-handoff` event says. */
export type HandoffState = 'offered' | 'claimed' | 'reclaimed' | 'expired';

export interface HandoffOutcome {
  tokenOnboarding: string;
  status: 'APPROVED' | 'REFUSED' | 'ERROR';
  externalId?: string;
}

/** The flow, as the panel reaches it. */
export interface HandoffPanelHost {
  /** The page secret, read for each request. */
  secret(): string;
  state(state: HandoffState): void;
  /** Says `text` in the flow's live region. */
  announce(text: string): void;
  /** The phone sent the onboarding. */
  submitted(tokenOnboarding: string): void;
  /** Its final status arrived. */
  completed(outcome: HandoffOutcome): void;
  /** The session is this computer's again: the take-back's answer, or null when another of its pages took it back. */
  back(session: PageSession | null): void;
  /** The session expired. */
  ended(): void;
}

export interface HandoffPanelProps {
  /** `offer`: ask for a link and show it; `follow`: a phone holds the session already (a reload). */
  mode: 'offer' | 'follow';
  /** The companion's base URL, normalised (`.../v1`). */
  endpoint: string;
  locale: OnboardingLocale;
  /** No camera was found here: the panel says why the phone. */
  noCamera: boolean;
  host: HandoffPanelHost;
}

/**
 * `pending`: a link is out; `creating`, `failed`: asking for one; `expired`: it lapsed unused;
 * `claimed`: a phone holds the session; `submitted`: the phone sent it.
 */
type Phase = 'creating' | 'failed' | 'pending' | 'expired' | 'claimed' | 'submitted' | 'reclaimed';

/** The QR code of `text` as one SVG path of its dark modules (each row's runs), `size` modules a side. */
export function qrPath(text: string): { size: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  let path = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      path += `M${start} ${y}h${x - start}v1h${start - x}z`;
    }
  }
  return { size, path };
}

/** Modules of light margin around the code, as the QR standard asks. */
const QUIET_ZONE = 4;
/** How long a burst of events (a replay on connection) is gathered before the page reacts to where it ends. */
const SETTLE_MS = 200;

function isOffer(value: unknown): value is HandoffOffer {
  const v = value as HandoffOffer | null;
  return !!v && typeof v.url === 'string' && typeof v.shortUrl === 'string' && typeof v.code === 'string' && typeof v.expiresAt === 'string';
}

/** An address as a person types it: `https://` is what a browser assumes. */
const shown = (url: string): string => url.replace(/^https:\/\//, '');

const minutes = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** A phone's link to the computer that handed it the session. */
export interface DeviceLink {
  /** Tells the computer where the person is and which photos are taken, when that changed (best effort). */
  report(progress: SessionProgressReport): void;
  stop(): void;
}

/**
 * The phone a session was handed to (`holder`, not `origin`): reports its progress to
 * `POST /v1/session/progress` (never an image; a failure never stops the person), and follows the
 * session's events. `lost` is called once the page that opened the session takes it back
 * (`handoff.reclaimed` not followed by a new claim, or 409 `session_handed_off` on a report or a
 * reconnection).
 */
export function linkDevice(endpoint: string, secret: () => string, lost: () => void): DeviceLink {
  const run = new AbortController();
  const signal = run.signal;
  let reported = '';
  let held = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lose = () => {
    if (signal.aborted) return;
    run.abort();
    lost();
  };
  const settle = () => {
    timer = undefined;
    if (!held) lose();
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  void followSessionEvents(
    endpoint,
    secret,
    {
      event(event) {
        if (event.type === 'handoff.claimed') held = true;
        else if (event.type === 'handoff.reclaimed') held = false;
        else return;
        // A replay holds earlier rounds (a claim, a take-back, a new claim: this one): judge where it ends.
        timer ??= setTimeout(settle, SETTLE_MS);
      },
      // Back on the network (the stream reconnected): what could not be told is told now.
      reachable(reachable) {
        if (reachable) resend();
      },
      ended(code) {
        if (code === 'session_handed_off') lose();
      },
    },
    signal,
    true,
  );
  // One report in flight at a time, the latest waiting behind it: two sent at once could land out of order.
  let sending = false;
  let waiting: SessionProgressReport | null = null;
  // The latest report that did not get through (offline): sent again when the network is back,
  // unless a newer one went meanwhile.
  let unsent: SessionProgressReport | null = null;
  const send = (progress: SessionProgressReport): void => {
    sending = true;
    postSession(endpoint, 'progress', secret(), progress, signal)
      .then(() => {
        if (unsent === progress) unsent = null;
      })
      .catch((error: unknown) => {
        if (error instanceof CompanionError && error.code === 'session_handed_off') lose();
        else if (!waiting) unsent = progress;
      })
      .finally(() => {
        sending = false;
        const next = waiting;
        waiting = null;
        if (next && !signal.aborted) send(next);
      });
  };
  function resend(): void {
    const progress = unsent;
    if (!progress || signal.aborted) return;
    unsent = null;
    if (sending) waiting ??= progress;
    else send(progress);
  }
  const onOnline = () => resend();
  globalThis.addEventListener?.('online', onOnline);
  signal.addEventListener('abort', () => globalThis.removeEventListener?.('online', onOnline), { once: true });
  return {
    report(progress) {
      const key = `${progress.step} ${progress.photos.join()}`;
      if (signal.aborted || key === reported || !(HANDOFF_PROGRESS_STEPS as readonly string[]).includes(progress.step)) return;
      reported = key;
      unsent = null;
      if (sending) waiting = progress;
      else send(progress);
    },
    stop: () => run.abort(),
  };
}

/** Defines `<onboarding-handoff-panel>` once, with the element's Lit. */
export function defineHandoffPanel(kit: HandoffLitKit): void {
  if (customElements.get(HANDOFF_PANEL_TAG)) return;
  const { LitElement: Base, html, nothing } = kit;

  class HandoffPanel extends Base implements HandoffPanelProps {
    static override styles = handoffPanelStyles(kit.css);
    static override properties = {
      mode: { attribute: false },
      endpoint: { attribute: false },
      locale: { attribute: false },
      noCamera: { attribute: false },
      host: { attribute: false },
      phase: { state: true },
      offer: { state: true },
      now: { state: true },
      progress: { state: true },
      offline: { state: true },
      error: { state: true },
      notice: { state: true },
      busy: { state: true },
    };

    declare mode: 'offer' | 'follow';
    declare endpoint: string;
    declare locale: OnboardingLocale;
    declare noCamera: boolean;
    declare host: HandoffPanelHost;
    declare phase: Phase;
    declare offer: HandoffOffer | null;
    declare now: number;
    declare progress: { step: string; photos: HandoffRole[] } | null;
    declare offline: boolean;
    declare error: string | null;
    declare notice: string | null;
    declare busy: boolean;

    #run: AbortController | null = null;
    #tick: ReturnType<typeof setInterval> | undefined;
    #settle: ReturnType<typeof setTimeout> | undefined;
    /** Whether this offer's own `handoff.created` was seen: what the stream said before it is history. */
    #armed = false;
    /** Events that came before this offer's own `handoff.created` was seen. */
    #backlog: SessionEvent[] = [];
    /** What the flow was last told: the phase, the progress, whether the companion was out of reach. */
    #told: { phase: Phase; step: string | null; photos: HandoffRole[] } = { phase: 'creating', step: null, photos: [] };
    #submittedToken: string | null = null;
    #outcome: HandoffOutcome | null = null;
    #ended = false;
    #focusWasInside = false;

    constructor() {
      super();
      this.mode = 'offer';
      this.endpoint = '';
      this.locale = 'pt-BR';
      this.noCamera = false;
      this.phase = 'creating';
      this.offer = null;
      this.now = Date.now();
      this.progress = null;
      this.offline = false;
      this.error = null;
      this.notice = null;
      this.busy = false;
    }

    get #t() {
      return handoffTexts[this.locale] ?? handoffTexts['pt-BR'];
    }

    override connectedCallback(): void {
      super.connectedCallback();
      this.#run = new AbortController();
      const signal = this.#run.signal;
      if (this.mode === 'follow') {
        this.#armed = true;
        this.phase = 'claimed';
        this.#told = { phase: 'claimed', step: null, photos: [] };
        // A reload that found the phone holding the session: the page learns where things stand.
        this.host.state('claimed');
      }
      void followSessionEvents(
        this.endpoint,
        () => this.host.secret(),
        {
          event: (event) => this.#receive(event),
          reachable: (reachable) => {
            if (this.offline === !reachable) return;
            this.offline = !reachable;
            if (!reachable) this.host.announce(this.#t.offline);
          },
          ended: (code) => {
            if (code === 'session_expired') this.#end();
          },
        },
        signal,
      );
      if (this.mode === 'offer' && !this.offer) void this.#makeOffer();
      else if (this.phase === 'pending') this.#startTick();
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.#run?.abort();
      this.#run = null;
      clearInterval(this.#tick);
      clearTimeout(this.#settle);
      this.#settle = undefined;
    }

    protected override update(changed: PropertyValues): void {
      this.#focusWasInside = !!this.shadowRoot?.activeElement;
      super.update(changed);
    }

    protected override updated(): void {
      // The focused button went (a phase change): carry on from the panel's main action.
      if (this.#focusWasInside && !this.shadowRoot?.activeElement) {
        this.renderRoot.querySelector<HTMLElement>('button.primary, button')?.focus();
      }
    }

    // ------------------------------------------------------------------ the link

    async #makeOffer(): Promise<void> {
      const t = this.#t;
      const signal = this.#run?.signal;
      this.phase = 'creating';
      this.offer = null;
      this.error = null;
      this.notice = null;
      this.#armed = false;
      this.#backlog = [];
      clearInterval(this.#tick);
      try {
        const offer = await postSession(this.endpoint, 'handoff', this.host.secret(), undefined, signal);
        if (signal?.aborted) return;
        if (!isOffer(offer)) throw new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: 201 });
        this.offer = offer;
        this.now = Date.now();
        this.phase = 'pending';
        this.#told.phase = 'pending';
        this.host.state('offered');
        this.host.announce(t.offered);
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
        if (code === 'session_expired') return this.#end();
        this.phase = 'failed';
        this.error = code === 'session_used' ? t.sent : t.offerFailed;
        this.host.announce(this.error);
      }
    }

    #startTick(): void {
      clearInterval(this.#tick);
      this.#tick = setInterval(() => {
        this.now = Date.now();
        if (this.phase === 'pending' && this.offer && Date.parse(this.offer.expiresAt) <= this.now) this.#apply({ type: 'handoff.expired' });
        if (this.phase !== 'pending') clearInterval(this.#tick);
      }, 1000);
    }

    async #copy(): Promise<void> {
      const t = this.#t;
      if (!this.offer) return;
      try {
        // A clipboard that neither takes the text nor refuses it (a permission nobody will answer)
        // must not leave the button silent: after a few seconds the person is told to type the code.
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          navigator.clipboard.writeText(formatHandoffCode(this.offer.code)),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('clipboard did not answer')), COPY_WAIT_MS))),
        ]).finally(() => clearTimeout(timer));
        this.notice = t.copied;
      } catch {
        this.notice = t.copyFailed;
      }
      this.host.announce(this.notice);
    }

    async #takeBack(): Promise<void> {
      const t = this.#t;
      this.busy = true;
      this.error = null;
      try {
        const session = await postSession(this.endpoint, 'handoff/reclaim', this.host.secret(), undefined, this.#run?.signal);
        // What is still to be told (a claim a moment ago) goes out before the take-back.
        if (this.#settle) this.#tell();
        this.#run?.abort();
        this.host.state('reclaimed');
        this.host.back(session && typeof session === 'object' && 'handoff' in session ? (session as PageSession) : null);
      } catch (error) {
        if (this.#run?.signal.aborted) return;
        this.busy = false;
        this.error = error instanceof CompanionError && error.code === 'session_used' ? t.sent : t.takeBackFailed;
        this.host.announce(this.error);
      }
    }

    #end(): void {
      if (this.#ended) return;
      this.#ended = true;
      this.#run?.abort();
      this.host.ended();
    }

    // ------------------------------------------------------------------ the session's events

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
          this.#outcome = { tokenOnboarding: event.tokenOnboarding, status: event.status, ...(event.externalId && { externalId: event.externalId }) };
          break;
        case 'session.expired':
          return this.#end();
        default:
          return;
      }
      // A lapse seen by the clock is told at once; the rest once a burst of events has settled.
      if (event.type === 'handoff.expired') return this.#tell();
      this.#settle ??= setTimeout(() => this.#tell(), SETTLE_MS);
    }

    /** Tells the flow (and the person) what changed since it was last told. */
    #tell(): void {
      clearTimeout(this.#settle);
      this.#settle = undefined;
      if (!this.#run || this.#run.signal.aborted) return;
      const t = this.#t;
      const host = this.host;
      const told = this.#told;
      if (this.#outcome) {
        this.#run.abort();
        // Sent and decided within one burst: the sending is told first all the same.
        if (told.phase !== 'submitted' && this.#submittedToken) host.submitted(this.#submittedToken);
        return host.completed(this.#outcome);
      }
      const phase = this.phase;
      const said: string[] = [];
      if (phase !== told.phase) {
        if (phase === 'claimed' && told.phase !== 'submitted') {
          host.state('claimed');
          said.push(t.claimed);
        } else if (phase === 'expired') {
          host.state('expired');
          said.push(t.expired);
        } else if (phase === 'reclaimed') {
          this.#run.abort();
          host.state('reclaimed');
          return host.back(null);
        } else if (phase === 'submitted') {
          if (told.phase !== 'claimed') host.state('claimed');
          if (this.#submittedToken) host.submitted(this.#submittedToken);
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
      if (said.length > 0) host.announce(said.join(' '));
    }

    // ------------------------------------------------------------------ views

    #renderQr(offer: HandoffOffer): TemplateResult {
      const { size, path } = qrPath(offer.url);
      const side = size + 2 * QUIET_ZONE;
      return html`<svg
        class="qr"
        part="handoff-qr"
        viewBox="${-QUIET_ZONE} ${-QUIET_ZONE} ${side} ${side}"
        role="img"
        aria-label=${this.#t.qrLabel}
        shape-rendering="crispEdges"
      >
        <rect x=${-QUIET_ZONE} y=${-QUIET_ZONE} width=${side} height=${side} fill="#ffffff"></rect>
        <path d=${path} fill="#000000"></path>
      </svg>`;
    }

    #renderOffer(): TemplateResult {
      const t = this.#t;
      const offer = this.phase === 'pending' ? this.offer : null;
      const code = offer ? formatHandoffCode(offer.code) : '';
      return html`
        ${this.noCamera ? html`<p>${t.noCamera}</p>` : nothing}
        <div class="offer">
          ${offer
            ? this.#renderQr(offer)
            : this.phase === 'creating'
              ? html`<div class="qr lapsed" part="handoff-qr" aria-hidden="true">${t.creating}</div>`
              : nothing}
          <div>
            ${offer
              ? html`
                  <p>${t.scan}</p>
                  <p>${t.typeAt}<br /><span class="url">${shown(offer.shortUrl)}</span></p>
                  <p>${t.typeCode}</p>
                  <div class="code-row">
                    <span class="code" part="handoff-code" aria-hidden="true">${code}</span>
                    <span class="sr-only">${t.codeLabel}: ${[...offer.code].join(' ')}</span>
                    <button type="button" part="button" @click=${() => void this.#copy()}>${t.copy}</button>
                  </div>
                  ${this.notice ? html`<p class="muted">${this.notice}</p>` : nothing}
                  <p class="muted" role="timer" aria-live="off">${t.expiresIn(minutes(Date.parse(offer.expiresAt) - this.now))}</p>
                `
              : this.phase === 'expired'
                ? html`<p>${t.expired}</p>`
                : this.phase === 'creating'
                  ? html`<p role="status">${t.creating}</p>`
                  : nothing}
          </div>
        </div>
        ${offer
          ? html`<ul class="status" part="handoff-status">
              <li><span class="mark dot" aria-hidden="true"></span>${t.waiting}</li>
            </ul>`
          : nothing}
      `;
    }

    #renderFollow(): TemplateResult {
      const t = this.#t;
      const progress = this.progress;
      const submitted = this.phase === 'submitted';
      const stepName = progress ? t.steps[progress.step] : undefined;
      return html`
        <ul class="status" part="handoff-status">
          <li class="done"><span class="mark" aria-hidden="true">✓</span>${t.claimed}</li>
          ${stepName && !submitted ? html`<li><span class="mark dot" aria-hidden="true"></span>${t.at(stepName)}</li>` : nothing}
          ${(progress?.photos ?? []).map(
            (role) => html`<li class="done" data-photo=${role}>
              <span class="mark" aria-hidden="true">✓</span>${t.photos[role]}<span class="sr-only">: ${t.taken}</span>
            </li>`,
          )}
          ${submitted ? html`<li><span class="mark dot" aria-hidden="true"></span>${t.submitted}</li>` : nothing}
        </ul>
      `;
    }

    override render(): TemplateResult {
      const t = this.#t;
      const phase = this.phase;
      const following = phase === 'claimed' || phase === 'submitted' || phase === 'reclaimed';
      const newCode = phase === 'pending' || phase === 'expired' || phase === 'failed';
      const lapsed = phase === 'expired' || phase === 'failed';
      return html`
        <div part="handoff" data-phase=${phase}>
          ${this.offline ? html`<p class="offline" part="offline">${t.offline}</p>` : nothing}
          ${following ? this.#renderFollow() : this.#renderOffer()}
          ${this.error ? html`<p class="error" part="error" role="alert">${this.error}</p>` : nothing}
          ${phase === 'submitted'
            ? nothing
            : html`<div class="actions" part="actions">
                <button type="button" part="button" ?disabled=${this.busy} @click=${() => void this.#takeBack()}>${t.takeBack}</button>
                ${newCode
                  ? html`<button
                      type="button"
                      class=${lapsed ? 'primary' : ''}
                      part=${lapsed ? 'button button-primary' : 'button'}
                      ?disabled=${this.busy}
                      @click=${() => void this.#makeOffer()}
                    >
                      ${t.newCode}
                    </button>`
                  : nothing}
              </div>`}
        </div>
      `;
    }
  }

  customElements.define(HANDOFF_PANEL_TAG, HandoffPanel);
}

declare global {
  interface HTMLElementTagNameMap {
    'onboarding-handoff-panel': HTMLElement & HandoffPanelProps;
  }
}
