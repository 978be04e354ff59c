import { LitElement, adoptStyles, html, nothing, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { DEFAULT_IMAGE_MAX_BYTES } from '@onboarding-kit/contract';
import type { CaptureRole } from '../image/pipeline.js';
import { normalizeEndpoint, type PollOptions } from '../api/index.js';
import type { CaptureController, PipelineLimits } from '../controllers/capture-controller.js';
import { DetailsController, type LockedTaxId } from '../controllers/details-controller.js';
import { NavigationController } from '../controllers/navigation-controller.js';
import { SessionController } from '../controllers/session-controller.js';
import { readKept, resumeKeyFor, type SubmissionController } from '../controllers/submission-controller.js';
import { OnboardingCancelEvent, OnboardingHandoffEvent, OnboardingSubmittedEvent } from '../events.js';
import { HandoffController } from '../handoff/handoff-controller.js';
import type { HandoffPanelHost } from '../handoff/handoff-panel.js';
import { messagesFor, resolveLocale, type Messages } from '../messages/index.js';
import { loadAfterSend, type AfterSendCatalog } from '../messages/load-after-send.js';
import { loadConsentText, type ConsentTextCatalog } from '../messages/load-consent-text.js';
import {
  CAPTURE_STEPS,
  DEFAULT_DOCUMENT_TYPES,
  FIRST_STEP,
  PROGRESS_STAGES,
  documentHasBack,
  isCaptureStep,
  parseDocumentTypes,
  rolesFor,
  stageOf,
  stepForRole,
  stepSequence,
  type OnboardingStep,
} from './steps.js';
import { styles } from './onboarding-flow.styles.js';
import { pathStyles } from './path.styles.js';
import { introStyles } from './intro.styles.js';
import { ControllerSlot, loadPhotoSteps, type PhotoSteps } from './load-photo-steps.js';
import { consentStep, cpfStep, documentTypeStep, introStep, pendingStep, sessionStep, stepHeading } from '../steps/index.js';

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
 * @event {OnboardingErrorEvent} onboarding-error - Something failed (camera, upload, status, session, and `face_detector_unavailable` when the selfie's face detector could not be loaded: the selfie is then checked for exposure and focus only). `detail: { code, message, externalId? }`. Session codes: `session_invalid` (the secret opens no session), `session_expired`, `session_used` (it already produced an onboarding), `session_unavailable` (it could not be read: a Retry button is shown), and on creation `session_mismatch`, `idempotency_conflict`, `idempotency_in_progress`. The secret is never in a detail.
 * @event {OnboardingCancelEvent} onboarding-cancel - The person declined consent or cancelled the upload. `detail: { step }`.
 *
 * @slot logo - Shown in the header, before the title.
 * @slot consent-extra - Extra consent text from the integrator (privacy policy link, DPO contact).
 * @slot outcome-approved - Extra content on the APPROVED screen (for example a "Continue" link).
 * @slot outcome-refused - Extra content on the REFUSED screen.
 * @slot outcome-error - Extra content on the ERROR screen (for example how to reach support).
 * @slot continue - On the APPROVED screen, where the person goes next (for example a "Continue" link back to the integrator's page).
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
 * @csspart actions - The row of buttons of the current step.
 * @csspart button - Every button (and the file-picker labels styled as one).
 * @csspart handoff-start - "Continue on your phone" on a capture step (the `handoff` attribute); the step's main action, first, when no camera is found.
 * @csspart handoff - The hand-off panel, in place of the step: the QR code and short code, then how the phone is doing.
 * @csspart handoff-qr - The QR code of the hand-off link (an SVG, black on white with its margin).
 * @csspart handoff-code - The short code to type on the phone, in large monospace.
 * @csspart handoff-status - The hand-off's status lines (waiting for the phone, connected, its step and the photos taken, sent).
 * @csspart camera-app - The "use the camera app" file picker, shown where the page cannot open the camera itself.
 * @csspart retake - A photo's retake link on the review step.
 * @csspart button-primary - The main button of a step.
 * @csspart progress - The upload progress bar.
 * @csspart capture-view - The camera view: a modal `<dialog>`, full screen on phones and short windows.
 * @csspart video - The live camera preview, at the camera's own aspect ratio (mirrored for a front camera).
 * @csspart guide - The cutout in the dark mask over the preview (an ID-1 card for documents, an oval for the selfie); what is inside it, with a small margin, is the photo saved. Gains the `ready` class while the automatic photo is coming.
 * @csspart shutter - The round shutter button, its ring filling while the automatic photo is coming.
 * @csspart capture-back - The camera view's back button (leaves the step).
 * @csspart capture-close - The camera view's close button (closes the camera, stays on the step).
 * @csspart capture-switch - The camera view's switch-camera button (only where the device has another camera).
 * @csspart capture-hint - The live hint on the preview ("Aproxime o documento", "Evite reflexos", "Segure firme…").
 * @csspart keep-anyway - "Usar mesmo assim": keeps a photo refused twice in a row for what it shows.
 * @csspart preview - A captured or rejected photo.
 * @csspart thumbnail - A photo on the review step.
 * @csspart error - Every error message.
 * @csspart outcome - The outcome message box.
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
 * @cssproperty --onboarding-max-width - Maximum width (default 40rem).
 */
export class OnboardingFlow extends LitElement {
  static override styles = [styles, pathStyles, introStyles];

  /** Companion base URL, with or without the trailing `/v1` (both are accepted). */
  @property() endpoint = '';

  #locale: string | null = null;

  /**
   * `pt-BR` (default), `en` or `es`; other tags fall back by language, then to `pt-BR`. Unset
   * (or set to an empty value), a session's locale applies; set, it wins over the session's.
   * Reading it gives the locale in effect.
   */
  @property()
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
  @property({ attribute: 'document-types' }) documentTypes = DEFAULT_DOCUMENT_TYPES;

  /** Prefills the CPF field (any punctuation). A session's CPF or CNPJ replaces it, locked. */
  @property() cpf = '';

  /** Prefills the optional name field. A session's name replaces it. */
  @property() name = '';

  /**
   * The client secret of a session opened by the integrator's backend (`POST /v1/sessions`, see
   * docs/backend-api.md). Set, the flow starts only once the session is read from
   * `GET <endpoint>/v1/session`, and the onboarding is created under it (`Authorization: Bearer`,
   * with an `Idempotency-Key` kept across retries of the same content). A secret: never
   * reflected, never in an event, a message or the rendered DOM. Changing it starts the flow over.
   */
  @property() session = '';

  /**
   * Offers "Continue on your phone" on the capture steps (first when no camera is found): a QR
   * code and a short code hand the session to a phone, and this page follows it there, shows the
   * outcome when it comes, and can take the session back. Needs a `session` opened by this page
   * (the hosted capture page sets both). Without it, a page that finds a phone holding its
   * session follows it all the same.
   */
  @property({ type: Boolean }) handoff = false;

  /** Target size in bytes for each compressed photo (the pipeline's default when unset). */
  @property({ attribute: 'max-image-bytes', type: Number }) maxImageBytes: number | undefined;

  /**
   * Turns the automatic photo off: the camera view still shows its live hints, and only the
   * shutter takes the photo. Off by default: a steady frame that passes the checks for about a
   * second is taken by itself (and the person is told).
   */
  @property({ attribute: 'manual-capture', type: Boolean }) manualCapture = false;

  /** Longest edge in pixels of each compressed photo (the pipeline's default when unset). */
  @property({ attribute: 'max-long-edge', type: Number }) maxLongEdge: number | undefined;

  /**
   * Timings of the polling fallback used when the status stream fails (JS property only;
   * defaults: first poll after 1 s, doubling up to 8 s, giving up after 5 minutes).
   */
  pollOptions: Partial<PollOptions> = {};

  @state() private copyNotice: 'copied' | 'copyFailed' | null = null;

  /** The waiting and outcome texts, loaded once the person nears sending (or a reload resumes a wait). */
  @state() private afterSend: AfterSendCatalog | null = null;

  /** The full consent text behind "Ler detalhes", loaded lazily once the element connects. */
  @state() private consentText: ConsentTextCatalog | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#loadConsentText();
  }

  /** A failed load is tried again when the person opens the disclosure. */
  #loadConsentText(): void {
    if (!this.consentText) loadConsentText().then((text) => (this.consentText = text), () => undefined);
  }

  /** The storage key last looked at for a wait to resume. */
  #resumeChecked: string | null = null;

  // The controllers' order is the order of their host callbacks: the camera binds its <video>
  // after a render before navigation moves focus.
  /** The capture controller (and its camera) take their turn here among the host callbacks once the photo steps are loaded. */
  readonly #captureSlot = new ControllerSlot(this);

  readonly #nav: NavigationController = new NavigationController(this, {
    sequence: () => stepSequence(this.#details.documentType),
    messages: () => this.m,
    heading: (step) => this.#heading(step),
    leave: () => {
      this.#capture?.leaveStep();
      this.copyNotice = null;
    },
    photosComplete: () => rolesFor(this.#details.documentType).every((role) => this.#capture?.photo(role)),
  });

  readonly #session: SessionController = new SessionController(this, {
    secret: () => this.session || '',
    endpoint: () => normalizeEndpoint(this.endpoint || ''),
    messages: () => this.m,
    quiet: () => this.#nav.step === 'processing' || this.#nav.step === 'outcome',
    // Someone was told "preparing": the step they can now use is told too.
    loaded: (session) => {
      if (this.#nav.announcement) this.#nav.announceStep();
      this.#handoff.loaded(session);
    },
  });

  readonly #handoff: HandoffController = new HandoffController(this, {
    enabled: () => this.handoff,
    session: () => this.#session.session,
    secret: () => this.session || '',
    endpoint: () => normalizeEndpoint(this.endpoint || ''),
    progress: () => {
      const step = this.#nav.step;
      const sent = step === 'processing' || step === 'outcome';
      return { step, photos: rolesFor(this.#details.documentType).filter((role) => sent || this.#capture?.photo(role)) };
    },
    shown: () => {
      this.#nav.presentStep();
      this.#nav.announce(this.#heading(this.#nav.step));
    },
    lost: () => {
      if (this.#session.problem === 'handedOff') return;
      this.#capture?.reset();
      this.#session.fail('handedOff');
      this.#nav.goTo(FIRST_STEP);
      this.#nav.presentStep();
      this.dispatchEvent(new OnboardingHandoffEvent({ state: 'reclaimed' }));
    },
  });

  /** What the hand-off panel reaches of the flow. */
  readonly #panelHost: HandoffPanelHost = {
    secret: () => this.session || '',
    state: (state) => {
      if (state === 'claimed') {
        this.#handoff.following();
        // The phone's outcome will show here: its words are fetched now, to come with its heading.
        void this.#afterSendTexts();
      }
      this.dispatchEvent(new OnboardingHandoffEvent({ state }));
    },
    announce: (text) => this.#nav.announce(text),
    submitted: (tokenOnboarding) => this.dispatchEvent(new OnboardingSubmittedEvent({ tokenOnboarding })),
    completed: (outcome) => {
      this.#handoff.close();
      // Shown once its words are in (at once when they came ahead; without them if they cannot load).
      void this.#afterSendTexts().then(() => this.#withPhotoSteps('outcome', () => this.#submission!.showOutcome(outcome)));
    },
    back: (session) => {
      this.#handoff.close();
      if (session) this.#session.replace(session);
      else void this.#session.load();
      this.#nav.presentStep();
    },
    ended: () => this.start(),
  };

  readonly #details: DetailsController = new DetailsController(this, {
    prefill: () => {
      const session = this.#session.session;
      return {
        cpf: this.cpf,
        name: session?.prefill.name ?? this.name,
        documentTypes: this.#documentTypes(),
        lockedTaxId: session ? lockedTaxId(session.prefill) : null,
      };
    },
    goTo: (step) => this.#nav.goTo(step),
    next: () => this.#nav.next(),
    documentTypeChanged: () => this.#capture?.remove('documentFront', 'documentBack'),
  });

  /** The photo steps (capture, review, upload, wait, outcome) with their controllers, once loaded. */
  #photo: PhotoSteps | null = null;
  #capture: CaptureController | null = null;
  #submission: SubmissionController | null = null;
  #photoLoading = false;
  /** The step the person was on when the photo steps last failed to load (null: no failure). */
  #photoFailedAt: OnboardingStep | null = null;
  /** What waits for the photo steps (a resumed wait, a phone's outcome): run once they are loaded. */
  #whenPhotoSteps: (() => void)[] = [];

  /**
   * Fetches the photo steps (once; fetched ahead while the person fills in the consent and data
   * steps) and creates their controllers. A failure shows on the steps that need them, with a
   * Retry that fetches again.
   */
  #loadPhotoSteps(): void {
    if (this.#photo || this.#photoLoading) return;
    this.#photoLoading = true;
    loadPhotoSteps().then(
      (module) => {
        this.#photoLoading = false;
        this.#photoFailedAt = null;
        if (!this.#photo) this.#photoStepsLoaded(module);
      },
      () => {
        this.#photoLoading = false;
        this.#photoFailedAt = this.#nav.step;
        this.requestUpdate();
      },
    );
    this.requestUpdate();
  }

  /** Runs `then` now if the photo steps are loaded, else shows `step` (its part loading) and runs it once they are. */
  #withPhotoSteps(step: OnboardingStep, then: () => void): void {
    if (this.#photo) return then();
    this.#whenPhotoSteps.push(then);
    this.#nav.goTo(step);
    this.#loadPhotoSteps();
  }

  #photoStepsLoaded(module: PhotoSteps): void {
    this.#photo = module;
    // Their styles come with them, adopted before they first render: right after the base
    // styles, which the path's styles refine (the compact review grid over the base thumbnails).
    adoptStyles(this.renderRoot as ShadowRoot, [styles, module.photoStepsStyles(), pathStyles, introStyles]);
    // The controllers' order is the order of their host callbacks: the camera binds its <video>
    // after a render before navigation moves focus (the slot stands before navigation).
    this.#capture = new module.CaptureController(this.#captureSlot.host, {
      activeRole: () => (isCaptureStep(this.#nav.step) ? CAPTURE_STEPS[this.#nav.step] : null),
      limits: (): PipelineLimits => ({
        ...(this.maxImageBytes && { maxBytes: this.maxImageBytes }),
        ...(this.maxLongEdge && { maxLongEdge: this.maxLongEdge }),
      }),
      messages: () => this.m,
      locale: () => resolveLocale(this.locale),
      announce: (text) => this.#nav.announce(text),
    });
    this.#submission = new module.SubmissionController(this, {
      endpoint: () => normalizeEndpoint(this.endpoint || ''),
      pollOptions: () => this.pollOptions,
      maxImageBytes: () => this.maxImageBytes ?? DEFAULT_IMAGE_MAX_BYTES,
      request: () => this.#details.request(this.#capture!.photos),
      messages: () => this.m,
      announce: (text) => this.#nav.announce(text),
      goTo: (step) => this.#nav.goTo(step),
      sent: () => this.#capture!.clear(),
      clientSecret: () => this.#session.secret,
      resumeKey: () => resumeKeyFor(normalizeEndpoint(this.endpoint || ''), this.session || ''),
    });
    for (const then of this.#whenPhotoSteps.splice(0)) then();
    this.requestUpdate();
  }

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
    this.#capture?.reset();
    this.#submission?.reset();
    this.#whenPhotoSteps = [];
    this.#handoff.reset();
    // Read again: a session may have been used or have expired since it was last read.
    if (this.#session.state !== 'none' || this.#session.stale) void this.#session.load();
    this.#details.reset();
    this.copyNotice = null;
    this.#nav.reset();
  }

  protected override willUpdate(): void {
    if (this.#session.stale) {
      // Another session (or endpoint) is another person's flow: nothing entered so far applies.
      if (this.hasUpdated) this.reset();
      else void this.#session.load();
    }
    // A reload while the outcome was awaited: wait again (or show it) instead of starting over,
    // also when a framework sets the endpoint or the session after the first render.
    const key = resumeKeyFor(normalizeEndpoint(this.endpoint || ''), this.session || '');
    if (key !== this.#resumeChecked && this.#nav.step === FIRST_STEP) {
      this.#resumeChecked = key;
      if (this.#submission) this.#submission.resume();
      else if (key && readKept(key, normalizeEndpoint(this.endpoint || ''))) this.#withPhotoSteps('processing', () => this.#submission!.resume());
    }
    const step = this.#nav.step;
    // Fetched ahead from the consent step on, so that nobody waits for the camera step; after a
    // failure, again on the next step that needs it.
    const failedAt = this.#photoFailedAt;
    if (failedAt === null ? step !== FIRST_STEP : failedAt !== step && needsPhotoSteps(step)) this.#loadPhotoSteps();
    if (step === 'review' || step === 'upload' || step === 'processing' || step === 'outcome') void this.#afterSendTexts();
  }

  // ---------------------------------------------------------------- internals

  /** The waiting and outcome texts, loaded once; unavailable (offline, a file not hosted), the headings and the status still show. */
  #afterSendTexts(): Promise<void> {
    if (this.afterSend) return Promise.resolve();
    return loadAfterSend().then(
      (catalog) => {
        this.afterSend = catalog;
      },
      () => undefined,
    );
  }

  private get m(): Messages {
    return messagesFor(this.locale);
  }

  /** The document types offered: the session's when it names some, else the attribute's. */
  #documentTypes(): string {
    const types = this.#session.session?.documentTypes ?? [];
    return types.length > 0 ? types.join(',') : this.documentTypes;
  }

  /** Whether the session keeps the flow from starting: being read, or unusable. */
  get #sessionBlocks(): boolean {
    const state = this.#session.state;
    return this.#nav.step === FIRST_STEP && (state === 'loading' || state === 'failed');
  }

  #heading(step: OnboardingStep): string {
    const mode = this.#handoff.mode;
    if (mode) {
      const t = this.#handoff.kit?.handoffTexts[resolveLocale(this.locale)];
      return !t ? this.m.session.loadingHeading : mode === 'offer' ? t.headingOffer : t.headingFollow;
    }
    if (step === FIRST_STEP && this.#sessionBlocks) {
      const s = this.m.session;
      const problem = this.#session.problem;
      return !problem ? s.loadingHeading : problem === 'unavailable' ? s.unavailableHeading : problem === 'handedOff' ? s.handedOffHeading : s.failedHeading;
    }
    if (step === 'cpf' && this.#details.lockedKind === 'cnpj') return this.m.cpf.headingCnpj;
    return stepHeading(this.m, step, { documentType: this.#details.documentType, outcome: this.#submission?.outcome?.status ?? null, uploadFailed: !!this.#submission?.uploadError });
  }

  /** "Start again", except under a session: it yields one onboarding, so a new flow could only be refused. */
  #restart(): (() => void) | undefined {
    return this.#session.state === 'none' ? () => this.start() : undefined;
  }

  /**
   * A new onboarding with new photos: what the person entered is kept and the flow goes back to
   * the first photo; after a reload nothing entered is left, so it starts over.
   */
  #retryPhotos(): void {
    if (!this.#details.consent || !this.#details.documentType) return this.start();
    this.#capture!.reset();
    this.#submission!.reset();
    this.copyNotice = null;
    this.#nav.goTo('document-front');
  }

  #retakeFromReview(role: CaptureRole): void {
    this.#capture!.remove(role);
    this.#nav.retakeFromReview(stepForRole(role));
  }

  async #copySupportCode(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this.copyNotice = 'copied';
    } catch {
      this.copyNotice = 'copyFailed';
    }
    const t = this.afterSend?.[resolveLocale(this.locale)];
    if (t) this.#nav.announce(t[this.copyNotice]);
  }

  // ---------------------------------------------------------------- step views

  #renderStep(): TemplateResult {
    const m = this.m;
    const step = this.#nav.step;
    const handoff = this.#handoff;
    if (handoff.mode) {
      return handoff.kit
        ? html`<onboarding-handoff-panel
            exportparts="handoff, handoff-qr, handoff-code, handoff-status, actions, button, button-primary, error, offline"
            .mode=${handoff.mode}
            .endpoint=${normalizeEndpoint(this.endpoint || '')}
            .locale=${resolveLocale(this.locale)}
            .noCamera=${handoff.noCamera}
            .host=${this.#panelHost}
          ></onboarding-handoff-panel>`
        : sessionStep({ m, problem: null, onRetry: () => undefined });
    }
    const details = this.#details;
    const onBack = () => this.#nav.back();
    if (needsPhotoSteps(step)) {
      const photo = this.#photo;
      if (!photo) {
        return pendingStep({
          m,
          failed: !this.#photoLoading && this.#photoFailedAt !== null,
          // The Retry button goes: focus stays on the step, at its heading, which is read again.
          onRetry: () => {
            this.#nav.presentStep();
            this.#loadPhotoSteps();
          },
        });
      }
      const locale = resolveLocale(this.locale);
      const alone = this.#session.state === 'none';
      return photo.renderPhotoStep({
        m,
        step,
        capture: this.#capture!,
        submission: this.#submission!,
        nav: this.#nav,
        heading: (s) => this.#heading(s),
        locale,
        autoCapture: !this.manualCapture,
        handoff: handoff.available ? { noCamera: handoff.noCamera, open: () => void handoff.open('offer') } : null,
        documentType: details.documentType,
        lockedTaxId: !!details.lockedKind,
        afterSend: this.afterSend?.[locale] ?? null,
        copyNotice: this.copyNotice,
        onCopy: (code) => void this.#copySupportCode(code),
        // A session's backend is told the outcome; without one, only this page learns it.
        canClose: !alone,
        retakeFromReview: (role) => this.#retakeFromReview(role),
        onRestart: this.#restart(),
        onRetryPhotos: alone ? () => this.#retryPhotos() : undefined,
      });
    }
    if (this.#sessionBlocks) return sessionStep({ m, problem: this.#session.problem, onRetry: () => void this.#session.load() });
    switch (step) {
      case 'intro': {
        const types = parseDocumentTypes(this.#documentTypes());
        // The photos of the offered document that has the most: a back side is pictured if any has one.
        return introStep({ m, types, roles: rolesFor(types.find((t) => documentHasBack(t)) ?? types[0]), onStart: () => this.#nav.next() });
      }
      case 'consent':
        return consentStep({
          m,
          checked: details.consent,
          error: details.consentError,
          full: this.consentText?.[resolveLocale(this.locale)] ?? null,
          onChange: (e) => details.onConsentChange(e),
          onSubmit: (e) => details.onConsentSubmit(e),
          onDecline: () => this.dispatchEvent(new OnboardingCancelEvent({ step: this.#nav.step })),
          onToggle: () => this.#loadConsentText(),
        });
      case 'cpf':
        return cpfStep({
          m,
          cpf: details.cpf,
          name: details.name,
          cpfError: details.cpfError,
          nameError: details.nameError,
          locked: details.lockedKind,
          onCpfInput: (e) => details.onCpfInput(e),
          onNameInput: (e) => details.onNameInput(e),
          onSubmit: (e) => details.onCpfSubmit(e),
          onBack,
        });
      case 'document-type':
        return documentTypeStep({
          m,
          types: parseDocumentTypes(this.#documentTypes()),
          selected: details.documentType,
          error: details.documentTypeError,
          onChange: (e) => details.onDocumentTypeChange(e),
          onSubmit: (e) => details.onDocumentTypeSubmit(e),
          onBack,
        });
      default:
        return html``;
    }
  }

  /** The steps a person recognises, the current one marked; the document step counts its sides. */
  #renderStages(): TemplateResult | typeof nothing {
    const m = this.m.flow;
    const step = this.#nav.step;
    const current = stageOf(step);
    if (!current || this.#sessionBlocks || this.#handoff.mode) return nothing;
    // The steps before the current one read as done from the list's order (the styles colour them).
    const sub = current === 'document' && documentHasBack(this.#details.documentType) ? ` · ${m.side(step === 'document-back' ? 2 : 1, 2)}` : '';
    // Where five labels have no room (the styles decide, by the width in text size), the list
    // shows its bars only and this line says where the person is ("Etapa 2 de 5: Dados").
    const compact = m.announceStep(`${m.stages[current]}${sub}`, PROGRESS_STAGES.indexOf(current) + 1, PROGRESS_STAGES.length);
    return html`
      <ol class="stages" part="stages" aria-label=${m.progressLabel}>
        ${PROGRESS_STAGES.map((stage) =>
          stage === current
            ? html`<li part="stage stage-current" aria-current="step"><span>${m.stages[stage]}${sub}</span></li>`
            : html`<li part="stage"><span>${m.stages[stage]}</span></li>`,
        )}
      </ol>
      <p class="stages-compact" aria-hidden="true">${compact}</p>
    `;
  }

  override render(): TemplateResult {
    const step = this.#nav.step;
    return html`
      <div class="base" part="base" lang=${resolveLocale(this.locale)}>
        <div class="header" part="header">
          <slot name="logo"></slot>
          <p>${this.m.flow.title}</p>
          ${this.#renderStages()}
        </div>
        <section
          class="step"
          part="step"
          aria-labelledby="heading"
          aria-busy=${this.#session.state === 'loading' || (this.#photoLoading && needsPhotoSteps(step)) ? 'true' : 'false'}
          data-step=${this.#handoff.mode ? 'handoff' : step}
        >
          <h2 id="heading" part="heading" tabindex="-1">${this.#heading(step)}</h2>
          ${this.#renderStep()}
        </section>
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.#nav.announcement}</div>
      </div>
    `;
  }
}

/** Whether `step` is shown by the lazily loaded photo steps (everything after the data steps). */
function needsPhotoSteps(step: OnboardingStep): boolean {
  return isCaptureStep(step) || step === 'review' || step === 'upload' || step === 'processing' || step === 'outcome';
}

/** The session's CPF, else its CNPJ, as the form locks it. */
function lockedTaxId(prefill: { cpf?: string; cnpj?: string }): LockedTaxId | null {
  if (prefill.cpf) return { kind: 'cpf', value: prefill.cpf };
  if (prefill.cnpj) return { kind: 'cnpj', value: prefill.cnpj };
  return null;
}

if (typeof customElements !== 'undefined' && !customElements.get('onboarding-flow')) {
  customElements.define('onboarding-flow', OnboardingFlow);
}

declare global {
  interface HTMLElementTagNameMap {
    'onboarding-flow': OnboardingFlow;
  }
}
