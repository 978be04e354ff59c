/**
 * The camera as a Lit reactive controller: opens it only when asked, keeps at most one stream,
 * and stops every track as soon as it is not needed (stop(), host removed, page hidden), so the
 * camera light never stays on behind the person's back.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CameraError, cameraError, mapCameraError } from './camera-error.js';
import { captureFrame, captureFramePixels, type CaptureOptions, type FramePixels } from './capture-frame.js';

export { CameraError, mapCameraError };
export type { CameraErrorCode } from './camera-error.js';
export type { CaptureOptions } from './capture-frame.js';

export type CameraFacing = 'environment' | 'user';
export type CameraState = 'idle' | 'starting' | 'live' | 'error';

/** High resolution is a preference only: a camera without it still opens. */
const RESOLUTION = { width: { ideal: 1920 }, height: { ideal: 1080 } } as const;

/**
 * What to ask for, most to least specific. `exact` picks the right camera on phones;
 * desktop cameras (and Chromium's fake device) do not report a facing, so `exact` is
 * overconstrained there and the next, preferred-only, request opens them.
 */
export function constraintLadder(facing: CameraFacing): MediaStreamConstraints[] {
  return [
    { audio: false, video: { ...RESOLUTION, facingMode: { exact: facing } } },
    { audio: false, video: { ...RESOLUTION, facingMode: { ideal: facing } } },
    { audio: false, video: true },
  ];
}

function isOverconstrained(error: unknown): boolean {
  return mapCameraError(error).code === 'constraints';
}

