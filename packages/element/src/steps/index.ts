export { introStep, type IntroView } from './intro-step.js';
export {
  consentStep,
  cpfStep,
  documentTypeStep,
  type ConsentView,
  type CpfView,
  type CpfProblem,
  type DocumentTypeView,
} from './form-steps.js';
export { captureStep, type CaptureView } from './capture-step.js';
export { reviewStep, type ReviewView } from './review-step.js';
export {
  uploadStep,
  uploadErrorStep,
  processingStep,
  outcomeStep,
  type UploadView,
  type UploadErrorView,
  type ProcessingView,
  type OutcomeView,
} from './send-steps.js';
export { stepHeading, type HeadingContext } from './heading.js';
export { pendingStep, sessionHeading, sessionStep, type PendingStepView, type SessionStepView } from './session-step.js';
export { stagesList } from './stages.js';
