/**
 * The photos of `<onboarding-flow>` as a Lit reactive controller: the camera, the image
 * pipeline (loaded on first use), the accepted photo of each role and the refused one with its
 * reason. It owns every object URL it shows and revokes it when the photo is replaced, dropped
 * or reset, and when the host leaves the document (recreated if the host comes back, as when a
 * page moves the element). A pipeline result that arrives after the step was left or another
 * photo was started is discarded.
 */
import { base64ToBytes } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import { CameraController } from '../camera/camera-controller.js';
import type { CaptureRole, ImageCheckCode, ProcessedImage, processImage } from '../image/pipeline.js';
import { OnboardingCaptureEvent, OnboardingErrorEvent } from '../events.js';
import type { Messages } from '../messages/index.js';
import { LatestRun } from './latest-run.js';

export interface RejectedPhoto {
  role: CaptureRole;
  code: ImageCheckCode;
  /** Object URL of the refused source, when it is an image the browser can show. */
  previewUrl: string | null;
}

export interface PipelineLimits {
  maxBytes?: number;
  maxLongEdge?: number;
}

export interface CaptureOptions {
  /** The role the visible step photographs; null off the capture steps. */
  activeRole(): CaptureRole | null;
  /** The pipeline's size caps, read when a photo is processed. */
  limits(): PipelineLimits;
  messages(): Messages;
  /** A line for the live region. */
  announce(text: string): void;
  /** Loads the image pipeline; default: the lazily imported module (tests inject their own). */
  loadPipeline?: () => Promise<{ processImage: typeof processImage }>;
}

// Loaded on first use: the compression library stays out of the element's first load.
const loadPipeline = () => import('../image/pipeline.js');

export class CaptureController implements ReactiveController {
  /** Opened only on request, stopped on every step change. */
  readonly camera: CameraController;
  readonly #host: ReactiveElement;
  readonly #options: CaptureOptions;
  #photos: Partial<Record<CaptureRole, ProcessedImage>> = {};
  #rejected: RejectedPhoto | null = null;
  /** The refused source, to show it again after the host comes back to the document. */
  #rejectedSource: Blob | null = null;
  #checking = false;
  #lastSource: 'camera' | 'file' | null = null;
  readonly #pipeline = new LatestRun();
  /** Bumped whenever the camera is stopped for good: a camera start that ends later says nothing. */
  #cameraAttempt = 0;
  /** The object URLs were revoked when the host left the document. */
  #suspended = false;

  constructor(host: ReactiveElement, options: CaptureOptions) {
    this.#host = host;
    this.#options = options;
    this.camera = new CameraController(host);
    host.addController(this);
  }

  get photos(): Readonly<Partial<Record<CaptureRole, ProcessedImage>>> {
    return this.#photos;
  }

  photo(role: CaptureRole): ProcessedImage | undefined {
    return this.#photos[role];
  }

  /** The photo the checks refused on the step of `role`, if any. */
  rejectedFor(role: CaptureRole): RejectedPhoto | null {
    return this.#rejected?.role === role ? this.#rejected : null;
  }

  /** Whether a photo is being checked and compressed. */
  get checking(): boolean {
    return this.#checking;
  }

