/**
 * What the preview shows and when the photo takes itself, from the live analyses: a pure state
 * machine that is told the time with every frame (no timers), so tests drive it with a manual
 * clock and it behaves the same at any sampling rate.
 *
 * Hints are debounced: a new hint shows once it has been seen on `hintAfterFrames` frames in a
 * row, and a shown hint stays at least `hintMinMs`, so one odd frame never makes the line flicker.
 * The photo is taken once the frame has passed and been steady for `holdMs` without a break;
 * after that the machine is quiet (no second photo) until reset().
 */
import type { FrameAnalysis, GuidanceHint } from './frame-analysis.js';

export interface AutoCaptureOptions {
  /** Whether the photo may take itself (false: hints only, the shutter is the only way). Default true. */
  enabled?: boolean;
  /** How long the frame must pass and be steady, ms. Default 1000. */
  holdMs?: number;
  /** Frames in a row a hint must be seen before it shows. Default 2. */
  hintAfterFrames?: number;
  /** The least time a shown hint stays, ms. Default 1000. */
  hintMinMs?: number;
}

export interface AutoCaptureInput {
  analysis: FrameAnalysis;
  steady: boolean;
  /** The frame's time, ms (any monotonic clock, the same for every call). */
  now: number;
}

export interface AutoCaptureState {
  /** The hint to show now (debounced). */
  hint: GuidanceHint;
  /** 0..1: how far the hold towards the automatic photo has come (0 when disabled or done). */
  progress: number;
  /** True on the one frame at which the photo should be taken. */
  capture: boolean;
}

export class AutoCaptureMachine {
  #enabled: boolean;
  readonly #holdMs: number;
  readonly #hintAfterFrames: number;
  readonly #hintMinMs: number;

  /** When the current unbroken run of passing, steady frames began. */
  #holdSince: number | null = null;
  #captured = false;
  #shown: GuidanceHint = null;
  #shownAt = -Infinity;
  #candidate: GuidanceHint = null;
  #candidateFrames = 0;

  constructor(options: AutoCaptureOptions = {}) {
    this.#enabled = options.enabled ?? true;
    this.#holdMs = options.holdMs ?? 1000;
    this.#hintAfterFrames = options.hintAfterFrames ?? 2;
    this.#hintMinMs = options.hintMinMs ?? 1000;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Turns the automatic photo on or off; turning it off drops a hold under way. */
  setEnabled(on: boolean): void {
    this.#enabled = on;
    if (!on) this.#holdSince = null;
  }

  /** Whether the automatic photo has been taken (and the machine waits for reset()). */
  get captured(): boolean {
    return this.#captured;
  }

  /** Ready for a new photo: after a retake, a new side or a camera switch. */
  reset(): void {
    this.#holdSince = null;
    this.#captured = false;
    this.#shown = null;
    this.#shownAt = -Infinity;
    this.#candidate = null;
    this.#candidateFrames = 0;
  }

  update({ analysis, steady, now }: AutoCaptureInput): AutoCaptureState {
    const good = analysis.passes && steady;
    const hint = this.#debounce(analysis.hint ?? (analysis.passes && !steady ? 'hold-still' : null), now);
    if (!this.#enabled || this.#captured || !good) {
      this.#holdSince = null;
      return { hint, progress: 0, capture: false };
    }
    this.#holdSince ??= now;
    const progress = Math.min(1, (now - this.#holdSince) / this.#holdMs);
    if (progress < 1) return { hint, progress, capture: false };
    this.#captured = true;
    this.#holdSince = null;
    return { hint, progress: 1, capture: true };
  }

  #debounce(seen: GuidanceHint, now: number): GuidanceHint {
    if (seen === this.#candidate) this.#candidateFrames++;
    else {
      this.#candidate = seen;
      this.#candidateFrames = 1;
    }
    const settled = this.#candidateFrames >= this.#hintAfterFrames;
    if (settled && seen !== this.#shown && now - this.#shownAt >= this.#hintMinMs) {
      this.#shown = seen;
      this.#shownAt = seen === null ? -Infinity : now;
    }
    return this.#shown;
  }
}
