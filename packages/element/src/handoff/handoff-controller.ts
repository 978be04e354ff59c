/**
 * The hand-off of a session between devices (docs/page-api.md#hand-off), as a Lit reactive
 * controller of `<onboarding-flow>`:
 *
 * - On the page that opened the session (its origin) with the `handoff` attribute: whether to
 *   offer "Continue on your phone" (and first, when no camera is found here), and the panel that
 *   hands the session over and follows the phone (`open`, `render`). A reload that finds a phone
 *   holding the session opens the panel at once, following (`loaded`). What the panel reports
 *   (`handoff-report` events) moves the flow on: the phone's sending and outcome, the take-back.
 * - On the phone the session was handed to: where the person is and which photos are taken,
 *   reported after each change (never an image; a failure never stops the person), and the watch
 *   that tells when the origin took the session back.
 *
 * Everything but these decisions is in the lazily loaded hand-off file (load-handoff.ts).
 */
import type { PageSession } from '@onboarding-kit/contract';
import { html, type ReactiveController, type ReactiveElement, type TemplateResult } from 'lit';
import type { NavigationController } from '../controllers/navigation-controller.js';
import type { SessionController } from '../controllers/session-controller.js';
import { OnboardingHandoffEvent, OnboardingSubmittedEvent } from '../events.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import type { LazyTextsController } from '../onboarding-flow/lazy-texts.js';
import type { PhotoStepsController } from '../onboarding-flow/photo-steps-controller.js';
import { FIRST_STEP, rolesFor } from '../onboarding-flow/steps.js';
import type { DeviceLink } from './device-link.js';
import { loadHandoff, type HandoffKit } from './load-handoff.js';
import type { HandoffReportEvent } from './panel-events.js';

export type HandoffMode = 'offer' | 'follow';

export interface HandoffOptions {
  /** The `handoff` attribute. */
  enabled(): boolean;
  context: FlowContextSource;
  session: SessionController;
  nav: NavigationController;
  photo: PhotoStepsController;
  texts: LazyTextsController;
  /** The document type chosen, which names the photos to take. */
  documentType(): string | null;
  /** The session expired while a phone held it: the flow starts over. */
  restart(): void;
}

