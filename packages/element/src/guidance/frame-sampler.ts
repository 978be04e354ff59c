/**
 * The live checks over a playing `<video>`: about five times a second, the guide's region of the
 * current frame is read as a small grey copy, analysed, compared with the previous copy, and fed
 * to the auto-capture machine; the view is told the hint and progress to show, and when to take
 * the photo. One sample is a few small synchronous steps on the main thread (its time is kept in
 * `timing`), never more than one at a time, and none while the tab is hidden.
 */
import type { CaptureRole } from '../image/pipeline.js';
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
  /** Time between samples, ms. Default 200 (5 Hz). */
  intervalMs?: number;
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

type VideoWithFrameCallback = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: () => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export const DEFAULT_MARGIN = { document: 0.06, selfie: 0.12 } as const;

export function startFrameSampler(video: HTMLVideoElement, options: FrameSamplerOptions): FrameSampler {
  const v = video as VideoWithFrameCallback;
  const margin = options.margin ?? DEFAULT_MARGIN[options.role === 'selfie' ? 'selfie' : 'document'];
  const intervalMs = options.intervalMs ?? 200;
  const reader = new RegionReader();
  const machine = new AutoCaptureMachine({ ...options.machine, enabled: options.autoCapture ?? true });
  const timing: SampleTiming = { samples: 0, lastMs: 0, meanMs: 0, maxMs: 0 };
  let previous: GreyImage | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frameHandle: number | undefined;

  const sample = (): void => {
    if (stopped || v.readyState < 2 || v.videoWidth === 0) return;
    const start = performance.now();
    const { videoWidth: w, videoHeight: h } = v;
    const g = options.guide;
    const grey = reader.read(v, w, h, { x: g.x * w, y: g.y * h, width: g.width * w, height: g.height * h }, margin);
    const analysis = analyzeFrame(grey, { role: options.role, margin });
    const steady = isSteady(previous, grey);
    previous = grey;
    const state = machine.update({ analysis, steady, now: start });
    const spent = performance.now() - start;
    timing.samples++;
    timing.lastMs = spent;
    timing.meanMs += (spent - timing.meanMs) / timing.samples;
    timing.maxMs = Math.max(timing.maxMs, spent);
    options.onUpdate({ hint: state.hint, progress: state.progress, analysis, steady });
    if (state.capture && !stopped) options.onAutoCapture();
  };

  const next = (): void => {
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };

  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    if (document.hidden) {
      // A frame from before the tab was hidden says nothing about steadiness after it.
      previous = null;
      next();
      return;
    }
    const run = (): void => {
      frameHandle = undefined;
      try {
        sample();
      } catch {
        // A frame that cannot be read (the stream just ended, a resize under way) is skipped.
      }
      next();
    };
    // A fresh frame rather than one already analysed; a paused video simply waits here.
    if (v.requestVideoFrameCallback) frameHandle = v.requestVideoFrameCallback(run);
    else run();
  };

  next();
  return {
    setAutoCapture: (on) => machine.setEnabled(on),
    reset: () => {
      machine.reset();
      previous = null;
    },
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      if (frameHandle !== undefined) v.cancelVideoFrameCallback?.(frameHandle);
      timer = undefined;
      frameHandle = undefined;
      previous = null;
      reader.release();
    },
    timing,
  };
}
