/**
 * The hand-off of a session between devices (docs/page-api.md#hand-off), as a Lit reactive
 * controller of `<onboarding-flow>`:
 *
 * - On the page that opened the session (its origin) with the `handoff` attribute: whether to
 *   offer "Continue on your phone" (first, from the intro on, when no camera is found here; never
 *   on a phone: see `isPhone`), and the panel that hands over what the person answered here and that
 *   hands the session over and follows the phone (`open`, `render`). A reload that finds a phone
 *   holding the session opens the panel at once, following (`loaded`). What the panel reports
 *   (`handoff-report` events) moves the flow on: the phone's sending and outcome, the take-back.
 * - On the phone the session was handed to: the flow resumes at the first photo with the
 *   computer's answers (consent, CPF, document type), never asking them again; where the person is and which photos are taken,
 *   reported after each change (never an image; a failure never stops the person), and the watch
 *   that tells when the origin took the session back.
 *
 * Everything but these decisions is in the lazily loaded hand-off file (load-handoff.ts).
 */
import type { PageSession } from '@onboarding-kit/contract';
import { html, type ReactiveController, type ReactiveElement, type TemplateResult } from 'lit';
import type { DetailsController } from '../controllers/details-controller.js';
import type { NavigationController } from '../controllers/navigation-controller.js';
import type { SessionController } from '../controllers/session-controller.js';
import { OnboardingHandoffEvent, OnboardingSubmittedEvent } from '../events.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import type { LazyTextsController } from '../onboarding-flow/lazy-texts.js';
import type { PhotoStepsController } from '../onboarding-flow/photo-steps-controller.js';
import { FIRST_STEP, RESUME_STEP, rolesFor } from '../onboarding-flow/steps.js';
import type { DeviceLink } from './device-link.js';
import type { HandoffForm } from './handoff-answers.js';
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
  /** The flow's form: what the person answered here goes with an offer (the hand-off file reads it: handoff-answers.ts); on a phone, the consent given on the computer. */
  details: HandoffForm & Pick<DetailsController, 'consentGiven'>;
  /** The session expired while a phone held it: the flow starts over. */
  restart(): void;
}

/**
 * Whether this device is a phone (or a tablet), where the hand-off is never offered: the browser
 * says so (`navigator.userAgentData.mobile`, Chromium), or the primary pointer is coarse (a
 * touch screen without mouse or trackpad, which a laptop with a touch screen still has) and a
 * camera is here. A touch device without a camera is still offered the phone.
 */
function isPhone(camera: boolean | null): boolean {
  // Until the cameras are listed, a touch screen counts as a phone: the offer never flashes on one.
  return !!(
    (navigator as Navigator & { userAgentData?: { mobile?: boolean } }).userAgentData?.mobile ||
    (matchMedia('(pointer: coarse)').matches && camera !== false)
  );
}

export class HandoffController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: HandoffOptions;
  #mode: HandoffMode | null = null;
  #kit: HandoffKit | null = null;
  /** Whether the browser lists a camera here (null: not known yet). */
  #camera: boolean | null = null;
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
  /** This page opened the session, holds it, was asked to offer the hand-off, and is not on a phone. */
  get available(): boolean {
    const handoff = this.#options.session.session?.handoff;
    return this.#options.enabled() && !!handoff?.origin && handoff.holder && !isPhone(this.#camera);
  }
  /** The browser lists no camera here. */
  get noCamera(): boolean {
    return this.#camera === false;
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

  /**
   * The session was read: a phone holding it is followed, whatever the attribute says; on the
   * device it was handed to with the computer's answers, the flow resumes at the first photo.
   */
  loaded(session: PageSession): void {
    const handoff = session.handoff;
    if (handoff?.state === 'claimed' && !handoff.holder) void this.open('follow');
    // The companion tells the answers to the device holding a handed-off session only.
    if (handoff?.answers) {
      this.#options.details.consentGiven();
      this.#options.nav.goTo(RESUME_STEP);
    }
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
      .noCamera=${this.noCamera}
      .form=${this.#options.details}
      @handoff-report=${this.#onReport}
    ></onboarding-handoff-panel>`;
  }

  hostDisconnected(): void {
    this.#unlink();
  }

  hostUpdated(): void {
    // Listed even where the offer waits for it (a touch screen, where a camera means a phone).
    if (this.#options.enabled() && !this.#probed) {
      this.#probed = true;
      // Labels need a permission, the kinds do not: no video input means no camera to open.
      navigator.mediaDevices?.enumerateDevices?.().then(
        (devices) => {
          this.#camera = devices.some((d) => d.kind === 'videoinput');
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

  /** The page is told of the hand-off's state and of the phone's sending; the rest is the hand-off file's (report-actions.ts). */
  readonly #onReport = (event: HandoffReportEvent): void => {
    const report = event.detail;
    if (report.kind === 'state') this.#host.dispatchEvent(new OnboardingHandoffEvent({ state: report.state }));
    if (report.kind === 'submitted') this.#host.dispatchEvent(new OnboardingSubmittedEvent({ tokenOnboarding: report.tokenOnboarding }));
    this.#kit!.actOnReport(report, this.#options, { current: this.#mode, set: (mode) => this.#setMode(mode) });
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