export class HandoffController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: HandoffOptions;
  #mode: HandoffMode | null = null;
  #kit: HandoffKit | null = null;
  #noCamera = false;
  #probed = false;
  /** A device's link to the computer (from the hand-off file), for the secret it was made with. */
  #device: { secret: string; link: DeviceLink | null } | null = null;

  constructor(host: ReactiveElement, options: HandoffOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** The panel shown in place of the step (`follow` also while its file loads), or null. */
  get mode(): HandoffMode | null {
    return this.#mode;
  }
  /** This page opened the session, holds it, and was asked to offer the hand-off. */
  get available(): boolean {
    const handoff = this.#options.session.session?.handoff;
    return this.#options.enabled() && !!handoff?.origin && handoff.holder;
  }
  /** The browser lists no camera here. */
  get noCamera(): boolean {
    return this.#noCamera;
  }

  /** The panel's heading (the session's loading heading while the hand-off file loads). */
  get heading(): string {
    const { locale, messages } = this.#options.context.current;
    const t = this.#kit?.handoffTexts[locale];
    return !t ? messages.session.loadingHeading : this.#mode === 'offer' ? t.headingOffer : t.headingFollow;
  }

  /** Shows the panel: `offer` once its file is here, `follow` at once (a spinner until then). */
  async open(mode: HandoffMode): Promise<void> {
    if (mode === 'follow') this.#setMode(mode);
    try {
      this.#kit = await loadHandoff();
    } catch {
      // Offline before the file came: the flow stays as it was, and the button can be pressed again.
      if (mode === 'follow') this.#setMode(null);
      return;
    }
    this.#setMode(mode);
    this.#options.nav.presentStep();
    this.#options.nav.announce(this.heading);
  }

  /** Back to the flow's own step. */
  close(): void {
    this.#setMode(null);
  }

  /** The session was read: a phone holding it is followed, whatever the attribute says. */
  loaded(session: PageSession): void {
    const handoff = session.handoff;
    if (handoff?.state === 'claimed' && !handoff.holder) void this.open('follow');
  }

  reset(): void {
    this.#setMode(null);
    this.#unlink();
  }

  /** The panel, once its file is here (null before: the flow shows it loading). */
  render(): TemplateResult | null {
    if (!this.#kit || !this.#mode) return null;
    const { endpoint, secret, locale } = this.#options.context.current;
    return html`<onboarding-handoff-panel
      exportparts="handoff, handoff-qr, handoff-code, handoff-status, actions, button, button-primary, error, offline"
      .mode=${this.#mode}
      .endpoint=${endpoint}
      .secret=${secret}
      .locale=${locale}
      .noCamera=${this.#noCamera}
      @handoff-report=${this.#onReport}
    ></onboarding-handoff-panel>`;
  }

  hostDisconnected(): void {
    this.#unlink();
  }

  hostUpdated(): void {
    if (this.available && !this.#probed) {
      this.#probed = true;
      // Labels need a permission, the kinds do not: no video input means no camera to open.
      navigator.mediaDevices?.enumerateDevices?.().then(
        (devices) => {
          if (devices.some((d) => d.kind === 'videoinput')) return;
          this.#noCamera = true;
          this.#host.requestUpdate();
        },
        () => undefined,
      );
    }
    const handoff = this.#options.session.session?.handoff;
    const secret = this.#options.context.current.secret;
    if (!handoff || handoff.origin || !handoff.holder) return this.#unlink();
    // A device the session was handed to: the computer follows where the person is.
    if (this.#device?.secret !== secret) {
      this.#unlink();
      const device: { secret: string; link: DeviceLink | null } = (this.#device = { secret, link: null });
      loadHandoff().then(
        (kit) => {
          if (this.#device !== device) return;
          device.link = kit.linkDevice(
            this.#options.context.current.endpoint,
            () => this.#options.context.current.secret,
            () => this.#lost(),
          );
          this.#host.requestUpdate();
        },
        // Not loaded (offline): the next update tries again.
        () => {
          if (this.#device === device) this.#device = null;
        },
      );
    }
    this.#device.link?.report(this.#progress());
  }

  /** Where the person is and which photos are taken (a device's progress report). */
  #progress(): { step: string; photos: ReturnType<typeof rolesFor> } {
    const step = this.#options.nav.step;
    const sent = step === 'processing' || step === 'outcome';
    return { step, photos: rolesFor(this.#options.documentType()).filter((role) => sent || this.#options.photo.capture?.photo(role)) };
  }

  /** This device no longer holds the session: the page that opened it took it back. */
  #lost(): void {
    const { session, nav, photo } = this.#options;
    if (session.problem === 'handedOff') return;
    photo.capture?.reset();
    session.fail('handedOff');
    nav.goTo(FIRST_STEP);
    nav.presentStep();
    this.#host.dispatchEvent(new OnboardingHandoffEvent({ state: 'reclaimed' }));
  }

  readonly #onReport = (event: HandoffReportEvent): void => {
    const report = event.detail;
    const { session, nav, photo, texts } = this.#options;
    switch (report.kind) {
      case 'state':
        if (report.state === 'claimed') {
          if (this.#mode) this.#setMode('follow');
          // The phone's outcome will show here: its words are fetched now, to come with its heading.
          void texts.loadAfterSend();
        }
        this.#host.dispatchEvent(new OnboardingHandoffEvent({ state: report.state }));
        return;
      case 'announce':
        return nav.announce(report.text);
      case 'submitted':
        this.#host.dispatchEvent(new OnboardingSubmittedEvent({ tokenOnboarding: report.tokenOnboarding }));
        return;
      case 'completed': {
        this.close();
        const outcome = report.outcome;
        // Shown once its words are in (at once when they came ahead; without them if they cannot load).
        void texts.loadAfterSend().then(() => photo.when('outcome', () => photo.submission!.showOutcome(outcome)));
        return;
      }
      case 'back':
        this.close();
        if (report.session) session.replace(report.session);
        else void session.load();
        return nav.presentStep();
      case 'ended':
        return this.#options.restart();
    }
  };

  #unlink(): void {
    this.#device?.link?.stop();
    this.#device = null;
  }

  #setMode(mode: HandoffMode | null): void {
    this.#mode = mode;
    this.#host.requestUpdate();
  }
}
