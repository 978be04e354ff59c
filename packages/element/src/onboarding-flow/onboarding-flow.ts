import { LitElement, html, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { DEFAULT_IMAGE_MAX_BYTES } from '@onboarding-kit/contract';
import type { CaptureRole } from '../image/pipeline.js';
import { normalizeEndpoint, type PollOptions } from '../api/index.js';
import { CaptureController, type PipelineLimits } from '../controllers/capture-controller.js';
import { DetailsController } from '../controllers/details-controller.js';
import { NavigationController } from '../controllers/navigation-controller.js';
import { SubmissionController, uploadErrorMessage, uploadErrorRole } from '../controllers/submission-controller.js';
import { OnboardingCancelEvent } from '../events.js';
import { messagesFor, resolveLocale, type Messages } from '../messages/index.js';
import { CAPTURE_STEPS, DEFAULT_DOCUMENT_TYPES, isCaptureStep, parseDocumentTypes, rolesFor, stepForRole, stepSequence, type OnboardingStep } from './steps.js';
import { styles } from './onboarding-flow.styles.js';
import {
  captureStep,
  consentStep,
  cpfStep,
  documentTypeStep,
  outcomeStep,
  processingStep,
  reviewStep,
  stepHeading,
  uploadErrorStep,
  uploadStep,
} from '../steps/index.js';

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

  @state() private copyNotice: 'copied' | 'copyFailed' | null = null;

  // The controllers' order is the order of their host callbacks: the camera binds its <video>
  // after a render before navigation moves focus.
  readonly #capture = new CaptureController(this, {
    activeRole: () => (isCaptureStep(this.#nav.step) ? CAPTURE_STEPS[this.#nav.step] : null),
    limits: (): PipelineLimits => ({
      ...(this.maxImageBytes && { maxBytes: this.maxImageBytes }),
      ...(this.maxLongEdge && { maxLongEdge: this.maxLongEdge }),
    }),
    messages: () => this.m,
    announce: (text) => this.#nav.announce(text),
  });

  readonly #nav: NavigationController = new NavigationController(this, {
    sequence: () => stepSequence(this.#details.documentType),
    messages: () => this.m,
    heading: (step) => this.#heading(step),
    leave: () => {
      this.#capture.leaveStep();
      this.copyNotice = null;
    },
    photosComplete: () => rolesFor(this.#details.documentType).every((role) => this.#capture.photo(role)),
  });

  readonly #details: DetailsController = new DetailsController(this, {
    prefill: () => ({ cpf: this.cpf, name: this.name, documentTypes: this.documentTypes }),
    goTo: (step) => this.#nav.goTo(step),
    next: () => this.#nav.next(),
    documentTypeChanged: () => this.#capture.remove('documentFront', 'documentBack'),
  });

  readonly #submission = new SubmissionController(this, {
    endpoint: () => normalizeEndpoint(this.endpoint || ''),
    pollOptions: () => this.pollOptions,
    maxImageBytes: () => this.maxImageBytes ?? DEFAULT_IMAGE_MAX_BYTES,
    request: () => this.#details.request(this.#capture.photos),
    messages: () => this.m,
    announce: (text) => this.#nav.announce(text),
    goTo: (step) => this.#nav.goTo(step),
    sent: () => this.#capture.clear(),
  });

  /** Starts (or restarts) the flow at the consent step and moves focus to its heading. */
  start(): void {
    this.reset();
    this.#nav.presentStep();
  }

  /**
   * Cancels any upload or status watch, stops the camera, drops every photo (revoking its
   * object URL) and the access key, and returns to the consent step with the prefills.
   */
  reset(): void {
    this.#capture.reset();
    this.#submission.reset();
    this.#details.reset();
    this.copyNotice = null;
    this.#nav.reset();
  }

  // ---------------------------------------------------------------- internals

  private get m(): Messages {
    return messagesFor(this.locale);
  }

  #heading(step: OnboardingStep): string {
    return stepHeading(this.m, step, { documentType: this.#details.documentType, outcome: this.#submission.outcome?.status ?? null });
  }

  #retakeFromReview(role: CaptureRole): void {
    this.#capture.remove(role);
    this.#nav.retakeFromReview(stepForRole(role));
  }

  async #copySupportCode(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this.copyNotice = 'copied';
    } catch {
      this.copyNotice = 'copyFailed';
    }
    this.#nav.announce(this.m.outcome[this.copyNotice]);
  }

  // ---------------------------------------------------------------- step views

  #renderStep(): TemplateResult {
    const m = this.m;
    const step = this.#nav.step;
    const details = this.#details;
    const capture = this.#capture;
    const submission = this.#submission;
    const onBack = () => this.#nav.back();
    if (isCaptureStep(step)) {
      const role = CAPTURE_STEPS[step];
      return captureStep({
        m,
        role,
        acceptedUrl: capture.photo(role)?.previewUrl ?? null,
        rejected: capture.rejectedFor(role),
        camera: { state: capture.camera.state, error: capture.camera.error },
        checking: capture.checking,
        onBack,
        onOpenCamera: () => void capture.openCamera(),
        onCloseCamera: () => capture.camera.stop(),
        onTakePhoto: () => void capture.takePhoto(),
        onFile: (e) => capture.pickFile(e),
        onRetake: () => capture.retake(),
        onUse: () => this.#nav.next(),
      });
    }
    switch (step) {
      case 'consent':
        return consentStep({
          m,
          checked: details.consent,
          error: details.consentError,
          onChange: (e) => details.onConsentChange(e),
          onSubmit: (e) => details.onConsentSubmit(e),
          onDecline: () => this.dispatchEvent(new OnboardingCancelEvent({ step: this.#nav.step })),
        });
      case 'cpf':
        return cpfStep({
          m,
          cpf: details.cpf,
          name: details.name,
          cpfError: details.cpfError,
          nameError: details.nameError,
          onCpfInput: (e) => details.onCpfInput(e),
          onNameInput: (e) => details.onNameInput(e),
          onSubmit: (e) => details.onCpfSubmit(e),
          onBack,
        });
      case 'document-type':
        return documentTypeStep({
          m,
          types: parseDocumentTypes(this.documentTypes),
          selected: details.documentType,
          error: details.documentTypeError,
          onChange: (e) => details.onDocumentTypeChange(e),
          onSubmit: (e) => details.onDocumentTypeSubmit(e),
          onBack,
        });
      case 'review': {
        const previews: Partial<Record<CaptureRole, string>> = {};
        for (const [role, photo] of Object.entries(capture.photos)) if (photo) previews[role as CaptureRole] = photo.previewUrl;
        return reviewStep({
          m,
          roles: rolesFor(details.documentType),
          previews,
          cancelled: submission.cancelled,
          onRetake: (role) => this.#retakeFromReview(role),
          onSend: () => submission.send(),
          onBack,
        });
      }
      case 'upload': {
        const error = submission.uploadError;
        if (!error) return uploadStep({ m, percent: submission.percent ?? 0, onCancel: () => submission.cancelUpload() });
        return uploadErrorStep({
          m,
          message: uploadErrorMessage(error, m),
          externalId: error.externalId,
          fixCpf: error.code === 'invalid_cpf' || error.field === 'cpf' || error.field === 'name',
          retakeRole: uploadErrorRole(error),
          onBackToReview: () => this.#nav.goTo('review'),
          onFixCpf: () => this.#nav.goTo('cpf'),
          onRetake: (role) => this.#retakeFromReview(role),
          onRetry: () => void submission.upload(),
        });
      }
      case 'processing':
        return processingStep({
          m,
          status: submission.liveStatus?.status ?? 'IN_PROCESS',
          error: submission.processingProblem,
          reference: submission.tokenOnboarding,
          canCheckAgain: submission.canCheckAgain,
          onCheckAgain: () => void submission.watch(),
          onRestart: () => this.start(),
        });
      default: {
        const outcome = submission.outcome;
        return outcome
          ? outcomeStep({ m, outcome, copyNotice: this.copyNotice, onCopy: (code) => void this.#copySupportCode(code), onRestart: () => this.start() })
          : html``;
      }
    }
  }

  override render(): TemplateResult {
    const step = this.#nav.step;
    const { number, total } = this.#nav.position;
    return html`
      <div class="base" part="base" lang=${resolveLocale(this.locale)}>
        <div class="header" part="header">
          <slot name="logo"></slot>
          <p>${this.m.flow.title} · ${this.m.flow.stepOf(number, total)}</p>
        </div>
        <section class="step" part="step" aria-labelledby="heading" data-step=${step}>
          <h2 id="heading" part="heading" tabindex="-1">${this.#heading(step)}</h2>
          ${this.#renderStep()}
        </section>
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.#nav.announcement}</div>
      </div>
    `;
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
