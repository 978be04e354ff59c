import { LitElement, type TemplateResult } from 'lit';
import { DEFAULT_IMAGE_MAX_BYTES } from '@onboarding-kit/contract';
import type { PollOptions } from '../api/index.js';
import { DetailsController, lockedTaxIdOf } from '../controllers/details-controller.js';
import { NavigationController } from '../controllers/navigation-controller.js';
import { SessionController } from '../controllers/session-controller.js';
import { HandoffController } from '../handoff/handoff-controller.js';
import { ResolvedFlowContext } from './flow-context.js';
import type { FlowParts } from './flow-parts.js';
import { flowHeading, renderFlow } from './flow-view.js';
import { LazyTextsController } from './lazy-texts.js';
import { ControllerSlot } from './load-photo-steps.js';
import { PhotoStepsController } from './photo-steps-controller.js';
import { DEFAULT_DOCUMENT_TYPES, FIRST_STEP, flowShapeOf, parseDocumentTypes, rolesFor, stepSequence } from './steps.js';
import { styles } from './onboarding-flow.styles.js';
import { pathStyles } from './path.styles.js';
import { introStyles } from './intro.styles.js';

/**
 * An identity-verification flow for Brazil: an intro (what the person needs, about how long it
 * takes, a picture of each photo), LGPD consent, CPF, document type, document photos
 * (front and, where the document has one, back) and a selfie from the camera or from files,
 * review, upload with real progress, then the upstream's decision relayed by the companion.
 *
 * With `session` (a client secret from the integrator's backend), the element first reads its
 * session: while it loads, the step is busy (`aria-busy`) and shows a status line; once read,
 * the session's name and CPF/CNPJ prefill the form (the tax id locked: read-only, with a hint
 * that the service provider gave it), only its document types are offered, its locale applies
 * unless `locale` was set, and the onboarding is created under the session. A session that
 * cannot be used replaces the intro with a message in the `error` part and fires
 * `onboarding-error`.
 *
 * @tag onboarding-flow
 * @summary Captures CPF, document photos and a selfie and shows the KYC outcome.
 *
 * @event {OnboardingStepChangeEvent} onboarding-step-change - The visible step changed. `detail: { step, previous }`.
 * @event {OnboardingHandoffEvent} onboarding-handoff - The hand-off to a phone moved on (the `handoff` attribute). `detail: { state }`: `offered` (a QR code and short code show, again after each new code), `claimed` (a phone holds the session; also on a reload that resumes following it), `reclaimed` (the session is the computer's again: on the computer after "Back to this computer", on the phone when it lost the session), `expired` (the code lapsed unused). On the computer, the phone's sending and its outcome fire `onboarding-submitted` and `onboarding-complete` too.
 * @event {OnboardingCaptureEvent} onboarding-capture - A photo passed the checks (or the person kept it anyway). `detail: { role, bytes, width, height, processedIn, processedBy, keptAnyway? }` (never the image): processedIn `'worker'` or `'main-thread'`, processedBy `'library'` (browser-image-compression in the image worker) or `'own'` (the element's canvas encode), keptAnyway `true` when the person kept a photo refused twice in a row.
 * @event {OnboardingSubmittedEvent} onboarding-submitted - The companion accepted the upload. `detail: { tokenOnboarding }`.
 * @event {OnboardingCompleteEvent} onboarding-complete - A final status arrived. `detail: { tokenOnboarding, status, externalId? }`.
 * @event {OnboardingErrorEvent} onboarding-error - Something failed (camera, upload, status, session, and `face_detector_unavailable` when the selfie's face detector could not be loaded: the selfie is then checked for exposure and focus only). `detail: { code, message, externalId? }`. Session codes: `session_invalid` (the secret opens no session), `session_expired`, `session_cancelled` (the service provider cancelled it), `session_used` (it already produced an onboarding), `session_unavailable` (it could not be read: a Retry button is shown), and on creation `session_mismatch`, `idempotency_conflict`, `idempotency_in_progress`. The secret is never in a detail.
 * @event {OnboardingCancelEvent} onboarding-cancel - The person declined consent or cancelled the upload. `detail: { step }`.
 * @event {OnboardingContinueEvent} onboarding-continue - "Continuar" on the APPROVED screen, offered with `continue-event` (and no `returnUrl` or `continue` slot). `detail: { tokenOnboarding, status }`.
 *
 * @slot logo - Shown in the header, before the title.
 * @slot consent-extra - Extra consent text from the integrator (a DPO contact, the controller's own terms).
 * @slot outcome-approved - Extra content on the APPROVED screen (for example a "Continue" link).
 * @slot outcome-refused - Extra content on the REFUSED screen.
 * @slot outcome-error - Extra content on the ERROR screen (for example how to reach support).
 * @slot continue - On the APPROVED screen, where the person goes next (for example a "Continue" link back to the integrator's page); a session's `returnUrl` comes first.
 * @slot refused-help - On the REFUSED screen, the integrator's help text (how to reach them, what else is accepted).
 *
 * @csspart base - The wrapper of everything.
 * @csspart header - The header with the logo slot, the title and the list of steps.
 * @csspart stages - The list of the steps a person is shown (consent, data, document, selfie, review), the current one with `aria-current="step"`; absent on the intro and after sending.
 * @csspart stage - One step of that list.
 * @csspart stage-current - The step of that list the person is on.
 * @csspart intro-needs - On the intro, the list of what the person needs (CPF, a document, light, a camera or photos).
 * @csspart intro-photos - On the intro, the pictures of the photos the person will take (document front, back where one is offered, selfie).
 * @csspart step - The section of the current step.
 * @csspart heading - The heading of the current step (focused on each step change).
 * @csspart body - The content of the current step.
 * @csspart back - The step's Back control, in its header before the heading (from the CPF up to the review).
 * @csspart actions - The action bar of the current step: the main action full width at the bottom (sticky on phones), the others as text links above it.
 * @csspart button - Every button (and the file-picker labels styled as one).
 * @csspart handoff-start - "Continue on your phone" on a capture step (the `handoff` attribute); the step's main action, first, when no camera is found.
 * @csspart handoff - The hand-off panel, in place of the step: the QR code and short code, then how the phone is doing.
 * @csspart handoff-qr - The QR code of the hand-off link (an SVG, black on white with its margin).
 * @csspart handoff-code - The short code to type on the phone, in large monospace.
 * @csspart handoff-status - The hand-off's status lines (waiting for the phone, connected, its step and the photos taken, sent).
 * @csspart camera-app - The "use the camera app" file picker, shown where the page cannot open the camera itself.
 * @csspart capture-picture - On a capture step before the camera opens, the line drawing (an SVG in `currentColor`, hidden from assistive technology) of the chosen document's side (CNH, RG, CIN, passport, any other card) or of the selfie's framing.
 * @csspart capture-tips - Under that drawing, the list of three tips for the photo.
 * @csspart retake - A photo's retake link on the review step.
 * @csspart button-primary - The main button of a step: one a step, full width, the lowest of its action bar.
 * @csspart button-link - Every other action of a step, shown as a text link.
 * @csspart progress - The upload progress bar.
 * @csspart capture-view - The camera view: a modal `<dialog>`, full screen on phones and short windows.
 * @csspart video - The live camera preview, at the camera's own aspect ratio (mirrored for a front camera).
 * @csspart guide - The cutout in the dark mask over the preview (an ID-1 card for documents, an oval for the selfie); what is inside it, with a small margin, is the photo saved. Gains the `ready` class while the automatic photo is coming.
 * @csspart shutter - The round shutter button, its ring filling while the automatic photo is coming.
 * @csspart capture-back - The camera view's back button (leaves the step).
 * @csspart capture-close - The camera view's close button (closes the camera, stays on the step).
 * @csspart capture-switch - The camera view's switch-camera button (only where the device has another camera).
 * @csspart capture-hint - The live hint on the preview ("Aproxime o documento", "Evite reflexos", "Segure firme…").
 * @csspart liveness-prompt - The selfie's liveness prompt on the preview ("Vire o rosto devagar para a sua esquerda", with an arrow), `data-prompt` naming it.
 * @csspart keep-anyway - "Usar mesmo assim": keeps a photo refused twice in a row for what it shows (never a selfie without a face, or with several).
 * @csspart face-tips - What else to try when a selfie was refused twice for its face, which cannot be kept.
 * @csspart document-hints - On a document photo's review, what the reader noticed (a back as the front, swapped sides, another document, another person's CPF).
 * @csspart document-prefill - On the CPF step of a session with `prefillFromDocument`, the data read from the document, or why none could be read.
 * @csspart proof-file - A PDF proof of address, named with its size, on its step and the review.
 * @csspart preview - A captured or rejected photo.
 * @csspart thumbnail - A photo on the review step.
 * @csspart error - Every error message.
 * @csspart outcome - The outcome message box.
 * @csspart continue - "Continuar" on the APPROVED screen (a link to the session's `returnUrl`, or the `continue-event` button).
 * @csspart help-link - The integrator's help page (`help-url`) on the REFUSED and ERROR screens.
 * @csspart support-code - The support code on the ERROR screen and when the status can no longer be read: `K7QM-4XPD`.
 * @csspart offline - The banner shown while the waiting page cannot reach the companion (it goes once it can).
 *
 * @cssproperty --onboarding-color-primary - Buttons, links, progress (default #0b57a4).
 * @cssproperty --onboarding-color-on-primary - Text on primary buttons (default #ffffff).
 * @cssproperty --onboarding-color-text - Body text (default #1b1f24).
 * @cssproperty --onboarding-color-muted - Secondary text (default #4a5260).
 * @cssproperty --onboarding-color-bg - Background (default #ffffff).
 * @cssproperty --onboarding-color-surface - Subtle backgrounds (default #f2f4f7).
 * @cssproperty --onboarding-color-border - Input and image borders (default #6b7380).
 * @cssproperty --onboarding-color-error - Errors (default #b3261e).
 * @cssproperty --onboarding-color-success - Approved outcome (default #1b6e35).
 * @cssproperty --onboarding-radius - Corner radius (default 8px).
 * @cssproperty --onboarding-font-family - Font stack (default system-ui).
 * @cssproperty --onboarding-font-size - Base font size (default 1rem).
 * @cssproperty --onboarding-focus-ring - Focus outline shorthand (default 3px solid #1a5fd0).
 * @cssproperty --onboarding-spacing - Base spacing (default 1rem).
 * @cssproperty --onboarding-max-width - Width of the flow's column, centred (default 560px).
 */
