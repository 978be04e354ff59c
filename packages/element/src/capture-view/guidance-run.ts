/**
 * The live checks as the capture view runs them: the frame sampler over the preview, and the
 * hint and auto-capture progress it reports.
 */
import type { FrameRect } from '../camera/guide-geometry.js';
import type { CaptureRole } from '../image/pipeline.js';
import type { ViewHint } from './texts.js';

export interface GuidanceRun {
  setAutoCapture(on: boolean): void;
  stop(): void;
}

export interface GuidanceOptions {
  role: CaptureRole;
  /** The cutout, in frame pixels. */
  guide: FrameRect;
  frame: { width: number; height: number };
  autoCapture: boolean;
  onUpdate(state: { hint: ViewHint | null; progress: number }): void;
  onAutoCapture(): void;
}

export function startGuidance(_video: HTMLVideoElement, _options: GuidanceOptions): GuidanceRun {
  return { setAutoCapture: () => undefined, stop: () => undefined };
}
