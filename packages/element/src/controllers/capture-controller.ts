/**
 * The photos of `<onboarding-flow>` as a Lit reactive controller: the camera, the image
 * pipeline (loaded on first use), the accepted photo of each role and the refused one with its
 * reason. It owns every object URL it shows and revokes it when the photo is replaced, dropped
 * or reset, and when the host leaves the document (recreated if the host comes back, as when a
 * page moves the element). A pipeline result that arrives after the step was left or another
 * photo was started is discarded.
 */
import { base64ToBytes, type KeptCheck } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import { CameraController } from '../camera/camera-controller.js';
import type { FramePixels } from '../camera/capture-frame.js';
import { cameraError, type CameraErrorCode } from '../camera/camera-error.js';
import { cropRect, guideMargin } from '../camera/guide-geometry.js';
import type { CaptureViewElement } from '../capture-view/capture-view.js';
import type { CaptureRole, ImageCheckCode } from '../image/pipeline.js';
import { loadPipeline } from './load-pipeline.js';
import { OnboardingErrorEvent } from '../events.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import { CaptureTexts, type PipelineKit } from './capture-texts.js';
import { CapturedPhotos, captureEvent, type CapturedPhoto, type RejectedPhoto } from './captured-photos.js';
import { LatestRun } from './latest-run.js';
import { KEEPABLE, SELFIE_NEVER_KEPT, failureReason, imageCheckCode, isBlobSource, mayKeep, refusedFrame } from './photo-refusal.js';
import { SelfieFaceCheck } from './selfie-face-check.js';
import { FILE_SELFIE, SelfieLiveness, acceptedPhoto, type ChallengeOutcome } from './selfie-liveness.js';
import { focusAfterCheck } from './photo-focus.js';
import { PhotoReadings } from '../reader/photo-readings.js';

export type PipelineLimits = { maxBytes?: number; maxLongEdge?: number };

export interface CaptureOptions {
  /** The role the visible step photographs; null off the capture steps. */
  activeRole(): CaptureRole | null;
  /** The pipeline's size caps, read when a photo is processed. */
  limits(): PipelineLimits;
  /** The flow's settings as resolved: its messages, and the locale of the texts that come with the pipeline and the capture view. */
  context: FlowContextSource;
  /** A line for the live region. */
  announce(text: string): void;
  /** Loads the image pipeline; default: the lazily imported module (tests inject their own). */
  loadPipeline?: () => Promise<PipelineKit>;
  /** A photo was accepted from `source`: the capture nonce of its step, when one comes (integrity-controller.ts). */
  attest?(role: CaptureRole, source: 'camera' | 'file'): Promise<string | null>;
}

export class CaptureController implements ReactiveController {
  /** Opened only on request, stopped on every step change. */
  readonly camera: CameraController;
  readonly #host: ReactiveElement;
  readonly #options: CaptureOptions;
  readonly #shown: CapturedPhotos;
  /** What the document photos carry, read in the reader's worker. */
  readonly readings: PhotoReadings<CapturedPhoto>;
  #checking = false;
  #lastSource: 'camera' | 'file' | null = null;
  /** Photos refused in a row on each step: from the second, the person may keep one anyway. */
  #refusals: Partial<Record<CaptureRole, number>> = {};
  /** The capture view shows this opening of the camera (from the moment it is live, not while it is asked for). */
  #viewOpen = false;
  #canSwitch = false;
  /** A frame is being grabbed from the camera. */
  #taking = false;
  readonly #texts = new CaptureTexts();
  readonly #face: SelfieFaceCheck;
  readonly liveness: SelfieLiveness;
  readonly #pipeline = new LatestRun();
  /** Bumped whenever the camera is stopped for good: a camera start that ends later says nothing. */
  #cameraAttempt = 0;
  /** The object URLs were revoked when the host left the document. */
  #suspended = false;