export class OnboardingFlow extends LitElement {
  static override styles = [styles, pathStyles, introStyles];
  // Declared here rather than with decorators, whose helpers cost the first load about 400 B gzip.
  static override properties = {
    endpoint: {},
    locale: {},
    documentTypes: { attribute: 'document-types' },
    cpf: {},
    name: {},
    session: {},
    handoff: { type: Boolean },
    maxImageBytes: { attribute: 'max-image-bytes', type: Number },
    manualCapture: { attribute: 'manual-capture', type: Boolean },
    maxLongEdge: { attribute: 'max-long-edge', type: Number },
    controllerName: { attribute: 'controller-name' },
    privacyUrl: { attribute: 'privacy-url' },
  };

  /** Companion base URL, with or without the trailing `/v1` (both are accepted). */
  endpoint = '';

  #locale: string | null = null;

  /**
   * `pt-BR` (default), `en` or `es`; other tags fall back by language, then to `pt-BR`. Unset
   * (or set to an empty value), a session's locale applies; set, it wins over the session's.
   * Reading it gives the locale in effect.
   */
  get locale(): string {
    return this.#locale ?? this.#session.session?.locale ?? 'pt-BR';
  }
  set locale(value: string | null | undefined) {
    this.#locale = value || null;
  }

  /**
   * Comma-separated document types offered, in order. PASSPORT has no back side. A session that
   * names document types offers those instead.
   */
  documentTypes = DEFAULT_DOCUMENT_TYPES;

