/**
 * The live checks over a playing `<video>`: the guide's region of the current frame is read as a
 * small grey copy, analysed, compared with the previous copy, and fed to the auto-capture
 * machine; the view is told the hint and progress to show, and when to take the photo.
 *
 * With a `remote` (the image worker), the read and the checks run there on a frame handed over
 * as it is presented, up to about 20 times a second (three frames on their way at most): on a slow
 * phone the frame's conversion and the card check would each hold the page for longer than a
 * frame. Without one, or once the remote has failed, a sample is a few synchronous steps on the
 * page about five times a second, one at a time. None while the tab is hidden; the page's share
 * of each sample is kept in `timing`.
 */
import { presentedFrame } from '../camera/capture-frame.js';
import type { CaptureRole, FramePixels } from '../image/pipeline.js';
import type { GreyImage } from '../image/quality.js';
import { AutoCaptureMachine, type AutoCaptureOptions } from './auto-capture.js';
import { analyzeFrame, type FrameAnalysis, type GuidanceHint } from './frame-analysis.js';
import { RegionReader } from './region-reader.js';
import { isSteady } from './steadiness.js';

/** A rectangle as fractions (0..1) of the video frame's width and height. */
export interface FrameFractions {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GuidanceUpdate {
  hint: GuidanceHint;
  /** 0..1, the hold towards the automatic photo (a ring filling up). */
  progress: number;
  analysis: FrameAnalysis;
  steady: boolean;
}

/** Main-thread time of the samples so far (read, analyse, compare, decide), ms. */
export interface SampleTiming {
  samples: number;
  lastMs: number;
  meanMs: number;
  maxMs: number;
}

export interface FrameSamplerOptions {
  role: CaptureRole;
  /** The guide (the cutout) as fractions of the video frame. */
  guide: FrameFractions;
  /**
   * Margin around the guide that is analysed too, as a fraction of its size on each side: the
   * card check looks for the card's edges there. Default: 0.06 for documents, 0.12 for the
   * selfie (the margins the saved photo keeps).
   */
  margin?: number;
  /** Whether the photo may take itself. Default true. */
  autoCapture?: boolean;
  /** Time between samples on the page, ms. Default 200 (5 Hz). */
  intervalMs?: number;
  /** Where a frame is read and analysed off the page (it takes the frame over); see RemoteSample. */
  remote?: RemoteSample;
  /**
   * With a remote: the least time from one frame sent to the next, ms. Default 33, a 30 fps
   * camera's frame: each new frame can be read. A longer wait, then the wait for the next frame,
   * skips every other one (12 a second from a 24 fps camera).
   */
  remoteIntervalMs?: number;
  /** The hold and hint timings (see AutoCaptureMachine). */
  machine?: Omit<AutoCaptureOptions, 'enabled'>;
  onUpdate(update: GuidanceUpdate): void;
  onAutoCapture(): void;
}

export interface FrameSampler {
  /** Turns the automatic photo on or off (the hints go on either way). */
  setAutoCapture(on: boolean): void;
  /** Ready for another automatic photo (after a retake). */
  reset(): void;
  /** Stops sampling and lets go of the canvases; nothing is called back afterwards. */
  stop(): void;
  readonly timing: SampleTiming;
}

/** Reads the guide's region of a frame and analyses it elsewhere, closing the frame. */
export type RemoteSample = (
  frame: FramePixels,
  request: { guide: FrameFractions; margin: number; role: CaptureRole },
) => Promise<{ grey: GreyImage; analysis: FrameAnalysis; ms?: number }>;

/** Frames on their way to the remote at once, at most. */
const MAX_IN_FLIGHT = 3;

/** Failures in a row after which the remote is given up for the page's own sampling. */
const REMOTE_FAILURES = 3;

type VideoWithFrameCallback = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export const DEFAULT_MARGIN = { document: 0.06, selfie: 0.12 } as const;

export function startFrameSampler(video: HTMLVideoElement, options: FrameSamplerOptions): FrameSampler {
  const sampler = new Sampler(video as VideoWithFrameCallback, options);
  sampler.start();
  return sampler;
}

class Sampler implements FrameSampler {
  readonly timing: SampleTiming = { samples: 0, lastMs: 0, meanMs: 0, maxMs: 0 };
  readonly #v: VideoWithFrameCallback;
  readonly #options: FrameSamplerOptions;
  readonly #margin: number;
  readonly #intervalMs: number;
  readonly #remoteIntervalMs: number;
  readonly #reader = new RegionReader();
  readonly #machine: AutoCaptureMachine;
  #previous: GreyImage | null = null;
  #stopped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #frameHandle: number | undefined;
  #remote: RemoteSample | undefined;
  #remoteFailures = 0;
  #inFlight = 0;
  /** As many frames as may be are on their way: the next tick waits for one to come back. */
  #waiting = false;