  constructor(host: ReactiveElement, options: CaptureOptions) {
    this.#host = host;
    this.#options = options;
    this.camera = new CameraController(host);
    this.#shown = new CapturedPhotos(() => host.requestUpdate());
    this.readings = new PhotoReadings(this.#shown);
    this.#face = new SelfieFaceCheck(host);
    this.liveness = new SelfieLiveness(() => host.requestUpdate());
    host.addController(this);
  }

  get photos(): Readonly<Partial<Record<CaptureRole, CapturedPhoto>>> {
    return this.#shown.all;
  }

  photo(role: CaptureRole): CapturedPhoto | undefined {
    return this.#shown.all[role];
  }

  /** The photo the checks refused on the step of `role`, if any. */
  rejectedFor(role: CaptureRole): RejectedPhoto | null {
    const rejected = this.#shown.rejected;
    return rejected?.role === role ? rejected : null;
  }

  /** Why a photo was refused, in the locale in effect (a picked file is not told about the oval). */
  errorText(code: ImageCheckCode): string {
    return this.#texts.refusal(code, this.#options.context.current.locale, this.#lastSource === 'file');
  }

  /** What is said of an accepted photo of `role`: a selfie is a face to check, a document print to read. */
  acceptedText(role: CaptureRole): string {
    const { locale, messages } = this.#options.context.current;
    return this.#texts.accepted(role, locale, messages.capture.accepted);
  }

  /** What else to try once a selfie was refused twice for its face, in the locale in effect. */
  faceTipsText(): string {
    return this.#texts.faceTips(this.#options.context.current.locale);
  }

  /** Why the camera cannot be used, in the locale in effect: null while those texts come with the capture view (no general line flashes first), a general line if it failed to load. */
  cameraErrorText(code: CameraErrorCode): string | null {
    const { locale, messages } = this.#options.context.current;
    return this.#texts.cameraError(code, locale, this.#texts.viewLoading ? null : messages.capture.cameraFailed);
  }

  /** Whether a photo is being checked and compressed. */
  get checking(): boolean {
    return this.#checking;
  }

  /** The capture view: `loaded` (drawn closed on a capture step), `open` over the live camera. */
  get view(): { loaded: boolean; open: boolean } {
    const { state } = this.camera;
    return { loaded: this.#texts.camera !== null, open: this.#viewOpen && (state === 'live' || state === 'starting') };
  }

  /** Whether the device has another camera to switch to. */
  get canSwitch(): boolean {
    return this.#canSwitch;
  }

  /** Whether a frame is being taken (the shutter waits). */
  get taking(): boolean {
    return this.#taking;
  }

  /** Mirror the preview: a front camera, as the track reports it, else the selfie's. */
  get mirrored(): boolean {
    const facing = this.camera.stream?.getVideoTracks()[0]?.getSettings().facingMode;
    return facing ? facing === 'user' : this.#options.activeRole() === 'selfie';
  }

  hostConnected(): void {
    if (!this.#suspended) return;
    this.#suspended = false;
    this.#shown.resume();
  }

  hostUpdated(): void {
    const role = this.#options.activeRole();
    if (role) this.#face.preload();
    if (role) this.#texts.preloadView(() => this.#host.requestUpdate(), this.#options.loadPipeline ?? loadPipeline);
  }

  hostDisconnected(): void {
    this.stop();
    this.#shown.suspend();
    this.#suspended = true;
  }

  async openCamera(): Promise<void> {
    const role = this.#options.activeRole();
    if (!role || this.camera.state === 'starting' || this.#checking) return;
    const attempt = ++this.#cameraAttempt;
    this.#viewOpen = false;
    this.#shown.clearRejected();
    this.readings.forget(role);
    // The view loads, and the image worker the guidance reads frames in starts, during the prompt.
    const view = this.#texts.loadView(() => this.#host.requestUpdate(), this.#options.loadPipeline ?? loadPipeline);
    await this.camera.start(role === 'selfie' ? 'user' : 'environment');
    const loaded = await view;
    if (attempt !== this.#cameraAttempt) return;
    if (loaded === true) {
      this.#viewOpen = true;
      this.#host.requestUpdate();
    } else if (this.camera.state === 'live') this.camera.fail(cameraError('unknown', loaded));
    if (this.camera.state === 'live') void this.#checkSwitch(attempt);
    if (this.camera.state === 'error') this.#reportCameraError();
  }

  /** Takes the photo: the guide's region of the frame (plus its margin), as the view shows it; `auto` when the live checks took it. */
  async takePhoto(auto = false): Promise<void> {
    const role = this.#options.activeRole();
    if (!role || this.#checking || this.#taking) return;
    const view = this.#host.renderRoot.querySelector<CaptureViewElement>('onboarding-capture-view');
    // Pixels, not a JPEG: the pipeline encodes the frame once, as the upload.
    let frame: FramePixels;
    let guide: { x: number; y: number } | undefined;
    this.#setTaking(true);
    try {
      frame = await this.camera.capturePixels({
        preview: view?.video ?? null,
        region: (width, height) => {
          guide = guideMargin(role, width, height);
          return cropRect(role, width, height);
        },
      });
    } catch {
      this.#options.announce(this.cameraErrorText('aborted') ?? '');
      return;
    } finally {
      this.#setTaking(false);
    }
    this.camera.stop();
    this.#lastSource = 'camera';
    await this.#process(frame, role, { auto, guide, ...(role === 'selfie' && { challenge: this.liveness.take() }) });
  }

  /** Closes the camera and puts focus back on the button that opened it. */
  closeCamera(): void {
    this.stop();
    this.#focus('[data-capture-start]');
  }

  /** Opens the device's next camera (front/back on phones, the next webcam elsewhere). */
  async switchCamera(): Promise<void> {
    const role = this.#options.activeRole();
    if (!role || this.camera.state !== 'live') return;
    const cameras = await this.camera.videoInputs();
    const current = this.camera.stream?.getVideoTracks()[0]?.getSettings().deviceId;
    const next = cameras[(cameras.findIndex((c) => c.deviceId === current) + 1) % cameras.length];
    if (!next?.deviceId || next.deviceId === current) return;
    const attempt = ++this.#cameraAttempt;
    await this.camera.start(role === 'selfie' ? 'user' : 'environment', next.deviceId);
    if (attempt === this.#cameraAttempt) this.#reportCameraError();
  }

  #reportCameraError(): void {
    const error = this.camera.error;
    if (error)
      this.#host.dispatchEvent(new OnboardingErrorEvent({ code: `camera_${error.code}`, message: this.cameraErrorText(error.code) ?? '' }));
  }

  /** Keeps the refused photo of the visible step (offered after two refusals in a row, never for a selfie without a face). */
  keepAnyway(): void {
    const role = this.#options.activeRole();
    const source = this.#shown.rejectedSource;
    const rejected = role ? this.rejectedFor(role) : null;
    if (!role || !source || !rejected?.canKeep) return;
    void this.#process(source, role, { keepAnyway: rejected.code as KeptCheck });
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
    void this.#process(file, role, role === 'selfie' ? { challenge: Promise.resolve(FILE_SELFIE) } : {});
  }

  /** Drops the visible step's photo and offers capture again (the camera reopens if the photo came from it). */
  retake(): void {
    const role = this.#options.activeRole();
    if (!role) return;
    const reopen = this.#lastSource === 'camera';
    this.remove(role);
    this.#shown.clearRejected();
    this.#focus('[data-capture-start]');
    if (reopen) void this.openCamera();
  }

  /** Drops the photos of these roles, revoking their object URLs. */
  remove(...roles: CaptureRole[]): void {
    this.#shown.remove(...roles);
  }

  /** The document's front and back photos change places. */
  swapSides(): void {
    this.#shown.swap('documentFront', 'documentBack');
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
    this.#shown.clearRejected();
  }

  /** Drops every photo, accepted or refused, revoking their object URLs. */
  clear(): void {
    this.#shown.clear();
  }

  reset(): void {
    this.stop();
    this.clear();
    this.#lastSource = null;
    this.#refusals = {};
  }

  /** A picked file, or a camera frame's pixels (the pipeline takes them over); `keepAnyway`: the check the person overrules. */
  async #process(
    source: Blob | FramePixels,
    role: CaptureRole,
    how: { auto?: boolean; keepAnyway?: KeptCheck; guide?: { x: number; y: number }; challenge?: Promise<ChallengeOutcome> } = {},
  ): Promise<void> {
    const signal = this.#pipeline.begin();
    this.#shown.clearRejected();
    this.#setChecking(true);
    const m = this.#options.context.current.messages;
    this.#options.announce(how.auto ? `${m.capture.autoCaptured} ${m.capture.checking}` : m.capture.checking);
    try {
      const pipeline = await (this.#options.loadPipeline ?? loadPipeline)().catch((error: unknown) => {
        if (!isBlobSource(source)) source.close();
        throw error;
      });
      this.#texts.pipeline = pipeline;
      const { processImage } = pipeline;
      const image = await processImage(source, {
        role,
        signal,
        ...this.#options.limits(),
        ...(how.keepAnyway && { keepAnyway: true }),
        ...(how.guide && { guide: how.guide }),
      });
      // The face check reads the JPEG that would be sent, even of a selfie kept anyway: kept for its blur, it must still show a face.
      const jpeg = role === 'selfie' ? new Blob([base64ToBytes(image.base64) as Uint8Array<ArrayBuffer>], { type: image.mime }) : null;
      const face = jpeg ? await this.#face.verdict(jpeg) : null;
      if (!this.#pipeline.isCurrent(signal) || this.#options.activeRole() !== role) {
        URL.revokeObjectURL(image.previewUrl);
        return;
      }
      if (face && face !== 'ok' && (!how.keepAnyway || SELFIE_NEVER_KEPT.has(face))) {
        URL.revokeObjectURL(image.previewUrl);
        throw Object.assign(new Error(`The selfie failed the face check: ${face}`), { code: face, image: jpeg });
      }
      const accepted = acceptedPhoto(image, how.keepAnyway, await how.challenge);
      this.#shown.accept(role, accepted, this.#options.attest?.(role, this.#lastSource ?? 'file'));
      this.readings.readPhoto(role, accepted, !isBlobSource(source));
      delete this.#refusals[role];
      this.#options.announce(how.keepAnyway ? m.capture.kept : this.acceptedText(role));
      this.#host.dispatchEvent(captureEvent(accepted));
    } catch (error) {
      if (!this.#pipeline.isCurrent(signal)) return;
      const code = imageCheckCode(error, this.#texts.pipeline?.imageErrors ?? null);
      // A refused camera frame comes back as a JPEG (the pipeline's ImageCheckError.image); a file is its own.
      const refused = isBlobSource(source) ? source : refusedFrame(error);
      const showable = code !== 'not-an-image' && code !== 'unsupported-type' && refused !== null && /^image\//.test(refused.type);
      const refusals = KEEPABLE.has(code) ? (this.#refusals[role] ?? 0) + 1 : 0;
      this.#refusals[role] = refusals;
      const stuck = refusals >= 2 && !mayKeep(role, code);
      this.#shown.reject({ role, code, canKeep: refusals >= 2 && mayKeep(role, code), stuck }, showable ? refused : null);
      if (stuck) this.#options.announce(this.faceTipsText());
      // The photo was not refused for what it shows: the page (and its logs) should learn why.
      if (code === 'compression-failed') {
        this.#host.dispatchEvent(
          new OnboardingErrorEvent({ code: 'image_compression-failed', message: this.errorText(code), reason: failureReason(error) }),
        );
      }
    } finally {
      if (this.#pipeline.end(signal)) {
        this.#setChecking(false);
        focusAfterCheck(this.#host);
      }
    }
  }

  /** Where the device has more than one camera, the view offers to switch (known once access is granted). */
  async #checkSwitch(attempt: number): Promise<void> {
    const many = (await this.camera.videoInputs()).length > 1;
    if (attempt === this.#cameraAttempt && many !== this.#canSwitch) {
      this.#canSwitch = many;
      this.#host.requestUpdate();
    }
  }

  /** Focuses an element of the step once it is rendered (the camera view closing leaves focus nowhere). */
  #focus(selector: string): void {
    // A task later: the capture view closes in a task of its own, and an inert page takes no focus.
    void this.#host.updateComplete.then(() => setTimeout(() => this.#host.renderRoot.querySelector<HTMLElement>(selector)?.focus()));
  }

  #setTaking(taking: boolean): void {
    this.#taking = taking;
    this.#host.requestUpdate();
  }

  #setChecking(checking: boolean): void {
    if (this.#checking === checking) return;
    this.#checking = checking;
    this.#host.requestUpdate();
  }
}