  /** Prefills the CPF field (any punctuation). A session's CPF or CNPJ replaces it, locked. */
  cpf = '';

  /** Prefills the optional name field. A session's name replaces it. */
  name = '';

  /**
   * The client secret of a session opened by the integrator's backend (`POST /v1/sessions`, see
   * docs/backend-api.md). Set, the flow starts only once the session is read from
   * `GET <endpoint>/v1/session`, and the onboarding is created under it (`Authorization: Bearer`,
   * with an `Idempotency-Key` kept across retries of the same content). A secret: never
   * reflected, never in an event, a message or the rendered DOM. Changing it starts the flow over.
   */
  session = '';

  /**
   * Offers "Continue on your phone" on the capture steps (first when no camera is found): a QR
   * code and a short code hand the session to a phone, and this page follows it there, shows the
   * outcome when it comes, and can take the session back. Needs a `session` opened by this page
   * (the hosted capture page sets both). Without it, a page that finds a phone holding its
   * session follows it all the same.
   */
  handoff = false;

  /** Target size in bytes for each compressed photo (the pipeline's default when unset). */
  maxImageBytes: number | undefined;

  /**
   * Turns the automatic photo off: the camera view still shows its live hints, and only the
   * shutter takes the photo. Off by default: a steady frame that passes the checks for about a
   * second is taken by itself (and the person is told).
   */
  manualCapture = false;

