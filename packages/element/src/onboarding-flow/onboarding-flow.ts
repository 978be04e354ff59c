import { LitElement, html, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import {
  DEFAULT_IMAGE_MAX_BYTES,
  formatCpf,
  isValidCpf,
  maskCpfInput,
  onlyDigits,
  validateCreateOnboarding,
  type CreateOnboardingRequest,
  type OnboardingState,
} from '@onboarding-kit/contract';
import { CameraController } from '../camera/camera-controller.js';
import type { CaptureRole, ImageCheckCode, ProcessedImage } from '../image/pipeline.js';
import { CompanionError, createOnboarding, normalizeEndpoint, watchStatus, type PollOptions } from '../api/index.js';
import {
  OnboardingCancelEvent,
  OnboardingCaptureEvent,
  OnboardingCompleteEvent,
  OnboardingErrorEvent,
  OnboardingStepChangeEvent,
  OnboardingSubmittedEvent,
} from '../events.js';
import { messagesFor, resolveLocale, type Messages } from '../messages/index.js';
import {
  CAPTURE_STEPS,
  DEFAULT_DOCUMENT_TYPES,
  isCaptureStep,
  parseDocumentTypes,
  rolesFor,
  stepForRole,
  stepSequence,
  type OnboardingStep,
} from './steps.js';
import { styles } from './onboarding-flow.styles.js';
import { captureStep, consentStep, cpfStep, documentTypeStep, outcomeStep, processingStep, reviewStep, uploadErrorStep, uploadStep, type CpfProblem } from '../steps/index.js';

type TerminalState = OnboardingState & { status: 'APPROVED' | 'REFUSED' | 'ERROR' };

interface RejectedPhoto {
  role: CaptureRole;
  code: ImageCheckCode;
  /** Object URL of the rejected source, when it is an image the browser can show. */
  previewUrl: string | null;
}

/**
 * An identity-verification flow for Brazil: LGPD consent, CPF, document type, document photos
 * (front and, where the document has one, back) and a selfie from the camera or from files,
 * review, upload with real progress, then the upstream's decision relayed by the companion.
 *
 * @tag onboarding-flow
 * @summary Captures CPF, document photos and a selfie and shows the KYC outcome.
 *
 * @event {OnboardingStepChangeEvent} onboarding-step-change - The visible step changed. `detail: { step, previous }`.
 * @event {OnboardingCaptureEvent} onboarding-capture - A photo passed the checks. `detail: { role, bytes, width, height }` (never the image).
 * @event {OnboardingSubmittedEvent} onboarding-submitted - The companion accepted the upload. `detail: { tokenOnboarding }`.
 * @event {OnboardingCompleteEvent} onboarding-complete - A final status arrived. `detail: { tokenOnboarding, status, externalId? }`.
 * @event {OnboardingErrorEvent} onboarding-error - Something failed (camera, upload, status). `detail: { code, message, externalId? }`.
 * @event {OnboardingCancelEvent} onboarding-cancel - The person declined consent or cancelled the upload. `detail: { step }`.
 *
 * @slot logo - Shown in the header, before the step counter.
 * @slot consent-extra - Extra consent text from the integrator (privacy policy link, DPO contact).
 * @slot outcome-approved - Extra content on the APPROVED screen (for example a "Continue" link).
 * @slot outcome-refused - Extra content on the REFUSED screen.
 * @slot outcome-error - Extra content on the ERROR screen (for example how to reach support).
 *
 * @csspart base - The wrapper of everything.
 * @csspart header - The header with the logo slot and the step counter.
 * @csspart step - The section of the current step.
 * @csspart heading - The heading of the current step (focused on each step change).
 * @csspart body - The content of the current step.
 * @csspart actions - The row of buttons of the current step.
 * @csspart button - Every button (and the file-picker label styled as one).
 * @csspart button-primary - The main button of a step.
 * @csspart progress - The upload progress bar.
 * @csspart video - The live camera preview.
 * @csspart guide - The framing guide over the camera (card frame or face oval).
 * @csspart preview - A captured or rejected photo.
 * @csspart thumbnail - A photo on the review step.
 * @csspart error - Every error message.
 * @csspart outcome - The outcome message box.
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
  static override styles = styles;

  /** The camera, opened only on request and stopped on every step change. */
  private readonly camera = new CameraController(this);

  /** Companion base URL, with or without the trailing `/v1` (both are accepted). */
  @property() endpoint = '';

  /** `pt-BR` (default), `en` or `es`; other tags fall back by language, then to `pt-BR`. */
  @property() locale = 'pt-BR';

  /** Comma-separated document types offered, in order. PASSPORT has no back side. */
  @property({ attribute: 'document-types' }) documentTypes = DEFAULT_DOCUMENT_TYPES;

  /** Prefills the CPF field (any punctuation). */
  @property() cpf = '';

  /** Prefills the optional name field. */
  @property() name = '';

  /** Target size in bytes for each compressed photo (the pipeline's default when unset). */
  @property({ attribute: 'max-image-bytes', type: Number }) maxImageBytes: number | undefined;

  /** Longest edge in pixels of each compressed photo (the pipeline's default when unset). */
  @property({ attribute: 'max-long-edge', type: Number }) maxLongEdge: number | undefined;

  /**
   * Timings of the polling fallback used when the status stream fails (JS property only;
   * defaults: first poll after 1 s, doubling up to 8 s, giving up after 5 minutes).
   */
  pollOptions: Partial<PollOptions> = {};

  @state() private step: OnboardingStep = 'consent';
  @state() private consentChecked = false;
  @state() private consentError = false;
  @state() private cpfValue = '';
  @state() private nameValue = '';
  @state() private cpfError: CpfProblem | null = null;
  @state() private nameError = false;
  @state() private documentType: string | null = null;
  @state() private documentTypeError = false;
  @state() private captures: Partial<Record<CaptureRole, ProcessedImage>> = {};
  @state() private rejected: RejectedPhoto | null = null;
  @state() private checking = false;
  @state() private returnToReview = false;
  @state() private uploadPercent: number | null = null;
  @state() private uploadError: CompanionError | null = null;
  @state() private uploadCancelled = false;
  @state() private tokenOnboarding: string | null = null;
  @state() private liveStatus: OnboardingState | null = null;
  @state() private processingError: 'gave-up' | 'lost' | null = null;
  @state() private outcome: TerminalState | null = null;
  @state() private copyNotice: 'copied' | 'copyFailed' | null = null;
  @state() private announcement = '';

  /** The onboarding's read key: memory only, never in a URL, an event or the DOM. */
  #accessKey: string | null = null;
  #uploadAbort: AbortController | null = null;
  #watchAbort: AbortController | null = null;
  #pipelineAbort: AbortController | null = null;
  #lastSource: 'camera' | 'file' | null = null;
  #focusHeading = false;
  /** Whether focus was inside the element before the current render (to restore it if the render removed it). */
  #focusWasInside = false;
  #prefilledCpf = '';
  #prefilledName = '';

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the DOM mid-flow: what disconnectedCallback cancelled resumes or says so.
    if (this.step === 'processing' && this.#accessKey && !this.#watchAbort && !this.processingError) void this.#watch();
    if (this.step === 'upload' && !this.#uploadAbort && !this.uploadError && this.uploadPercent !== null) {
      this.#failUpload(new CompanionError({ code: 'aborted', message: 'The upload was interrupted.', status: 0 }));
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abortAll();
  }

  override willUpdate(changed: PropertyValues<this>): void {
    this.#focusWasInside = !!this.shadowRoot?.activeElement;
    // Prefills apply until the person edits the field.
    if (changed.has('cpf') && this.cpfValue === this.#prefilledCpf) {
      this.cpfValue = this.#prefilledCpf = maskCpfInput(this.cpf ?? '');
    }
    if (changed.has('name') && this.nameValue === this.#prefilledName) {
      this.nameValue = this.#prefilledName = this.name ?? '';
    }
    if (changed.has('documentTypes')) {
      const types = parseDocumentTypes(this.documentTypes);
      if (this.documentType && !types.includes(this.documentType)) this.documentType = null;
      if (!this.documentType && types.length === 1) this.documentType = types[0]!;
    }
  }

  override updated(): void {
    this.camera.attach(isCaptureStep(this.step) ? this.renderRoot.querySelector('video') : null);
    if (this.#focusHeading) {
      this.#focusHeading = false;
      this.renderRoot.querySelector<HTMLElement>('h2')?.focus();
    } else if (this.#focusWasInside && !this.shadowRoot?.activeElement) {
      // The focused control was replaced (camera went live, photo accepted): keyboard users
      // continue from the step's main action instead of the top of the page.
      this.renderRoot.querySelector<HTMLElement>('[part~=button-primary]:not([disabled])')?.focus();
    }
  }

  /** Starts (or restarts) the flow at the consent step and moves focus to its heading. */
  start(): void {
    this.reset();
    this.#focusHeading = true;
    this.#announceStep();
    this.requestUpdate();
  }

  /**
   * Cancels any upload or status watch, stops the camera, drops every photo (revoking its
   * object URL) and the access key, and returns to the consent step with the prefills.
   */
  reset(): void {
    this.#abortAll();
    this.#dropImages();
    this.#accessKey = null;
    this.consentChecked = false;
    this.consentError = false;
    this.cpfValue = this.#prefilledCpf = maskCpfInput(this.cpf ?? '');
    this.nameValue = this.#prefilledName = this.name ?? '';
    this.cpfError = null;
    this.nameError = false;
    const types = parseDocumentTypes(this.documentTypes);
    this.documentType = types.length === 1 ? types[0]! : null;
    this.documentTypeError = false;
    this.checking = false;
    this.returnToReview = false;
    this.uploadPercent = null;
    this.uploadError = null;
    this.uploadCancelled = false;
    this.tokenOnboarding = null;
    this.liveStatus = null;
    this.processingError = null;
    this.outcome = null;
    this.copyNotice = null;
    this.announcement = '';
    this.#lastSource = null;
    const previous = this.step;
    this.step = 'consent';
    if (previous !== 'consent') this.dispatchEvent(new OnboardingStepChangeEvent({ step: 'consent', previous }));
  }

  // ---------------------------------------------------------------- internals

  private get m(): Messages {
    return messagesFor(this.locale);
  }

  private get base(): string {
    return normalizeEndpoint(this.endpoint || '');
  }

  #abortAll(): void {
    this.camera.stop();
    this.#pipelineAbort?.abort();
    this.#pipelineAbort = null;
    this.#uploadAbort?.abort();
    this.#uploadAbort = null;
    this.#watchAbort?.abort();
    this.#watchAbort = null;
  }

  #dropImages(): void {
    for (const capture of Object.values(this.captures)) if (capture) URL.revokeObjectURL(capture.previewUrl);
    this.captures = {};
    this.#clearRejected();
  }

  #clearRejected(): void {
    if (this.rejected?.previewUrl) URL.revokeObjectURL(this.rejected.previewUrl);
    this.rejected = null;
  }

  #sequence(): OnboardingStep[] {
    return stepSequence(this.documentType);
  }

  #goTo(step: OnboardingStep): void {
    if (step === this.step) return;
    const previous = this.step;
    this.camera.stop();
    this.#pipelineAbort?.abort();
    this.#pipelineAbort = null;
    this.checking = false;
    this.#clearRejected();
    this.copyNotice = null;
    this.step = step;
    this.#focusHeading = true;
    this.#announceStep();
    this.dispatchEvent(new OnboardingStepChangeEvent({ step, previous }));
  }

  #next(): void {
    if (this.returnToReview && isCaptureStep(this.step)) {
      const missing = rolesFor(this.documentType).find((role) => !this.captures[role]);
      if (!missing) {
        this.returnToReview = false;
        return this.#goTo('review');
      }
    }
    const seq = this.#sequence();
    const next = seq[seq.indexOf(this.step) + 1];
    if (next) this.#goTo(next);
  }

  #back(): void {
    if (this.returnToReview && isCaptureStep(this.step)) {
      this.returnToReview = false;
      return this.#goTo('review');
    }
    const seq = this.#sequence();
    const previous = seq[seq.indexOf(this.step) - 1];
    if (previous) this.#goTo(previous);
  }

  #announce(text: string): void {
    // A changed string is what makes screen readers speak a polite region again.
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  #announceStep(): void {
    const seq = this.#sequence();
    const index = seq.indexOf(this.step);
    const heading = this.#headingText();
    const guidance = isCaptureStep(this.step) ? ` ${this.step === 'selfie' ? this.m.capture.guideSelfie : this.m.capture.guideDocument}` : '';
    this.#announce(`${this.m.flow.announceStep(heading, index + 1, seq.length)}.${guidance}`);
  }

  #documentName(): string {
    const type = this.documentType ?? '';
    return this.m.documentType.names[type] ?? type;
  }

  #headingText(): string {
    const m = this.m;
    switch (this.step) {
      case 'consent':
        return m.consent.heading;
      case 'cpf':
        return m.cpf.heading;
      case 'document-type':
        return m.documentType.heading;
      case 'document-front':
        return m.capture.headingFront(this.#documentName());
      case 'document-back':
        return m.capture.headingBack(this.#documentName());
      case 'selfie':
        return m.capture.headingSelfie;
      case 'review':
        return m.review.heading;
      case 'upload':
        return m.upload.heading;
      case 'processing':
        return m.processing.heading;
      case 'outcome':
        return this.outcome?.status === 'APPROVED'
          ? m.outcome.approvedHeading
          : this.outcome?.status === 'REFUSED'
            ? m.outcome.refusedHeading
            : m.outcome.errorHeading;
    }
  }

  #emitError(code: string, message: string, externalId?: string): void {
    this.dispatchEvent(new OnboardingErrorEvent({ code, message, ...(externalId && { externalId }) }));
  }

  // ---------------------------------------------------------------- consent

  #onConsentChange(e: Event): void {
    this.consentChecked = (e.target as HTMLInputElement).checked;
    if (this.consentChecked) this.consentError = false;
  }

  #onConsentSubmit(e: SubmitEvent): void {
    e.preventDefault();
    if (!this.consentChecked) {
      this.consentError = true;
      this.renderRoot.querySelector<HTMLInputElement>('#consent')?.focus();
      return;
    }
    this.#goTo('cpf');
  }

  #onDecline(): void {
    this.dispatchEvent(new OnboardingCancelEvent({ step: this.step }));
  }

  // ---------------------------------------------------------------- CPF

  #onCpfInput(e: InputEvent): void {
    const input = e.target as HTMLInputElement;
    const raw = input.value;
    // Keep the caret after the same number of digits once punctuation is added or removed.
    const digitsBefore = onlyDigits(raw.slice(0, input.selectionStart ?? raw.length)).length;
    const masked = maskCpfInput(raw);
    let caret = 0;
    for (let seen = 0; caret < masked.length && seen < digitsBefore; caret++) if (/\d/.test(masked[caret]!)) seen++;
    if (input.value !== masked) {
      input.value = masked;
      input.setSelectionRange(caret, caret);
    }
    this.cpfValue = masked;
    if (this.cpfError && this.#cpfProblem(masked) === null) this.cpfError = null;
  }

  #cpfProblem(value: string): CpfProblem | null {
    const digits = onlyDigits(value);
    if (digits.length === 0) return 'errorEmpty';
    if (digits.length < 11) return 'errorIncomplete';
    if (!isValidCpf(value)) return 'errorCheckDigits';
    return null;
  }

  #onNameInput(e: InputEvent): void {
    this.nameValue = (e.target as HTMLInputElement).value;
    if (this.nameError) this.nameError = false;
  }

  #nameIsInvalid(): boolean {
    if (!this.nameValue.trim()) return false;
    // The contract's own rule: with a valid CPF and no images, a bad name is the first failure.
    const check = validateCreateOnboarding({ cpf: '529.982.247-25', name: this.nameValue.trim(), images: {} });
    return !check.ok && check.error.field === 'name';
  }

  #onCpfSubmit(e: SubmitEvent): void {
    e.preventDefault();
    this.cpfError = this.#cpfProblem(this.cpfValue);
    this.nameError = this.#nameIsInvalid();
    if (this.cpfError) {
      this.renderRoot.querySelector<HTMLInputElement>('#cpf')?.focus();
      return;
    }
    if (this.nameError) {
      this.renderRoot.querySelector<HTMLInputElement>('#name')?.focus();
      return;
    }
    this.#goTo('document-type');
  }

  // ---------------------------------------------------------------- document type

  #onDocumentTypeChange(e: Event): void {
    const type = (e.target as HTMLInputElement).value;
    if (type === this.documentType) return;
    this.documentType = type;
    this.documentTypeError = false;
    // Photos of another document no longer apply.
    for (const role of ['documentFront', 'documentBack'] as const) this.#removeCapture(role);
  }

  #onDocumentTypeSubmit(e: SubmitEvent): void {
    e.preventDefault();
    if (!this.documentType) {
      this.documentTypeError = true;
      this.renderRoot.querySelector<HTMLInputElement>('input[type=radio]')?.focus();
      return;
    }
    this.#next();
  }

  // ---------------------------------------------------------------- capture

  #removeCapture(role: CaptureRole): void {
    const existing = this.captures[role];
    if (!existing) return;
    URL.revokeObjectURL(existing.previewUrl);
    const { [role]: _dropped, ...rest } = this.captures;
    this.captures = rest;
  }

  async #openCamera(): Promise<void> {
    if (!isCaptureStep(this.step) || this.camera.state === 'starting' || this.checking) return;
    const step = this.step;
    this.#clearRejected();
    await this.camera.start(step === 'selfie' ? 'user' : 'environment');
    if (this.step !== step) return;
    if (this.camera.state === 'live') this.#announce(this.m.capture.cameraLive);
    const error = this.camera.error;
    if (this.camera.state === 'error' && error) this.#emitError(`camera_${error.code}`, this.m.cameraErrors[error.code]);
  }

  async #takePhoto(): Promise<void> {
    if (!isCaptureStep(this.step) || this.checking) return;
    const role = CAPTURE_STEPS[this.step];
    let frame: Blob;
    try {
      frame = await this.camera.capture();
    } catch {
      this.#announce(this.m.cameraErrors.aborted);
      return;
    }
    this.camera.stop();
    this.#lastSource = 'camera';
    await this.#process(frame, role);
  }

  #onFileChange(e: Event): void {
    if (!isCaptureStep(this.step)) return;
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again still fires `change`.
    input.value = '';
    if (!file) return;
    this.camera.stop();
    this.#lastSource = 'file';
    void this.#process(file, CAPTURE_STEPS[this.step]);
  }

  async #process(source: Blob, role: CaptureRole): Promise<void> {
    this.#pipelineAbort?.abort();
    const abort = new AbortController();
    this.#pipelineAbort = abort;
    this.#clearRejected();
    this.checking = true;
    this.#announce(this.m.capture.checking);
    try {
      // Loaded on first use: the compression library stays out of the element's first load.
      const { processImage } = await import('../image/pipeline.js');
      const image = await processImage(source, {
        role,
        signal: abort.signal,
        ...(this.maxImageBytes && { maxBytes: this.maxImageBytes }),
        ...(this.maxLongEdge && { maxLongEdge: this.maxLongEdge }),
      });
      if (abort.signal.aborted || !isCaptureStep(this.step) || CAPTURE_STEPS[this.step] !== role) {
        URL.revokeObjectURL(image.previewUrl);
        return;
      }
      this.#removeCapture(role);
      this.captures = { ...this.captures, [role]: image };
      this.#announce(this.m.capture.accepted);
      this.dispatchEvent(new OnboardingCaptureEvent({ role, bytes: image.bytes, width: image.width, height: image.height }));
    } catch (error) {
      if (abort.signal.aborted) return;
      const code = imageCheckCode(error, this.m);
      const showable = code !== 'not-an-image' && code !== 'unsupported-type' && /^image\//.test(source.type);
      this.rejected = { role, code, previewUrl: showable ? URL.createObjectURL(source) : null };
    } finally {
      if (this.#pipelineAbort === abort) {
        this.#pipelineAbort = null;
        this.checking = false;
      }
    }
  }

  #retake(): void {
    if (!isCaptureStep(this.step)) return;
    const reopen = this.#lastSource === 'camera';
    this.#removeCapture(CAPTURE_STEPS[this.step]);
    this.#clearRejected();
    this.#focusFirstAction();
    if (reopen) void this.#openCamera();
  }

  #focusFirstAction(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[data-capture-start]')?.focus());
  }

  #retakeFromReview(role: CaptureRole): void {
    this.#removeCapture(role);
    this.returnToReview = true;
    this.#goTo(stepForRole(role));
  }

  // ---------------------------------------------------------------- upload

  #buildRequest(): CreateOnboardingRequest {
    const images: CreateOnboardingRequest['images'] = {};
    for (const role of rolesFor(this.documentType)) {
      const capture = this.captures[role];
      if (capture) images[role] = capture.base64;
    }
    const name = this.nameValue.trim();
    return {
      cpf: formatCpf(this.cpfValue),
      ...(name && { name }),
      ...(this.documentType && { documentType: this.documentType }),
      images,
    };
  }

  #send(): void {
    this.uploadCancelled = false;
    this.#goTo('upload');
    void this.#upload();
  }

  async #upload(): Promise<void> {
    this.uploadError = null;
    const body = this.#buildRequest();
    const check = validateCreateOnboarding(body, this.maxImageBytes ?? DEFAULT_IMAGE_MAX_BYTES);
    if (!check.ok) {
      this.#failUpload(new CompanionError({ ...check.error, status: check.status }));
      return;
    }
    this.uploadPercent = 0;
    this.#announce(this.m.upload.progress(0));
    const abort = new AbortController();
    this.#uploadAbort = abort;
    try {
      const created = await createOnboarding(this.base, body, {
        signal: abort.signal,
        onProgress: ({ loaded, total }) => {
          if (total > 0) this.uploadPercent = Math.min(100, Math.floor((loaded / total) * 100));
        },
      });
      if (abort.signal.aborted) return;
      this.#accessKey = created.accessKey;
      this.tokenOnboarding = created.tokenOnboarding;
      this.uploadPercent = 100;
      // Sent: the photos have no further use on this page.
      this.#dropImages();
      this.dispatchEvent(new OnboardingSubmittedEvent({ tokenOnboarding: created.tokenOnboarding }));
      this.#goTo('processing');
      void this.#watch();
    } catch (error) {
      if (abort.signal.aborted) return;
      this.#failUpload(error instanceof CompanionError ? error : new CompanionError({ code: 'network', message: String(error), status: 0 }));
    } finally {
      if (this.#uploadAbort === abort) this.#uploadAbort = null;
    }
  }

  #failUpload(error: CompanionError): void {
    this.uploadError = error;
    this.uploadPercent = null;
    const message = this.#uploadErrorMessage(error);
    this.#emitError(error.code, message, error.externalId);
  }

  #uploadErrorMessage(error: CompanionError): string {
    const errors = this.m.upload.errors;
    const code = error.code;
    if (code in errors && code !== 'generic' && code !== 'upstream') return errors[code as keyof typeof errors];
    if (code.startsWith('upstream_') || error.status >= 500) return errors.upstream;
    if (error.status === 413) return errors.payload_too_large;
    if (error.status === 429) return errors.rate_limited;
    return errors.generic;
  }

  /** The capture role an upload error points at (`field: "images.selfie"`), if any. */
  #uploadErrorRole(): CaptureRole | null {
    const field = this.uploadError?.field ?? '';
    const role = field.startsWith('images.') ? field.slice('images.'.length) : '';
    return role === 'documentFront' || role === 'documentBack' || role === 'selfie' ? role : null;
  }

  #cancelUpload(): void {
    this.#uploadAbort?.abort();
    this.#uploadAbort = null;
    this.uploadPercent = null;
    this.uploadCancelled = true;
    this.dispatchEvent(new OnboardingCancelEvent({ step: 'upload' }));
    this.#goTo('review');
  }

  // ---------------------------------------------------------------- processing and outcome

  async #watch(): Promise<void> {
    const token = this.tokenOnboarding;
    const key = this.#accessKey;
    if (!token || !key) return;
    this.processingError = null;
    this.#watchAbort?.abort();
    const abort = new AbortController();
    this.#watchAbort = abort;
    try {
      const final = await watchStatus(this.base, token, key, {
        signal: abort.signal,
        poll: this.pollOptions,
        onStatus: (state) => {
          if (abort.signal.aborted) return;
          this.liveStatus = state;
          if (state.status === 'IN_PROCESS') this.#announce(this.m.processing.status(this.m.processing.statusNames.IN_PROCESS));
        },
      });
      if (abort.signal.aborted) return;
      this.#finish(final as TerminalState);
    } catch (error) {
      if (abort.signal.aborted) return;
      const e = error instanceof CompanionError ? error : new CompanionError({ code: 'network', message: String(error), status: 0 });
      this.processingError = e.code === 'status_timeout' || e.retryable ? 'gave-up' : 'lost';
      const message = this.processingError === 'gave-up' ? this.m.processing.gaveUp : this.m.processing.lost;
      this.#emitError(e.code, message);
    } finally {
      if (this.#watchAbort === abort) this.#watchAbort = null;
    }
  }

  #finish(final: TerminalState): void {
    this.outcome = final;
    // Final: nothing more will be read for this onboarding.
    this.#accessKey = null;
    this.#goTo('outcome');
    this.dispatchEvent(
      new OnboardingCompleteEvent({
        tokenOnboarding: final.tokenOnboarding,
        status: final.status,
        ...(final.externalId && { externalId: final.externalId }),
      }),
    );
  }

  async #copySupportCode(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this.copyNotice = 'copied';
    } catch {
      this.copyNotice = 'copyFailed';
    }
    this.#announce(this.m.outcome[this.copyNotice]);
  }

  // ---------------------------------------------------------------- step views

  #renderStep(): TemplateResult {
    const m = this.m;
    const step = this.step;
    const onBack = () => this.#back();
    if (isCaptureStep(step)) {
      const role = CAPTURE_STEPS[step];
      const rejected = this.rejected?.role === role ? this.rejected : null;
      return captureStep({
        m,
        role,
        acceptedUrl: this.captures[role]?.previewUrl ?? null,
        rejected,
        camera: { state: this.camera.state, error: this.camera.error },
        checking: this.checking,
        onBack,
        onOpenCamera: () => void this.#openCamera(),
        onCloseCamera: () => this.camera.stop(),
        onTakePhoto: () => void this.#takePhoto(),
        onFile: (e) => this.#onFileChange(e),
        onRetake: () => this.#retake(),
        onUse: () => this.#next(),
      });
    }
    switch (step) {
      case 'consent':
        return consentStep({
          m,
          checked: this.consentChecked,
          error: this.consentError,
          onChange: (e) => this.#onConsentChange(e),
          onSubmit: (e) => this.#onConsentSubmit(e),
          onDecline: () => this.#onDecline(),
        });
      case 'cpf':
        return cpfStep({
          m,
          cpf: this.cpfValue,
          name: this.nameValue,
          cpfError: this.cpfError,
          nameError: this.nameError,
          onCpfInput: (e) => this.#onCpfInput(e),
          onNameInput: (e) => this.#onNameInput(e),
          onSubmit: (e) => this.#onCpfSubmit(e),
          onBack,
        });
      case 'document-type':
        return documentTypeStep({
          m,
          types: parseDocumentTypes(this.documentTypes),
          selected: this.documentType,
          error: this.documentTypeError,
          onChange: (e) => this.#onDocumentTypeChange(e),
          onSubmit: (e) => this.#onDocumentTypeSubmit(e),
          onBack,
        });
      case 'review': {
        const previews: Partial<Record<CaptureRole, string>> = {};
        for (const [role, capture] of Object.entries(this.captures)) if (capture) previews[role as CaptureRole] = capture.previewUrl;
        return reviewStep({
          m,
          roles: rolesFor(this.documentType),
          previews,
          cancelled: this.uploadCancelled,
          onRetake: (role) => this.#retakeFromReview(role),
          onSend: () => this.#send(),
          onBack,
        });
      }
      case 'upload': {
        const error = this.uploadError;
        if (!error) return uploadStep({ m, percent: this.uploadPercent ?? 0, onCancel: () => this.#cancelUpload() });
        return uploadErrorStep({
          m,
          message: this.#uploadErrorMessage(error),
          externalId: error.externalId,
          fixCpf: error.code === 'invalid_cpf' || error.field === 'cpf' || error.field === 'name',
          retakeRole: this.#uploadErrorRole(),
          onBackToReview: () => this.#goTo('review'),
          onFixCpf: () => this.#goTo('cpf'),
          onRetake: (role) => this.#retakeFromReview(role),
          onRetry: () => void this.#upload(),
        });
      }
      case 'processing':
        return processingStep({
          m,
          status: this.liveStatus?.status ?? 'IN_PROCESS',
          error: this.processingError,
          reference: this.tokenOnboarding,
          canCheckAgain: !!this.#accessKey,
          onCheckAgain: () => void this.#watch(),
          onRestart: () => this.start(),
        });
      default:
        return this.outcome
          ? outcomeStep({ m, outcome: this.outcome, copyNotice: this.copyNotice, onCopy: (code) => void this.#copySupportCode(code), onRestart: () => this.start() })
          : html``;
    }
  }

  override render(): TemplateResult {
    const seq = this.#sequence();
    const index = seq.indexOf(this.step);
    return html`
      <div class="base" part="base" lang=${resolveLocale(this.locale)}>
        <div class="header" part="header">
          <slot name="logo"></slot>
          <p>${this.m.flow.title} · ${this.m.flow.stepOf(index + 1, seq.length)}</p>
        </div>
        <section class="step" part="step" aria-labelledby="heading" data-step=${this.step}>
          <h2 id="heading" part="heading" tabindex="-1">${this.#headingText()}</h2>
          ${this.#renderStep()}
        </section>
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </div>
    `;
  }
}

function imageCheckCode(error: unknown, messages: Messages): ImageCheckCode {
  const code = (error as { code?: unknown } | null)?.code;
  // Duck-typed so that ImageCheckError (and the pipeline module) is not imported eagerly.
  return typeof code === 'string' && code in messages.imageErrors ? (code as ImageCheckCode) : 'compression-failed';
}

if (typeof customElements !== 'undefined' && !customElements.get('onboarding-flow')) {
  customElements.define('onboarding-flow', OnboardingFlow);
}

declare global {
  interface HTMLElementTagNameMap {
    'onboarding-flow': OnboardingFlow;
  }
}
