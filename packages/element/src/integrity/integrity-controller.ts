/**
 * Capture integrity as a Lit reactive controller of the flow (docs/page-api.md#capture-integrity):
 * while a capture step is open it reads the live camera's track once (label, capabilities,
 * settings), samples the preview's frame times, watches for the page being hidden, and asks the
 * step's nonce; it learns where each accepted photo came from; at sending it builds the creation's
 * `integrity`. It only watches: nothing here blocks or changes the flow.
 */
import type { CaptureIntegrityClaim, CreateOnboardingRequest, ImageRoleName, IntegritySignal } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import type { CaptureController } from '../controllers/capture-controller.js';
import type { CaptureViewElement } from '../capture-view/capture-view.js';
import { CaptureNonces, type NonceSource } from './capture-nonces.js';
import { sampleFrameTimes, type FrameTimes } from './frame-times.js';
import { ImageHashes } from './image-hashes.js';
import { integrityClaim, type PhotoOrigin } from './integrity-claim.js';
import {
  SIGNAL_THRESHOLDS,
  fileDespiteCamera,
  noCameraControls,
  oddVideoFormat,
  pageHidden,
  regularFrameTiming,
  virtualCameraLabel,
  webdriver,
} from './signal-rules.js';

/**
 * The longest a creation waits for the nonce of a photo sent right after it was taken, ms: a nonce
 * answers in milliseconds, and a companion that does not answer costs the attestation, never the send.
 */
const NONCE_WAIT_MS = 3_000;

export interface IntegrityOptions extends NonceSource {
  /** The role the visible step photographs; null off the capture steps. */
  activeRole(): ImageRoleName | null;
  /** The capture controller, once the photo steps are here. */
  capture(): CaptureController | null;
}

/** One opening of a capture step: what was read of it so far. */
interface StepOpening {
  role: ImageRoleName;
  camera: PhotoOrigin['camera'];
  /** Tracks whose label, capabilities and settings were read. */
  tracks: Set<string>;
  /** The stream whose frames are (or were) sampled, and the sampling while it runs. */
  sampled: MediaStream | null;
  frames: FrameTimes | null;
}

type TrackWithCapabilities = MediaStreamTrack & { getCapabilities?: () => MediaTrackCapabilities };

