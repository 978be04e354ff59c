/**
 * The selfie's live face check: the part of the preview the saved selfie keeps (the oval's box
 * plus its margin), judged as the saved selfie will be judged, a couple of times a second, in the
 * liveness worker (the page only draws the frame and hands it over).
 */
import { cropRect, type FrameRect } from '../camera/guide-geometry.js';
import { context2d, createCanvas } from '../image/canvas.js';
import { FACE } from '../image/capture-thresholds.js';
import type { LivenessWorker } from '../liveness/liveness-client.js';
import type { ViewHint } from './texts.js';

/** How often the selfie's face is looked for, ms (the detector costs more than the frame checks). */
const FACE_INTERVAL_MS = 400;

export interface FaceWatch {
  stop(): void;
}

/**
 * Looks for the face until stopped; `onHint` gets null while one face fills the oval, and null
 * for good once the worker cannot judge (the frame checks alone then, as without a face check).
 */
export function watchFace(
  video: HTMLVideoElement,
  area: { guide: FrameRect; frame: { width: number; height: number } },
  worker: LivenessWorker,
  onHint: (hint: ViewHint | null) => void,
): FaceWatch {
  const { frame } = area;
  // The part of the frame the saved selfie keeps, so that the face is judged on the same picture.
  const { x: sx, y: sy, width: sw, height: sh } = cropRect('selfie', frame.width, frame.height);
  // As many pixels as the saved selfie's check reads, its closer look included: the smallest face
  // found, and so where "no face" ends and "come closer" begins, is the same live and after.
  const scale = Math.min(1, (FACE.longEdge * FACE.closerLook) / Math.max(sw, sh));
  const canvas = createCanvas(Math.round(sw * scale), Math.round(sh * scale));
  const ctx = context2d(canvas, { willReadFrequently: true });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = async (): Promise<void> => {
    if (stopped) return;
    if (document.visibilityState === 'visible' && video.readyState >= 2) {
      ctx.drawImage(video, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
      const judged = await worker.judge(await createImageBitmap(canvas)).catch(() => null);
      if (stopped) return;
      if (!judged) {
        onHint(null);
        return;
      }
      onHint(judged.verdict === 'ok' ? null : judged.verdict);
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
