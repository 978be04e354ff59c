/**
 * The capture's lazily arriving texts: the refusal texts, the face tips and the selfie's own
 * texts come with the image pipeline (a photo can only be refused once it is loaded), the
 * camera's error texts with the capture view, which is fetched here (ahead, on a capture step). Until they arrive, what is asked falls back to the
 * flow's first-load words or to nothing.
 */
import type { CameraErrorCode } from '../camera/camera-error.js';
import type { cameraErrorTexts } from '../capture-view/camera-error-texts.js';
import { loadCaptureView } from '../capture-view/load-capture-view.js';
import type { CaptureRole, ImageCheckCode, processImage, warmImageWorker } from '../image/pipeline.js';
import type { faceTips, imageErrors, selfieTexts } from '../messages/image-errors.js';
import type { OnboardingLocale } from '../messages/index.js';

/** What the image pipeline's file brings: the check itself and its texts. */
export interface PipelineKit {
  processImage: typeof processImage;
  imageErrors: typeof imageErrors;
  faceTips: typeof faceTips;
  selfieTexts?: typeof selfieTexts;
  /** Starts the image worker ahead of the camera's first frame (the live guidance reads frames there). */
  warmImageWorker?: typeof warmImageWorker;
}

/** The longest a capture step waits for an idle moment before it fetches the capture view anyway. */
const IDLE_WAIT_MS = 1_000;

export class CaptureTexts {
  pipeline: Omit<PipelineKit, 'processImage'> | null = null;
  camera: typeof cameraErrorTexts | null = null;
  /** The capture view (with the camera's error texts) is being fetched. */
  viewLoading = false;
  #preloading = false;

  /**
   * Fetches the capture view while the browser is idle (where the page can open a camera at all),
   * once: the flow draws it closed on the capture step, ready before the camera is asked for.
   */
  preloadView(changed: () => void, pipeline: () => Promise<PipelineKit>): void {
    if (this.camera || this.viewLoading || this.#preloading) return;
    // `typeof navigator` first: `navigator?.` on an undeclared global throws where there is none (a server render).
    if (typeof navigator === 'undefined' || typeof navigator.mediaDevices?.getUserMedia !== 'function') return;
    this.#preloading = true;
    const load = () => {
      if (!this.camera && !this.viewLoading) void this.loadView(changed, pipeline);
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: IDLE_WAIT_MS });
    else setTimeout(load, IDLE_WAIT_MS);
  }

  /**
   * Fetches the capture view and its camera texts: true once here, else the load's error; `changed`
   * once it settled. With `pipeline`, the image worker starts meanwhile (the guidance reads frames there).
   */
  loadView(changed: () => void, pipeline?: () => Promise<PipelineKit>): Promise<true | unknown> {
    this.viewLoading = true;
    pipeline?.().then(
      (kit) => kit.warmImageWorker?.(),
      () => undefined,
    );
    const view = loadCaptureView().then(
      (texts) => {
        this.camera = texts;
        return true as const;
      },
      (error: unknown) => error,
    );
    void view.then(() => {
      this.viewLoading = false;
      changed();
    });
    return view;
  }

  /** Why a photo was refused; a picked file is not told about the oval. */
  refusal(code: ImageCheckCode, locale: OnboardingLocale, fromFile: boolean): string {
    const fileText = fromFile ? this.pipeline?.selfieTexts?.[locale].fromFile[code] : undefined;
    return fileText ?? this.pipeline?.imageErrors[locale][code] ?? code;
  }

  /** What is said of an accepted photo of `role`: a selfie is a face to check, a document print to read. */
  accepted(role: CaptureRole, locale: OnboardingLocale, general: string): string {
    return (role === 'selfie' && this.pipeline?.selfieTexts?.[locale].accepted) || general;
  }

  /** The camera's error text, or `meanwhile` before the capture view brought them. */
  cameraError(code: CameraErrorCode, locale: OnboardingLocale, meanwhile: string | null): string | null {
    return this.camera ? this.camera[locale][code] : meanwhile;
  }

  faceTips(locale: OnboardingLocale): string {
    return this.pipeline?.faceTips[locale] ?? '';
  }
}
