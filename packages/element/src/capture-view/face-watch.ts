/**
 * The selfie's live face check: the oval's box of the preview (plus the saved photo's margin),
 * judged as the saved selfie will be judged, a couple of times a second.
 */
import { CROP_MARGIN, type FrameRect } from '../camera/guide-geometry.js';
import { context2d, createCanvas } from '../image/canvas.js';
import type { FaceDetectorModule } from '../face/load-face.js';
import type { ViewHint } from './texts.js';

/** How often the selfie's face is looked for, ms (the detector costs more than the frame checks). */
const FACE_INTERVAL_MS = 400;
/**
 * The long edge the oval is looked at live: a face that fills the oval is well above the
 * detector's 45 px window at this size, and a copy this small costs about half the saved
 * selfie's check (whose copy is 320 px).
 */
const LIVE_FACE_EDGE = 224;

export interface FaceWatch {
  stop(): void;
}

/** Looks for the face until stopped; `onHint` gets null while one face fills the oval. */
export function watchFace(
  video: HTMLVideoElement,
  area: { guide: FrameRect; frame: { width: number; height: number } },
  detector: FaceDetectorModule,
  onHint: (hint: ViewHint | null) => void,
): FaceWatch {
  const { guide, frame } = area;
  const margin = CROP_MARGIN.selfie;
  const sx = Math.max(0, guide.x - guide.width * margin);
  const sy = Math.max(0, guide.y - guide.height * margin);
  const sw = Math.min(frame.width - sx, guide.width * (1 + 2 * margin));
  const sh = Math.min(frame.height - sy, guide.height * (1 + 2 * margin));
  const scale = Math.min(1, LIVE_FACE_EDGE / Math.max(sw, sh));
  const canvas = createCanvas(Math.round(sw * scale), Math.round(sh * scale));
  const ctx = context2d(canvas, { willReadFrequently: true });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = async (): Promise<void> => {
    if (stopped) return;
    if (document.visibilityState === 'visible' && video.readyState >= 2) {
      ctx.drawImage(video, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
      // In slices of ~10 ms: the preview and the shutter stay responsive while it looks.
      const { verdict } = await detector.judgeSelfieSourceInSlices(canvas);
      if (stopped) return;
      onHint(verdict === 'ok' ? null : verdict);
    }
    timer = setTimeout(() => void look(), FACE_INTERVAL_MS);
  };
  void look();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
