/**
 * Everything of the flow after the data steps, loaded lazily (from beside the script in the
 * script-tag forms, `onboarding-flow.photo-steps.js`): the capture steps with the camera and
 * the photo checks' controller, the review, the upload, the wait and the outcome with the
 * companion client that sends and follows the onboarding. The element fetches it while the
 * person fills in the consent and data steps (photo-steps-controller.ts, load-photo-steps.ts),
 * and hands it its Lit and event classes (`provideKit`, lazy-kit.ts).
 */
export { provideKit } from './lazy-kit.js';
export { photoStepsStyles } from './photo-steps.styles.js';
export { CaptureController } from '../controllers/capture-controller.js';
export { SubmissionController } from '../controllers/submission-controller.js';
export { IntegrityController } from '../integrity/integrity-controller.js';
export { DocumentHintsController } from '../document-hints/hints-controller.js';
export { ProofOfAddressController } from '../proof-of-address/proof-controller.js';
export { DocumentPrefillController } from '../document-prefill/prefill-controller.js';
export { prefillPanel } from '../document-prefill/prefill-view.js';
export { renderPhotoStep, type PhotoStepContext } from './photo-steps-view.js';
// The companion client as the package exports it (src/api/lazy-client.ts).
export { createOnboarding, getOnboarding, streamStatus } from '../api/companion-client.js';
export { watchStatus } from '../api/status-watch.js';