export class CameraController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  #state: CameraState = 'idle';
  #error: CameraError | null = null;
  #stream: MediaStream | null = null;
  #facing: CameraFacing | null = null;
  #video: HTMLVideoElement | null = null;
  /** Bumped by every start()/stop(): a getUserMedia that resolves for an older attempt is discarded. */
  #attempt = 0;
  #listening = false;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
    host.addController(this);
  }

  get state(): CameraState {
    return this.#state;
  }
  get error(): CameraError | null {
    return this.#error;
  }
  get stream(): MediaStream | null {
    return this.#stream;
  }
  /** The facing asked for in the last start() (null when idle); the preview mirrors only 'user'. */
  get facing(): CameraFacing | null {
    return this.#facing;
  }

  hostConnected(): void {
    this.#watchVisibility();
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibilityChange);
    this.#listening = false;
    this.stop();
  }

  /**
   * Opens the camera facing `facing`, stopping any previous stream first. Never rejects: the
   * outcome is `state` ('live' or 'error') and `error`, and the host re-renders on each change.
   */
  async start(facing: CameraFacing, deviceId?: string): Promise<void> {
    this.#releaseStream();
    const attempt = ++this.#attempt;
    this.#facing = facing;
    this.#error = null;
    this.#setState('starting');
    // A camera started while the host is detached still needs the page-hidden guard.
    this.#watchVisibility();

    let stream: MediaStream;
    try {
      stream = await this.#open(facing, deviceId);
    } catch (error) {
      if (attempt !== this.#attempt) return;
      this.#error = mapCameraError(error);
      this.#facing = null;
      this.#setState('error');
      return;
    }
    if (attempt !== this.#attempt) {
      // stop() or another start() came while this one was waiting: this stream is nobody's.
      stopTracks(stream);
      return;
    }
    this.#stream = stream;
    // The handler property, not addEventListener: Firefox (153) calls no addEventListener listener
    // of a MediaStreamTrack for an event dispatched on it, only `onended` (the tracks are ours alone).
    for (const track of stream.getTracks()) track.onended = this.#onTrackEnded;
    this.#bindVideo();
    this.#setState('live');
  }

  /** Shows the stream in `video` (and any later stream); `null` detaches the previous element. */
  attach(video: HTMLVideoElement | null): void {
    if (this.#video && this.#video !== video) this.#video.srcObject = null;
    this.#video = video;
    this.#bindVideo();
  }

  /**
   * The current frame at the stream's full resolution, never mirrored (mirroring of the preview
   * is CSS only). JPEG at quality 0.95 by default: the pipeline re-encodes it anyway.
   */
  async capture(options?: CaptureOptions): Promise<Blob> {
    const stream = this.#stream;
    if (this.#state !== 'live' || !stream) throw cameraError('aborted');
    return captureFrame(stream, options?.preview ?? this.#video, options);
  }

  /**
   * The current frame as pixels (a VideoFrame or an ImageBitmap, full resolution or the region,
   * never mirrored): what the image pipeline takes from the camera, so the frame is encoded once,
   * as the upload. The caller owns it.
   */
  async capturePixels(options?: Omit<CaptureOptions, 'type' | 'quality'>): Promise<FramePixels> {
    const stream = this.#stream;
    if (this.#state !== 'live' || !stream) throw cameraError('aborted');
    return captureFramePixels(stream, options?.preview ?? this.#video, options);
  }

  /** Stops every track and shows `error` (a failure around the camera, such as its view not loading). */
  fail(error: CameraError): void {
    this.#attempt++;
    this.#releaseStream();
    this.#facing = null;
    this.#error = error;
    this.#setState('error');
  }

  /** The cameras of this device, in the browser's order (labels may be empty before access is granted). */
  async videoInputs(): Promise<MediaDeviceInfo[]> {
    try {
      return (await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === 'videoinput');
    } catch {
      return [];
    }
  }

  /** Stops every track; state back to 'idle' (an error state is cleared too). */
  stop(): void {
    this.#attempt++;
    const wasIdle = this.#state === 'idle' && !this.#stream;
    this.#releaseStream();
    this.#facing = null;
    this.#error = null;
    if (!wasIdle) this.#setState('idle');
  }

  #watchVisibility(): void {
    if (this.#listening) return;
    document.addEventListener('visibilitychange', this.#onVisibilityChange);
    this.#listening = true;
  }

  async #open(facing: CameraFacing, deviceId: string | undefined): Promise<MediaStream> {
    const mediaDevices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!mediaDevices?.getUserMedia) throw mapCameraError(new TypeError('navigator.mediaDevices is unavailable'));
    const ladder = constraintLadder(facing);
    // A camera picked by the person (switching cameras) comes first; gone, the facing decides.
    if (deviceId) ladder.unshift({ audio: false, video: { ...RESOLUTION, deviceId: { exact: deviceId } } });
    let lastError: unknown;
    for (const constraints of ladder) {
      try {
        return await mediaDevices.getUserMedia(constraints);
      } catch (error) {
        if (!isOverconstrained(error)) throw error;
        lastError = error;
      }
    }
    // The last request (`video: true`) sets nothing a camera could fail to meet: WebKit answers it
    // with OverconstrainedError ("Invalid constraint") when the device has no camera at all.
    throw cameraError('no-camera', lastError);
  }

  #bindVideo(): void {
    const video = this.#video;
    if (!video) return;
    video.playsInline = true;
    video.muted = true;
    video.autoplay = true;
    if (video.srcObject !== this.#stream) video.srcObject = this.#stream;
    // Autoplay of a muted inline video is allowed; a rejected play() (element removed, new
    // srcObject) is harmless because the next stream binds again.
    if (this.#stream) video.play().catch(() => undefined);
  }

  #releaseStream(): void {
    const stream = this.#stream;
    this.#stream = null;
    if (this.#video) this.#video.srcObject = null;
    if (!stream) return;
    for (const track of stream.getTracks()) track.onended = null;
    stopTracks(stream);
  }

  #setState(state: CameraState): void {
    this.#state = state;
    this.#host.requestUpdate();
  }

  readonly #onVisibilityChange = (): void => {
    if (document.visibilityState === 'hidden' && (this.#state === 'live' || this.#state === 'starting')) this.stop();
  };

  /** The browser ended a track (device unplugged, permission revoked, OS took the camera). */
  readonly #onTrackEnded = (): void => {
    if (this.#state !== 'live') return;
    this.#attempt++;
    this.#releaseStream();
    this.#facing = null;
    this.#error = cameraError('aborted');
    this.#setState('error');
  };
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}