export class IntegrityController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: IntegrityOptions;
  readonly #nonces: CaptureNonces;
  /** Nonces asked for accepted photos, until they settle (a claim waits for them, briefly). */
  readonly #pendingNonces = new Set<Promise<void>>();
  readonly #hashes = new ImageHashes();
  /** Raised signals, one per name and step. */
  #signals = new Map<string, IntegritySignal>();
  #origins: Partial<Record<ImageRoleName, PhotoOrigin>> = {};
  #open: StepOpening | null = null;
  /** A camera was listed or went live on an earlier step: a step opens knowing it. */
  #cameraKnown = false;

  constructor(host: ReactiveElement, options: IntegrityOptions) {
    this.#host = host;
    this.#options = options;
    this.#nonces = new CaptureNonces(options);
    host.addController(this);
  }

  /** The signals raised so far (`webdriver` as the browser says now). */
  get signals(): IntegritySignal[] {
    const driven = webdriver(typeof navigator === 'undefined' ? undefined : navigator.webdriver);
    if (driven) this.#raise(driven);
    return [...this.#signals.values()];
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#closeStep();
  }

  hostUpdated(): void {
    // Without a session no nonce comes, and no attestation needs the hashes.
    const photos = (this.#options.secret() && this.#options.capture()?.photos) || {};
    this.#hashes.keep(Object.values(photos).flatMap((photo) => (photo ? [photo.base64] : [])));
    const role = this.#options.activeRole();
    if (role !== (this.#open?.role ?? null)) {
      this.#closeStep();
      if (role) this.#openStep(role);
    }
    const open = this.#open;
    const stream = this.#options.capture()?.camera.stream ?? null;
    if (!open) return;
    if (stream?.active) this.#readCamera(open, stream);
    else if (open.frames) this.#stopFrames(open);
  }

  /**
   * A photo of `role` was accepted, from the camera or a file: answers the nonce of the step's
   * opening (null without one). The capture controller's hook.
   */
  accepted(role: ImageRoleName, source: PhotoOrigin['source']): Promise<string | null> {
    const camera = this.#open?.role === role ? this.#open.camera : 'none';
    this.#origins = { ...this.#origins, [role]: { source, camera } };
    const signal = fileDespiteCamera(source, camera, role);
    if (signal) this.#raise(signal);
    const nonce = this.#nonces.current(role);
    // Settled a task later than the photo's own amendment (captured-photos.ts), so a claim waiting on it sees the nonce.
    const amended = nonce.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
    this.#pendingNonces.add(amended);
    void amended.finally(() => this.#pendingNonces.delete(amended));
    return nonce;
  }

  /**
   * The `integrity` of a creation sending `images` with the photos `photos()` gives. A photo sent
   * right after it was taken may still wait for its step's nonce: those are waited for, briefly.
   */
  async claim(images: CreateOnboardingRequest['images'], photos: () => CaptureController['photos']): Promise<CaptureIntegrityClaim> {
    const pending = Promise.all(this.#pendingNonces).then(() => undefined);
    await Promise.race([pending, new Promise<void>((resolve) => setTimeout(resolve, NONCE_WAIT_MS))]);
    const hashOf = (base64: string) => this.#hashes.of(base64);
    return integrityClaim({ images, hashOf, photos: photos(), signals: this.signals, selfie: this.#origins.selfie ?? null });
  }

  /** A new onboarding: what was seen of the last one goes. */
  reset(): void {
    this.#closeStep();
    this.#signals = new Map();
    this.#origins = {};
  }

  #openStep(role: ImageRoleName): void {
    const open: StepOpening = { role, camera: this.#cameraKnown ? 'listed' : 'none', tracks: new Set(), sampled: null, frames: null };
    this.#open = open;
    this.#nonces.open(role);
    // Whether a file picked here was picked although a camera was there to take it.
    void navigator.mediaDevices
      ?.enumerateDevices()
      .then((devices) => {
        if (!devices.some((device) => device.kind === 'videoinput')) return;
        this.#cameraKnown = true;
        if (open.camera === 'none') open.camera = 'listed';
      })
      .catch(() => undefined);
  }

  #closeStep(): void {
    if (this.#open) this.#stopFrames(this.#open);
    this.#open = null;
    this.#nonces.close();
  }

  #readCamera(open: StepOpening, stream: MediaStream): void {
    open.camera = 'opened';
    this.#cameraKnown = true;
    const track = stream.getVideoTracks()[0] as TrackWithCapabilities | undefined;
    if (track && !open.tracks.has(track.id)) {
      open.tracks.add(track.id);
      const capabilities = typeof track.getCapabilities === 'function' ? track.getCapabilities() : null;
      for (const raised of [
        virtualCameraLabel(track.label, open.role),
        noCameraControls(capabilities, open.role),
        oddVideoFormat(track.getSettings(), open.role),
      ])
        if (raised) this.#raise(raised);
    }
    if (open.sampled === stream) return;
    const video = this.#host.renderRoot.querySelector<CaptureViewElement>('onboarding-capture-view')?.video;
    if (!video) return;
    this.#stopFrames(open);
    open.sampled = stream;
    open.frames = sampleFrameTimes(video, SIGNAL_THRESHOLDS.framesSampled, (times) => {
      open.frames = null;
      const raised = regularFrameTiming(times, open.role);
      if (raised) this.#raise(raised);
    });
  }

  #stopFrames(open: StepOpening): void {
    open.frames?.stop();
    open.frames = null;
  }

  #raise(signal: IntegritySignal): void {
    const key = `${signal.name} ${signal.role ?? ''}`;
    if (!this.#signals.has(key)) this.#signals.set(key, signal);
  }

  readonly #onVisibility = (): void => {
    const raised = this.#open ? pageHidden(document.visibilityState, this.#open.role) : null;
    if (raised) this.#raise(raised);
  };
}