  /** Longest edge in pixels of each compressed photo (the pipeline's default when unset). */
  maxLongEdge: number | undefined;

  /**
   * The data controller the consent names (the company collecting the data, LGPD art. 9). Unset,
   * the consent says no name was given, and the console warns once.
   */
  declare controllerName: string | undefined;

  /** The controller's privacy policy (an http or https address), linked from the consent in a new tab. */
  declare privacyUrl: string | undefined;

  /**
   * Timings of the polling fallback used when the status stream fails (JS property only;
   * defaults: first poll after 1 s, doubling up to 8 s, giving up after 5 minutes).
   */
  pollOptions: Partial<PollOptions> = {};

  /** What the session changes in the flow: the CPF read from the document, the proof of address. */
  readonly #shape = () => flowShapeOf(this.#session.session);

  /** The endpoint, the session's secret and the locale as every part of the flow reads them. */
  readonly #context = new ResolvedFlowContext(() => ({ endpoint: this.endpoint, session: this.session, locale: this.locale }));
  readonly #texts = new LazyTextsController(this);

  // The controllers' order is the order of their host callbacks: the photos' controller takes its
  // turn before navigation's.
  /** The capture controller (and its camera) take their turn here among the host callbacks once the photo steps are loaded. */
  readonly #captureSlot = new ControllerSlot(this);

  readonly #nav: NavigationController = new NavigationController(this, {
    sequence: () => stepSequence(this.#details.documentType, !!this.#session.session?.handoff?.answers, this.#shape()),
    shape: () => this.#shape(),
    context: this.#context,
    heading: (step) => flowHeading(this.#view, step),
    leave: () => this.#photo.leaveStep(),
    photosComplete: () =>
      rolesFor(this.#details.documentType).every((role) => this.#photo.capture?.photo(role)) &&
      (!this.#shape().proofOfAddress || !!this.#photo.proof?.proof),
  });

  readonly #session: SessionController = new SessionController(this, {
    context: this.#context,
    quiet: () => this.#nav.step === 'processing' || this.#nav.step === 'outcome',
    // Someone was told "preparing": the step they can now use is told too.
    loaded: (session) => {
      if (this.#nav.announcement) this.#nav.announceStep();
      this.#handoff.loaded(session);
    },
    // The ending shown in place of the intro is presented as a step is: its heading focused and announced.
    failed: () => {
      if (this.#nav.step === FIRST_STEP) this.#nav.presentStep();
    },
  });

  readonly #details: DetailsController = new DetailsController(this, {
    prefill: () => {
      const session = this.#session.session;
      return {
        cpf: this.cpf,
        name: session?.prefill.name ?? this.name,
        documentTypes: this.#session.documentTypes(this.documentTypes),
        lockedTaxId: session ? lockedTaxIdOf(session.prefill) : null,
      };
    },
    goTo: (step) => this.#nav.goTo(step),
    next: () => this.#nav.next(),
    documentTypeChanged: () => this.#photo.capture?.remove('documentFront', 'documentBack'),
  });