  hostConnected(): void {
    if (this.#suspended) this.#resume();
  }

  hostUpdated(): void {
    this.camera.attach(this.#options.activeRole() ? this.#host.renderRoot.querySelector('video') : null);
  }

  hostDisconnected(): void {
    this.stop();
    this.#suspend();
  }

  async openCamera(): Promise<void> {
    const role = this.#options.activeRole();
    if (!role || this.camera.state === 'starting' || this.#checking) return;
    const attempt = ++this.#cameraAttempt;
    this.#clearRejected();
    await this.camera.start(role === 'selfie' ? 'user' : 'environment');
    if (attempt !== this.#cameraAttempt) return;
    const m = this.#options.messages();
    if (this.camera.state === 'live') this.#options.announce(m.capture.cameraLive);
    const error = this.camera.error;
    if (this.camera.state === 'error' && error) {
      this.#host.dispatchEvent(new OnboardingErrorEvent({ code: `camera_${error.code}`, message: m.cameraErrors[error.code] }));
    }
  }

  async takePhoto(): Promise<void> {
    const role = this.#options.activeRole();
    if (!role || this.#checking) return;
    let frame: Blob;
    try {
      frame = await this.camera.capture();
    } catch {
      this.#options.announce(this.#options.messages().cameraErrors.aborted);
      return;
    }
    this.camera.stop();
    this.#lastSource = 'camera';
    await this.#process(frame, role);
  }

  /** The `change` of the file input: checks the picked file as the visible step's photo. */
  pickFile(e: Event): void {
    const role = this.#options.activeRole();
    if (!role) return;
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again still fires `change`.
    input.value = '';
    if (!file) return;
    this.camera.stop();
    this.#lastSource = 'file';
    void this.#process(file, role);
  }

  /** Drops the visible step's photo and offers capture again (the camera reopens if the photo came from it). */
  retake(): void {
    const role = this.#options.activeRole();
    if (!role) return;
    const reopen = this.#lastSource === 'camera';
    this.remove(role);
    this.#clearRejected();
    void this.#host.updateComplete.then(() => this.#host.renderRoot.querySelector<HTMLElement>('[data-capture-start]')?.focus());
    if (reopen) void this.openCamera();
  }

  /** Drops the photos of these roles, revoking their object URLs. */
  remove(...roles: CaptureRole[]): void {
    for (const role of roles) {
      const existing = this.#photos[role];
      if (!existing) continue;
      URL.revokeObjectURL(existing.previewUrl);
      const { [role]: _dropped, ...rest } = this.#photos;
      this.#photos = rest;
      this.#host.requestUpdate();
    }
  }

  /** Stops the camera and any photo being checked (its result will be ignored). */
  stop(): void {
    this.#cameraAttempt++;
    this.camera.stop();
    this.#pipeline.cancel();
    this.#setChecking(false);
  }

  /** The visible step is being left: nothing keeps running and its refused photo goes. */
  leaveStep(): void {
    this.stop();
    this.#clearRejected();
  }

  /** Drops every photo, accepted or refused, revoking their object URLs. */
  clear(): void {
    for (const photo of Object.values(this.#photos)) if (photo) URL.revokeObjectURL(photo.previewUrl);
    this.#photos = {};
    this.#clearRejected();
    this.#host.requestUpdate();
  }

  reset(): void {
    this.stop();
    this.clear();
    this.#lastSource = null;
  }

  async #process(source: Blob, role: CaptureRole): Promise<void> {
    const signal = this.#pipeline.begin();
    this.#clearRejected();
    this.#setChecking(true);
    const m = this.#options.messages();
    this.#options.announce(m.capture.checking);
    try {
      const { processImage } = await (this.#options.loadPipeline ?? loadPipeline)();
      const image = await processImage(source, { role, signal, ...this.#options.limits() });
      if (!this.#pipeline.isCurrent(signal) || this.#options.activeRole() !== role) {
        URL.revokeObjectURL(image.previewUrl);
        return;
      }
      this.remove(role);
      this.#photos = { ...this.#photos, [role]: image };
      this.#host.requestUpdate();
      this.#options.announce(m.capture.accepted);
      this.#host.dispatchEvent(
        new OnboardingCaptureEvent({ role, bytes: image.bytes, width: image.width, height: image.height, processedIn: image.processedIn, processedBy: image.processedBy }),
      );
    } catch (error) {
      if (!this.#pipeline.isCurrent(signal)) return;
      const code = imageCheckCode(error, m);
      const showable = code !== 'not-an-image' && code !== 'unsupported-type' && /^image\//.test(source.type);
      this.#rejected = { role, code, previewUrl: showable ? URL.createObjectURL(source) : null };
      this.#rejectedSource = showable ? source : null;
      this.#host.requestUpdate();
      // The photo was not refused for what it shows: the page (and its logs) should learn why.
      if (code === 'compression-failed') {
        this.#host.dispatchEvent(
          new OnboardingErrorEvent({ code: 'image_compression-failed', message: m.imageErrors[code], reason: failureReason(error) }),
        );
      }
    } finally {
      if (this.#pipeline.end(signal)) this.#setChecking(false);
    }
  }

  #clearRejected(): void {
    if (!this.#rejected) return;
    if (this.#rejected.previewUrl) URL.revokeObjectURL(this.#rejected.previewUrl);
    this.#rejected = null;
    this.#rejectedSource = null;
    this.#host.requestUpdate();
  }

  #setChecking(checking: boolean): void {
    if (this.#checking === checking) return;
    this.#checking = checking;
    this.#host.requestUpdate();
  }

  #suspend(): void {
    for (const photo of Object.values(this.#photos)) if (photo) URL.revokeObjectURL(photo.previewUrl);
    if (this.#rejected?.previewUrl) URL.revokeObjectURL(this.#rejected.previewUrl);
    this.#suspended = true;
  }

  /** New object URLs for what #suspend revoked: the photos from their JPEG bytes, the refused one from its source. */
  #resume(): void {
    this.#suspended = false;
    const photos: Partial<Record<CaptureRole, ProcessedImage>> = {};
    for (const [role, photo] of Object.entries(this.#photos) as [CaptureRole, ProcessedImage | undefined][]) {
      if (!photo) continue;
      const jpeg = new Blob([base64ToBytes(photo.base64) as Uint8Array<ArrayBuffer>], { type: photo.mime });
      photos[role] = { ...photo, previewUrl: URL.createObjectURL(jpeg) };
    }
    this.#photos = photos;
    if (this.#rejected?.previewUrl) {
      this.#rejected = { ...this.#rejected, previewUrl: this.#rejectedSource ? URL.createObjectURL(this.#rejectedSource) : null };
    }
    this.#host.requestUpdate();
  }
}

/** The error's message and its cause's, e.g. "The image could not be prepared (TypeError: ...)". */
function failureReason(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, message } = e as { name?: unknown; message?: unknown };
    const part = typeof message === 'string' ? `${typeof name === 'string' ? `${name}: ` : ''}${message}` : String(e);
    // The pipeline already quotes its cause in its message; say it once.
    if (!parts.some((p) => p.includes(part))) parts.push(part);
  }
  return parts.join(' <- ');
}

function imageCheckCode(error: unknown, messages: Messages): ImageCheckCode {
  const code = (error as { code?: unknown } | null)?.code;
  // Duck-typed so that ImageCheckError (and the pipeline module) is not imported eagerly.
  return typeof code === 'string' && code in messages.imageErrors ? (code as ImageCheckCode) : 'compression-failed';
}
