/**
 * The views of the photo steps (capture, review, upload, wait, outcome), rendered by the element
 * once the photo steps are loaded (photo-steps.ts): what each step shows, from the state of the
 * capture and submission controllers and what the element passes in.
 */
import { html, type TemplateResult } from 'lit';
import { isHttpUrl, returnHref, type PageSession } from '@onboarding-kit/contract';
import { OnboardingContinueEvent } from '../events.js';
import type { FlowHost } from './flow-parts.js';
import type { CaptureController } from '../controllers/capture-controller.js';
import type { NavigationController } from '../controllers/navigation-controller.js';
import type { SubmissionController } from '../controllers/submission-controller.js';
import type { DocumentHintsController } from '../document-hints/hints-controller.js';
import { hintsPanel } from '../document-hints/hints-view.js';
import type { ProofOfAddressController } from '../proof-of-address/proof-controller.js';
import { proofStep } from '../steps/proof-step.js';
import { uploadErrorIsFinal, uploadErrorIsRetryable, uploadErrorMessage, uploadErrorRole } from '../controllers/upload-errors.js';
import type { CaptureRole } from '../image/pipeline.js';
import type { AfterSendMessages } from '../messages/after-send.js';
import type { Messages, OnboardingLocale } from '../messages/index.js';
import { captureStep } from '../steps/capture-step.js';
import { reviewStep, type ReviewView } from '../steps/review-step.js';
import { outcomeStep, processingStep, uploadErrorStep, uploadStep } from '../steps/send-steps.js';
import { CAPTURE_STEPS, isCaptureStep, rolesFor, stepForRole, type OnboardingStep } from './steps.js';

/** What the element passes to the photo steps' views. */
export interface PhotoStepContext {
  m: Messages;
  step: OnboardingStep;
  capture: CaptureController;
  submission: SubmissionController;
  /** What the reader noticed on the visible document photo. */
  hints: DocumentHintsController;
  /** The proof of address, where the session asks for one (`proofOfAddress`). */
  proof: ProofOfAddressController;
  /** The session asks for a proof of address: the review shows it and waits for it. */
  proofOfAddress: boolean;
  nav: NavigationController;
  heading: (step: OnboardingStep) => string;
  locale: OnboardingLocale;
  autoCapture: boolean;
  /** "Continue on your phone" (the `handoff` attribute), or null. */
  handoff: { noCamera: boolean; open: () => void } | null;
  documentType: string | null;
  /** The tax id was given by the session (it cannot be corrected here). */
  lockedTaxId: boolean;
  /** The waiting and outcome texts, once loaded. */
  afterSend: AfterSendMessages | null;
  copyNotice: 'copied' | 'copyFailed' | null;
  onCopy: (code: string) => void;
  /** A session's backend is told the outcome: the person may close the page while waiting. */
  canClose: boolean;
  retakeFromReview: (role: CaptureRole | 'proofOfAddress') => void;
  /** Absent under a session: it yields one onboarding. */
  onRestart: (() => void) | undefined;
  onRetryPhotos: (() => void) | undefined;
  /** The element: its `help-url` and `continue-event` attributes and `continue` slot, and where `onboarding-continue` is fired. */
  host: FlowHost;
  /** The session as read (its id, which the support code stands for, and its `returnUrl`), or null without one. */
  session: PageSession | null;
}

/**
 * Whether the page cannot open the camera itself, so that the camera app is offered instead:
 * no getUserMedia at all, or a camera that is missing, refused or out of reach.
 */
function cameraUnavailable(code: string | undefined): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.mediaDevices?.getUserMedia !== 'function') return true;
  return code === 'denied' || code === 'no-camera' || code === 'unsupported' || code === 'insecure-context';
}

/** Whether the camera is worth asking for: not once none was found (or the page can never reach one); a refusal can be asked again. */
function cameraOffered(code: string | undefined, noneFound: boolean): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.mediaDevices?.getUserMedia !== 'function') return false;
  return !noneFound && code !== 'no-camera' && code !== 'unsupported' && code !== 'insecure-context';
}

