/**
 * The live checks as the capture view runs them: the frame sampler over the preview (exposure,
 * glare, focus, the card filling the guide, steadiness, the automatic photo), and for the selfie
 * the face detector over the oval a couple of times a second: the photo takes itself only while
 * exactly one face fills the oval, and its hint wins over the frame's. The frames are read and
 * checked in the image worker (the pipeline's, started here ahead of the photo).
 */
import { CROP_MARGIN, type FrameRect } from '../camera/guide-geometry.js';
import { loadPipeline } from '../controllers/load-pipeline.js';
import type { CaptureRole } from '../image/pipeline.js';
import { faceWorker } from '../face/load-face.js';
import { startFrameSampler, type RemoteSample } from '../guidance/index.js';
import { watchFace, type FaceWatch } from './face-watch.js';
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
  /** A document's card is held still in the frame: a moment to read its codes (never called for the selfie). */
  onSteadyCard?(): void;
}

/** A sample in the image worker, once the pipeline module that starts it has loaded. */
const inImageWorker: RemoteSample = (frame, request) =>
  loadPipeline().then(
    (pipeline) => pipeline.sampleGuidance(frame, request),
    (error: unknown) => {
      frame.close();
      throw error;
    },
  );

export function startGuidance(video: HTMLVideoElement, options: GuidanceOptions): GuidanceRun {
  const { role, guide, frame } = options;
  const selfie = role === 'selfie';
  let autoCapture = options.autoCapture;
  /** The selfie's face verdict hint: null once one face fills the oval (or where there is no detector). */
  let faceHint: ViewHint | null = selfie ? 'no-face' : null;
  let faceKnown = !selfie;
  let frameState: { hint: ViewHint | null; progress: number } = { hint: null, progress: 0 };

  const sampler = startFrameSampler(video, {
    role,
    remote: inImageWorker,
    guide: { x: guide.x / frame.width, y: guide.y / frame.height, width: guide.width / frame.width, height: guide.height / frame.height },
    margin: CROP_MARGIN[selfie ? 'selfie' : 'document'],
    autoCapture: autoCapture && faceKnown && !faceHint,
    onUpdate: ({ hint, progress, steady, analysis }) => {
      frameState = { hint, progress };
      report();
      if (steady && !selfie && analysis.card && analysis.card !== 'none') options.onSteadyCard?.();
    },
    onAutoCapture: () => {
      if (!faceHint) options.onAutoCapture();
    },
  });

  function report(): void {
    // A face problem is the one to fix first; while it lasts no photo is on its way.
    if (faceHint) options.onUpdate({ hint: faceHint, progress: 0 });
    else options.onUpdate(frameState);
  }

  function setFaceHint(hint: ViewHint | null): void {
    if (hint === faceHint && faceKnown) return;
    faceHint = hint;
    faceKnown = true;
    sampler.setAutoCapture(autoCapture && !hint);
    report();
  }

  let face: FaceWatch | null = null;
  if (selfie) {
    const worker = faceWorker();
    // No worker: the frame checks alone (the capture controller tells the page once the photo is taken).
    if (worker) face = watchFace(video, { guide, frame }, worker, setFaceHint);
    else setFaceHint(null);
  }

  return {
    setAutoCapture(on) {
      autoCapture = on;
      sampler.setAutoCapture(on && faceKnown && !faceHint);
    },
    stop() {
      face?.stop();
      sampler.stop();
    },
  };
}