  constructor(video: VideoWithFrameCallback, options: FrameSamplerOptions) {
    this.#v = video;
    this.#options = options;
    this.#margin = options.margin ?? DEFAULT_MARGIN[options.role === 'selfie' ? 'selfie' : 'document'];
    this.#intervalMs = options.intervalMs ?? 200;
    this.#remoteIntervalMs = options.remoteIntervalMs ?? 33;
    this.#remote = options.remote;
    this.#machine = new AutoCaptureMachine({ ...options.machine, enabled: options.autoCapture ?? true });
  }

  start(): void {
    this.#next(this.#remote ? 0 : this.#intervalMs);
  }

  setAutoCapture(on: boolean): void {
    this.#machine.setEnabled(on);
  }

  reset(): void {
    this.#machine.reset();
    this.#previous = null;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#frameHandle !== undefined) this.#v.cancelVideoFrameCallback?.(this.#frameHandle);
    this.#timer = undefined;
    this.#frameHandle = undefined;
    this.#previous = null;
    this.#reader.release();
  }

  get #hasFrame(): boolean {
    return !this.#stopped && this.#v.readyState >= 2 && this.#v.videoWidth > 0;
  }

  /** Steadiness and the auto-capture decision on an analysed copy; `pageMs` is the page's time spent on it so far. */
  #apply(grey: GreyImage, analysis: FrameAnalysis, started: number, pageMs: number): void {
    const from = performance.now();
    const steady = isSteady(this.#previous, grey);
    this.#previous = grey;
    const state = this.#machine.update({ analysis, steady, now: started });
    const spent = pageMs + performance.now() - from;
    const t = this.timing;
    t.samples++;
    t.lastMs = spent;
    t.meanMs += (spent - t.meanMs) / t.samples;
    t.maxMs = Math.max(t.maxMs, spent);
    this.#options.onUpdate({ hint: state.hint, progress: state.progress, analysis, steady });
    if (state.capture && !this.#stopped) this.#options.onAutoCapture();
  }

  /** One sample on the page, start to end. */
  #sample(): void {
    if (!this.#hasFrame) return;
    const start = performance.now();
    const { videoWidth: w, videoHeight: h } = this.#v;
    const g = this.#options.guide;
    const grey = this.#reader.read(this.#v, w, h, { x: g.x * w, y: g.y * h, width: g.width * w, height: g.height * h }, this.#margin);
    const analysis = analyzeFrame(grey, { role: this.#options.role, margin: this.#margin });
    this.#apply(grey, analysis, start, performance.now() - start);
  }

  /** One sample in the remote; resolves when it is applied or skipped. */
  async #sampleRemote(send: RemoteSample): Promise<void> {
    if (!this.#hasFrame) return;
    const start = performance.now();
    const frame = await presentedFrame(this.#v);
    const grabbed = performance.now() - start;
    if (this.#stopped) {
      frame.close();
      return;
    }
    try {
      const { grey, analysis } = await send(frame, { guide: this.#options.guide, margin: this.#margin, role: this.#options.role });
      this.#remoteFailures = 0;
      if (!this.#stopped) this.#apply(grey, analysis, start, grabbed);
    } catch {
      // A worker that cannot read frames, or was ended under it (a photo abandoned): after a few
      // failures in a row the page samples on its own.
      if (++this.#remoteFailures >= REMOTE_FAILURES) this.#remote = undefined;
    }
  }

  #next(delay = this.#intervalMs): void {
    if (!this.#stopped) this.#timer = setTimeout(this.#tick, delay);
  }

  #tick = (): void => {
    this.#timer = undefined;
    if (this.#stopped) return;
    if (document.hidden) {
      // A frame from before the tab was hidden says nothing about steadiness after it.
      this.#previous = null;
      this.#next();
      return;
    }
    // A fresh frame rather than one already analysed; a paused video simply waits here.
    if (this.#v.requestVideoFrameCallback) this.#frameHandle = this.#v.requestVideoFrameCallback(this.#run);
    else this.#run();
  };

  #run = (): void => {
    this.#frameHandle = undefined;
    const send = this.#remote;
    if (!send) {
      try {
        this.#sample();
      } catch {
        // A frame that cannot be read (the stream just ended, a resize under way) is skipped.
      }
      this.#next();
      return;
    }
    // Frames may be on their way while the worker reads earlier ones, so that the rate is the
    // worker's or the page's, not the sum of both.
    this.#inFlight++;
    this.#sampleRemote(send)
      .catch(() => undefined)
      .finally(() => {
        this.#inFlight--;
        if (this.#waiting) {
          this.#waiting = false;
          this.#next(0);
        }
      });
    if (this.#inFlight < MAX_IN_FLIGHT) this.#next(this.#remoteIntervalMs);
    else this.#waiting = true;
  };
}