/** A phone or tablet (a coarse pointer): the devices whose camera app a `capture` file input opens. */
function touchDevice(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
}

export function renderPhotoStep(c: PhotoStepContext): TemplateResult {
  const { step } = c;
  if (isCaptureStep(step)) return renderCaptureStep(c, CAPTURE_STEPS[step]);
  switch (step) {
    case 'proof-of-address':
      return renderProofStep(c);
    case 'review':
      return renderReviewStep(c);
    case 'upload':
      return renderUploadStep(c);
    case 'processing':
      return renderProcessingStep(c);
    default:
      return renderOutcomeStep(c);
  }
}

function renderCaptureStep(c: PhotoStepContext, role: CaptureRole): TemplateResult {
  const { m, capture, nav } = c;
  const handoff = c.handoff;
  const cameraCode = capture.camera.state === 'error' ? capture.camera.error?.code : undefined;
  return captureStep({
    m,
    role,
    documentType: c.documentType,
    locale: c.locale,
    acceptedUrl: capture.photo(role)?.previewUrl ?? null,
    keptAnyway: capture.photo(role)?.keptAnyway === true,
    rejected: capture.rejectedFor(role),
    errorText: (code) => capture.errorText(code),
    acceptedText: capture.acceptedText(role),
    faceTips: capture.faceTipsText(),
    hints: role === 'selfie' ? null : hintsPanel(c.hints, () => capture.retake()),
    cameraErrorText: (code) => capture.cameraErrorText(code),
    camera: { state: capture.camera.state, error: capture.camera.error },
    view: capture.view.loaded
      ? {
          open: capture.view.open,
          stream: capture.camera.stream,
          heading: c.heading(c.step),
          locale: c.locale,
          mirrored: capture.mirrored,
          canSwitch: capture.canSwitch,
          autoCapture: c.autoCapture && !(role === 'selfie' && capture.liveness.holdsAutoCapture),
          prompt: role === 'selfie' ? capture.liveness.prompt : null,
          onShutter: (auto) => void capture.takePhoto(auto),
          onSteadyCard: (video) => capture.readings.readFrame(role, video),
          onLiveVideo: (video) => capture.liveness.watch(role === 'selfie' ? video : null),
          onSwitch: () => void capture.switchCamera(),
        }
      : null,
    taking: capture.taking,
    checking: capture.checking,
    cameraUnavailable: !!handoff?.noCamera || cameraUnavailable(cameraCode),
    cameraOffered: cameraOffered(cameraCode, !!handoff?.noCamera),
    cameraApp: touchDevice(),
    handoff: handoff ? { first: handoff.noCamera || capture.camera.error?.code === 'no-camera', onOpen: handoff.open } : null,
    onBack: nav.canGoBack ? () => nav.back() : null,
    onOpenCamera: () => void capture.openCamera(),
    onCloseCamera: () => capture.closeCamera(),
    onFile: (e) => capture.pickFile(e),
    onRetake: () => capture.retake(),
    onKeep: () => capture.keepAnyway(),
    onUse: () => nav.next(),
  });
}

function renderProofStep(c: PhotoStepContext): TemplateResult {
  const { proof, nav } = c;
  const taken = proof.proof;
  return proofStep({
    m: c.m,
    t: proof.texts,
    proof: taken ? { previewUrl: taken.previewUrl, description: proof.describe(taken) } : null,
    problem: proof.problem,
    checking: proof.checking,
    limit: proof.limit,
    cameraApp: touchDevice(),
    onFile: (e) => proof.pick(e),
    onReplace: () => proof.remove(),
    onUse: () => nav.next(),
  });
}

