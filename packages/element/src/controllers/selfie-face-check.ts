/**
 * The capture controller's use of the face detector: fetched ahead of the selfie step, and run
 * on the selfie's JPEG once it passed the other checks. Where the detector cannot load, the page
 * learns it once (an `onboarding-error` on the host) and the other checks stand.
 */
import { OnboardingErrorEvent } from '../events.js';
import type { SelfieVerdict } from '../face/face-detector.js';
import { FaceDetectorUnavailableError, judgeSelfieBlob, loadFaceDetector } from '../face/load-face.js';
import { failureReason } from './photo-refusal.js';

export class SelfieFaceCheck {
  readonly #host: EventTarget;
  /** The face detector was fetched ahead of the selfie (once per page visit of the step). */
  #preloaded = false;
  /** The page was told the face detector could not be loaded. */
  #unavailableTold = false;

  constructor(host: EventTarget) {
    this.#host = host;
  }

  /** Fetches the detector while the person reads the step, so the live face hints and the check are ready. */
  preload(): void {
    if (this.#preloaded) return;
    this.#preloaded = true;
    loadFaceDetector().catch(() => (this.#preloaded = false));
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
