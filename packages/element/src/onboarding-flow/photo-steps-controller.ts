/**
 * The lazily loaded photo steps (capture, review, upload, wait, outcome) as a Lit reactive
 * controller of `<onboarding-flow>`: it fetches them ahead (from the consent step on, so that
 * nobody waits at the camera step), again after a failure on the next step that needs them or
 * on Retry, adopts their styles, creates their capture and submission controllers, and runs
 * what waited for them (a resumed wait, a phone's outcome) once they are here.
 */
import type { CreateOnboardingRequest } from '@onboarding-kit/contract';
import {
  adoptStyles,
  type CSSResult,
  type CSSResultOrNative,
  type ReactiveController,
  type ReactiveElement,
  type TemplateResult,
} from 'lit';
import type { CaptureController, CaptureOptions } from '../controllers/capture-controller.js';
import type { NavigationController } from '../controllers/navigation-controller.js';
import { readKept } from '../controllers/kept-onboarding.js';
import type { SubmissionController, SubmissionOptions } from '../controllers/submission-controller.js';
import type { DocumentHintsController } from '../document-hints/hints-controller.js';
import type { ProofOfAddressController } from '../proof-of-address/proof-controller.js';
import type { DocumentPrefillController } from '../document-prefill/prefill-controller.js';
import type { IntegrityController } from '../integrity/integrity-controller.js';
import type { FlowRefs } from './flow-refs.js';
import type { PrefillPanel } from '../document-prefill/prefill-view.js';
import type { CaptureRole } from '../image/pipeline.js';
import { pendingStep } from '../steps/session-step.js';
import type { LoadFailure } from '../lazy/load-failure.js';
import { loadFailureOf } from '../messages/lazy-once.js';
import type { FlowContextSource } from './flow-context.js';
import type { LazyTextsController } from './lazy-texts.js';
import { loadPhotoSteps, type ControllerSlot, type PhotoSteps } from './load-photo-steps.js';
import type { PhotoStepContext } from './photo-steps-view.js';
import { CAPTURE_STEPS, FIRST_STEP, isCaptureStep, isRetakeStep, stepForRole, type OnboardingStep } from './steps.js';

/** What the host decides of a photo step's view. */
export type PhotoStepView = Pick<
  PhotoStepContext,
  | 'heading'
  | 'autoCapture'
  | 'handoff'
  | 'documentType'
  | 'lockedTaxId'
  | 'proofOfAddress'
  | 'canClose'
  | 'onRestart'
  | 'onRetryPhotos'
  | 'host'
  | 'session'
>;

export interface PhotoStepsOptions {
  context: FlowContextSource;
  nav: NavigationController;
  /** The waiting and outcome texts, once loaded. */
  texts: LazyTextsController;
  /** Where the capture controller (and its camera) take their turn among the host's controllers. */
  slot: ControllerSlot;
  /** The host's styles with the photo steps' own among them, in cascade order. */
  styles(photoSteps: CSSResult): CSSResultOrNative[];
  /** What the capture controller reads of the host beyond the flow's context. */
  capture: Pick<CaptureOptions, 'limits'>;
  /** What the submission controller reads of the host beyond the flow's context. */
  submission: Pick<SubmissionOptions, 'pollOptions' | 'maxImageBytes' | 'clientSecret' | 'sessionTaxId'>;
  /** What the document photos' hints and the data read from the document use of the flow. */
  flow: Pick<FlowRefs, 'details' | 'shape' | 'offeredTypes'>;
  /** What the person entered, with these photos, as the creation sends it. */
  request(photos: CaptureController['photos']): CreateOnboardingRequest;
}

/** Whether `step` is shown by the lazily loaded photo steps (everything after the data steps). */
export function needsPhotoSteps(step: OnboardingStep): boolean {
  return isRetakeStep(step) || step === 'review' || step === 'upload' || step === 'processing' || step === 'outcome';
}