function renderReviewStep(c: PhotoStepContext): TemplateResult {
  const { m, capture, submission } = c;
  const previews: Partial<Record<CaptureRole, string>> = {};
  const kept: Partial<Record<CaptureRole, string>> = {};
  for (const [role, photo] of Object.entries(capture.photos)) {
    if (!photo) continue;
    previews[role as CaptureRole] = photo.previewUrl;
    if (photo.keptAnyway && photo.keptCheck) kept[role as CaptureRole] = capture.errorText(photo.keptCheck);
  }
  const roles = rolesFor(c.documentType);
  return reviewStep({
    m,
    roles,
    previews,
    labels: Object.fromEntries(roles.map((role) => [role, c.heading(stepForRole(role))])),
    kept,
    keptLabel: c.afterSend?.keptAnyway ?? null,
    proof: c.proofOfAddress ? reviewedProof(c) : null,
    cancelled: submission.cancelled,
    onRetake: c.retakeFromReview,
    onSend: () => submission.send(),
  });
}

/** The proof of address as the review shows it: its picture, or the PDF's name and size. */
function reviewedProof(c: PhotoStepContext): NonNullable<ReviewView['proof']> {
  const taken = c.proof.proof;
  return {
    label: c.heading('proof-of-address'),
    previewUrl: taken?.previewUrl ?? null,
    description: taken ? c.proof.describe(taken) : null,
  };
}

function renderUploadStep(c: PhotoStepContext): TemplateResult {
  const { m, submission, nav } = c;
  const error = submission.uploadError;
  if (!error) return uploadStep({ m, percent: submission.percent ?? 0, onCancel: () => submission.cancelUpload() });
  return uploadErrorStep({
    m,
    message: uploadErrorMessage(error, m, c.locale),
    supportId: c.session?.id ?? error.externalId,
    // A locked tax id cannot be corrected here; the name still can.
    fixCpf: c.lockedTaxId ? error.field === 'name' : error.code === 'invalid_cpf' || error.field === 'cpf' || error.field === 'name',
    retakeRole: uploadErrorRole(error),
    final: uploadErrorIsFinal(error),
    canRetry: uploadErrorIsRetryable(error),
    onBackToReview: () => nav.goTo('review'),
    onFixCpf: () => nav.goTo('cpf'),
    onRetake: c.retakeFromReview,
    onRetry: () => void submission.upload(),
  });
}

function renderProcessingStep(c: PhotoStepContext): TemplateResult {
  const { m, submission } = c;
  return processingStep({
    m,
    t: c.afterSend,
    status: submission.liveStatus?.status ?? 'IN_PROCESS',
    error: submission.processingProblem,
    reference: c.session?.id ?? submission.tokenOnboarding,
    canCheckAgain: submission.canCheckAgain,
    phase: submission.waitPhase,
    offline: submission.offline,
    canClose: c.canClose,
    onCheckAgain: () => void submission.watch(),
    onRestart: c.onRestart,
  });
}

function renderOutcomeStep(c: PhotoStepContext): TemplateResult {
  const { host, session } = c;
  // Read here, when an outcome shows: declared as properties, these attributes would weigh on the first load.
  const help = host.getAttribute('help-url') ?? '';
  const outcome = c.submission.outcome;
  return outcome
    ? outcomeStep({
        m: c.m,
        t: c.afterSend,
        outcome,
        copyNotice: c.copyNotice,
        onCopy: c.onCopy,
        onRestart: c.onRestart,
        onRetryPhotos: c.onRetryPhotos,
        supportId: session?.id ?? outcome.tokenOnboarding,
        returnHref: session?.returnUrl ? returnHref(session.returnUrl, session.id, outcome.status) : null,
        helpUrl: isHttpUrl(help) ? help : null,
        continueSlotted: !!host.querySelector(':scope > [slot=continue]'),
        onContinue: host.hasAttribute('continue-event')
          ? (tokenOnboarding) => host.dispatchEvent(new OnboardingContinueEvent({ tokenOnboarding, status: 'APPROVED' }))
          : undefined,
      })
    : html``;
}
