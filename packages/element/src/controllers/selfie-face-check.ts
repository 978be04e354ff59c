/**
 * The capture controller's use of the face check: its worker (the liveness worker) started ahead
 * during the document steps, the challenge's model loaded in it, and the check run on the
 * selfie's JPEG once it passed the other checks. Where the check cannot run, the page learns it
 * once (an `onboarding-error` on the host) and the other checks stand.
 */
import { OnboardingErrorEvent } from '../events.js';
import type { SelfieVerdict } from '../face/face-detector.js';
import { FaceDetectorUnavailableError, judgeSelfieBlob } from '../face/load-face.js';
import { preloadLiveness } from '../liveness/load-liveness.js';
import { failureReason } from './photo-refusal.js';

export class SelfieFaceCheck {
  readonly #host: EventTarget;
  /** The page was told the face detector could not be loaded. */
  #unavailableTold = false;

  constructor(host: EventTarget) {
    this.#host = host;
  }

  /** Starts the worker and its model while the person takes the document's photos, so the selfie finds them ready. */
  preload(): void {
    preloadLiveness();
  }

  /**
   * Exactly one face, large enough, inside the oval. Null when the check cannot run (the page is
   * told once, and the other checks stand).
   */
  async verdict(jpeg: Blob): Promise<SelfieVerdict | null> {
    try {
      return (await judgeSelfieBlob(jpeg)).verdict;
    } catch (error) {
      if (error instanceof FaceDetectorUnavailableError && !this.#unavailableTold) {
        this.#unavailableTold = true;
        this.#host.dispatchEvent(
          new OnboardingErrorEvent({
            code: 'face_detector_unavailable',
            message: 'The face detector could not be loaded: the selfie was checked for exposure and focus only.',
            reason: failureReason(error),
          }),
        );
      }
      return null;
    }
  }
}