  readonly #photo: PhotoStepsController = new PhotoStepsController(this, {
    context: this.#context,
    nav: this.#nav,
    texts: this.#texts,
    slot: this.#captureSlot,
    // Right after the base styles, which the path's styles refine (the compact review grid over the base thumbnails).
    styles: (photoSteps) => [styles, photoSteps, pathStyles, introStyles],
    capture: {
      limits: () => ({
        ...(this.maxImageBytes && { maxBytes: this.maxImageBytes }),
        ...(this.maxLongEdge && { maxLongEdge: this.maxLongEdge }),
      }),
    },
    submission: {
      pollOptions: () => this.pollOptions,
      maxImageBytes: () => this.maxImageBytes ?? DEFAULT_IMAGE_MAX_BYTES,
      clientSecret: () => this.#session.secret,
      sessionTaxId: () => (this.#session.session ? lockedTaxIdOf(this.#session.session.prefill) : null),
    },
    flow: {
      details: this.#details,
      shape: this.#shape,
      offeredTypes: () => parseDocumentTypes(this.#session.documentTypes(this.documentTypes)),
    },
    request: (photos) => {
      const proof = this.#shape().proofOfAddress ? this.#photo.proof?.proof : null;
      return { ...this.#details.request(photos), ...(proof && { proofOfAddress: proof.base64 }) };
    },
  });

  readonly #handoff: HandoffController = new HandoffController(this, {
    enabled: () => this.handoff,
    context: this.#context,
    session: this.#session,
    nav: this.#nav,
    photo: this.#photo,
    texts: this.#texts,
    documentType: () => this.#details.documentType,
    details: this.#details,
    restart: () => this.start(),
  });

  /** What the view reads: the controllers, and the host for its attributes and actions. */
  readonly #view: FlowParts = {
    context: this.#context,
    nav: this.#nav,
    session: this.#session,
    details: this.#details,
    photo: this.#photo,
    handoff: this.#handoff,
    texts: this.#texts,
    host: this,
  };

  /** Starts (or restarts) the flow at its first step, the intro, and moves focus to its heading. */
  start(): void {
    this.reset();
    this.#nav.presentStep();
  }

  /**
   * Cancels any upload or status watch, stops the camera, drops every photo (revoking its
   * object URL) and the access key, and returns to the first step (the intro) with the prefills.
   */
  reset(): void {
    this.#photo.reset();
    this.#handoff.reset();
    // Read again: a session may have been used or have expired since it was last read.
    if (this.#session.state !== 'none' || this.#session.stale) void this.#session.load();
    this.#details.reset();
    this.#nav.reset();
  }

  protected override willUpdate(): void {
    if (this.#session.stale) {
      // Another session (or endpoint) is another person's flow: nothing entered so far applies.
      if (this.hasUpdated) this.reset();
      else void this.#session.load();
    }
    const step = this.#nav.step;
    if (step === 'review' || step === 'upload' || step === 'processing' || step === 'outcome') void this.#texts.loadAfterSend();
  }

  override render(): TemplateResult {
    return renderFlow(this.#view);
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('onboarding-flow')) {
  customElements.define('onboarding-flow', OnboardingFlow);
}

declare global {
  interface HTMLElementTagNameMap {
    'onboarding-flow': OnboardingFlow;
  }
}