export class PhotoStepsController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: PhotoStepsOptions;
  #module: PhotoSteps | null = null;
  #capture: CaptureController | null = null;
  #submission: SubmissionController | null = null;
  #hints: DocumentHintsController | null = null;
  #proof: ProofOfAddressController | null = null;
  #prefill: DocumentPrefillController | null = null;
  #integrity: IntegrityController | null = null;
  #loading = false;
  /** The step the person was on when the photo steps last failed to load (null: no failure). */
  #failedAt: OnboardingStep | null = null;
  /** Whose fault the last failure was: the connection's, or the page's that does not serve the file. */
  #failure: LoadFailure = 'offline';
  /** What waits for the photo steps: run once they are loaded. */
  #waiting: (() => void)[] = [];
  /** The storage key last looked at for a wait to resume. */
  #resumeChecked: string | null = null;
  /** What became of the last copy of the support code. */
  #copyNotice: 'copied' | 'copyFailed' | null = null;

  constructor(host: ReactiveElement, options: PhotoStepsOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** The photo steps' module, once loaded. */
  get module(): PhotoSteps | null {
    return this.#module;
  }
  get capture(): CaptureController | null {
    return this.#capture;
  }
  get submission(): SubmissionController | null {
    return this.#submission;
  }
  /** What the CPF step shows of the data read from the document: null until the photo steps are here, or with nothing to show. */
  prefillPanel(): PrefillPanel | null {
    return this.#module && this.#prefill ? this.#module.prefillPanel(this.#prefill) : null;
  }
  /** The proof of address taken, if the session asks for one. */
  get proof(): ProofOfAddressController | null {
    return this.#proof;
  }
  get loading(): boolean {
    return this.#loading;
  }
  /** The last fetch failed and none is under way: the steps that need them offer a Retry. */
  get failed(): boolean {
    return !this.#loading && this.#failedAt !== null;
  }

  /**
   * Before each render: fetched ahead off the first step; after a failure, again on the next
   * step that needs them. A reload while the outcome was awaited waits again (or shows it)
   * instead of starting over, also when a framework sets the endpoint or the session late.
   */
  hostUpdate(): void {
    const { context, nav } = this.#options;
    const { resumeKey: key, endpoint } = context.current;
    if (key !== this.#resumeChecked && nav.step === FIRST_STEP) {
      this.#resumeChecked = key;
      if (this.#submission) this.#submission.resume();
      else if (key && readKept(key, endpoint)) this.when('processing', () => this.#submission!.resume());
    }
    const step = nav.step;
    // The document reader's worker comes while the person types (after consent), at the latest on a document step.
    if (['cpf', 'document-type', 'document-front', 'document-back'].includes(step)) this.#capture?.readings.prepare();
    const failedAt = this.#failedAt;
    if (failedAt === null ? step !== FIRST_STEP : failedAt !== step && needsPhotoSteps(step)) this.load();
  }

  /** Fetches the photo steps (once) and creates their controllers. */
  load(): void {
    if (this.#module || this.#loading) return;
    this.#loading = true;
    loadPhotoSteps().then(
      (module) => {
        this.#loading = false;
        this.#failedAt = null;
        if (!this.#module) this.#loaded(module);
      },
      (error: unknown) => {
        this.#loading = false;
        this.#failure = loadFailureOf(error);
        this.#failedAt = this.#options.nav.step;
        this.#host.requestUpdate();
      },
    );
    this.#host.requestUpdate();
  }

  /** Runs `then` now if the photo steps are loaded, else shows `step` (its part loading) and runs it once they are. */
  when(step: OnboardingStep, then: () => void): void {
    if (this.#module) return then();
    this.#waiting.push(then);
    this.#options.nav.goTo(step);
    this.load();
  }

  /** Stops whatever the photo steps run and forgets what waited for them. */
  reset(): void {
    this.#capture?.reset();
    this.#submission?.reset();
    this.#proof?.reset();
    this.#prefill?.reset();
    this.#integrity?.reset();
    this.#waiting = [];
    this.#copyNotice = null;
  }

  /** The visible step is being left: nothing it had running goes on. */
  leaveStep(): void {
    this.#capture?.leaveStep();
    this.#copyNotice = null;
  }

  /** A new onboarding with new photos, from the first photo on, with what the person entered kept. */
  retry(): void {
    this.#capture!.reset();
    this.#submission!.reset();
    this.#proof!.reset();
    this.#prefill!.reset();
    this.#integrity!.reset();
    this.#copyNotice = null;
    this.#options.nav.goTo('document-front');
  }

  /** The view of `step`, or what shows while the photo steps are on their way (or failed to come). */
  render(step: OnboardingStep, view: PhotoStepView): TemplateResult {
    const { nav, texts } = this.#options;
    const { messages: m, locale } = this.#options.context.current;
    // The Retry button goes: focus stays on the step, at its heading, which is read again.
    const retry = () => {
      nav.presentStep();
      this.load();
    };
    if (!this.#module) return pendingStep({ m, failed: this.failed ? this.#failure : null, onRetry: retry });
    return this.#module.renderPhotoStep({
      ...view,
      m,
      step,
      locale,
      capture: this.#capture!,
      submission: this.#submission!,
      hints: this.#hints!,
      proof: this.#proof!,
      nav,
      afterSend: texts.afterSend?.[locale] ?? null,
      copyNotice: this.#copyNotice,
      onCopy: (code) => void this.#copySupportCode(code),
      retakeFromReview: (role) => this.#retakeFromReview(role),
    });
  }

  #retakeFromReview(role: CaptureRole | 'proofOfAddress'): void {
    if (role === 'proofOfAddress') {
      this.#proof!.remove();
      return this.#options.nav.retakeFromReview('proof-of-address');
    }
    this.#capture!.remove(role);
    this.#options.nav.retakeFromReview(stepForRole(role));
  }

  async #copySupportCode(code: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(code);
      this.#copyNotice = 'copied';
    } catch {
      this.#copyNotice = 'copyFailed';
    }
    this.#host.requestUpdate();
    const t = this.#options.texts.afterSend?.[this.#options.context.current.locale];
    if (t) this.#options.nav.announce(t[this.#copyNotice]);
  }

  #loaded(module: PhotoSteps): void {
    const { context, nav, slot } = this.#options;
    this.#module = module;
    // Their styles come with them, adopted before they first render.
    adoptStyles(this.#host.renderRoot as ShadowRoot, this.#options.styles(module.photoStepsStyles()));
    const activeRole = () => (isCaptureStep(nav.step) ? CAPTURE_STEPS[nav.step] : null);
    const integrity = new module.IntegrityController(this.#host, {
      activeRole,
      capture: () => this.#capture,
      endpoint: () => context.current.endpoint,
      secret: () => this.#options.submission.clientSecret?.() ?? null,
    });
    this.#integrity = integrity;
    // The slot stands before navigation among the host's controllers, where the host was built to have them.
    this.#capture = new module.CaptureController(slot.host, {
      ...this.#options.capture,
      context,
      activeRole,
      announce: (text) => nav.announce(text),
      attest: (role, source) => integrity.accepted(role, source),
    });
    this.#submission = new module.SubmissionController(this.#host, {
      ...this.#options.submission,
      context,
      request: () => this.#options.request(this.#capture!.photos),
      integrity: (body) => integrity.claim(body.images, () => this.#capture!.photos),
      announce: (text) => nav.announce(text),
      goTo: (step) => nav.goTo(step),
      // Sent: the photos have no further use on this page.
      sent: () => this.#capture!.clear(),
    });
    const refs: FlowRefs = { ...this.#options.flow, context, nav, capture: () => this.#capture };
    this.#hints = new module.DocumentHintsController(this.#host, refs);
    this.#prefill = new module.DocumentPrefillController(this.#host, refs);
    this.#proof = new module.ProofOfAddressController(this.#host, {
      context,
      maxBytes: this.#options.submission.maxImageBytes,
      limits: this.#options.capture.limits,
      announce: (text) => nav.announce(text),
    });
    for (const then of this.#waiting.splice(0)) then();
    this.#host.requestUpdate();
  }
}
