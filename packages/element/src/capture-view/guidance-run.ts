/**
 * The live checks as the capture view runs them: the frame sampler over the preview (exposure,
 * glare, focus, the card filling the guide, steadiness, the automatic photo), and for the selfie
 * the face detector over the oval a couple of times a second: the photo takes itself only while
 * exactly one face fills the oval, and its hint wins over the frame's.
 */
import { CROP_MARGIN, type FrameRect } from '../camera/guide-geometry.js';
import { context2d, createCanvas } from '../image/canvas.js';
import type { CaptureRole } from '../image/pipeline.js';
import { loadFaceDetector, type FaceDetectorModule } from '../face/load-face.js';
import { startFrameSampler } from '../guidance/index.js';
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

/** How often the selfie's face is looked for, ms (the detector costs more than the frame checks). */
const FACE_INTERVAL_MS = 400;
/**
 * The long edge the oval is looked at live: a face that fills the oval is well above the
 * detector's 45 px window at this size, and a copy this small costs about half the saved
 * selfie's check (whose copy is 320 px).
 */
const LIVE_FACE_EDGE = 224;

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
    guide: { x: guide.x / frame.width, y: guide.y / frame.height, width: guide.width / frame.width, height: guide.height / frame.height },
    margin: CROP_MARGIN[selfie ? 'selfie' : 'document'],
    autoCapture: autoCapture && faceKnown && !faceHint,
    onUpdate: ({ hint, progress }) => {
      frameState = { hint, progress };
      report();
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

  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (selfie) {
    loadFaceDetector().then(
      (detector) => {
        if (!stopped) watchFace(detector);
      },
      () => {
        // No detector: the frame checks alone (the capture controller tells the page once the photo is taken).
        if (!stopped) setFaceHint(null);
      },
    );
  }

  /** Judges the oval's box (plus the saved photo's margin) as the saved selfie will be judged. */
  function watchFace(detector: FaceDetectorModule): void {
    const margin = CROP_MARGIN.selfie;
    const sx = Math.max(0, guide.x - guide.width * margin);
    const sy = Math.max(0, guide.y - guide.height * margin);
    const sw = Math.min(frame.width - sx, guide.width * (1 + 2 * margin));
    const sh = Math.min(frame.height - sy, guide.height * (1 + 2 * margin));
    const scale = Math.min(1, LIVE_FACE_EDGE / Math.max(sw, sh));
    const canvas = createCanvas(Math.round(sw * scale), Math.round(sh * scale));
    const ctx = context2d(canvas, { willReadFrequently: true });
    const look = async (): Promise<void> => {
      if (stopped) return;
      if (document.visibilityState === 'visible' && video.readyState >= 2) {
        ctx.drawImage(video, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
        // In slices of ~10 ms: the preview and the shutter stay responsive while it looks.
        const { verdict } = await detector.judgeSelfieSourceInSlices(canvas);
        if (stopped) return;
        setFaceHint(verdict === 'ok' ? null : verdict);
      }
      timer = setTimeout(() => void look(), FACE_INTERVAL_MS);
    };
    void look();
  }

  return {
    setAutoCapture(on) {
      autoCapture = on;
      sampler.setAutoCapture(on && faceKnown && !faceHint);
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      sampler.stop();
    },
  };
}
