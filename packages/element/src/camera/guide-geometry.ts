/**
 * Where the framing guide sits on a camera frame, and which part of the frame is saved: the
 * capture view draws its cutout from the same numbers, so what is inside the cutout is what is
 * uploaded (with a small margin, so a card's edges are never cut).
 */
import type { CaptureRole } from '../image/pipeline.js';

/** A rectangle in frame pixels. */
export interface FrameRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ID-1 cards (CNH, RG, most IDs): 85.60 x 53.98 mm. */
const CARD_RATIO = 85.6 / 53.98;
/** The face oval, width over height. */
const OVAL_RATIO = 3 / 4;
/** The saved photo is the guide plus this fraction of its size on each side. */
export const CROP_MARGIN = { document: 0.06, selfie: 0.12 } as const;
/** The pipeline's minimum resolution (orientation-free): a crop never goes below it when the frame allows. */
const MIN_LONG = 640;
const MIN_SHORT = 480;

/** The guide's box in a `width` x `height` frame: the largest card (or oval) within 88 % x 76 % (oval 78 % high), centred. */
export function guideRect(role: CaptureRole, width: number, height: number): FrameRect {
  const selfie = role === 'selfie';
  const ratio = selfie ? OVAL_RATIO : CARD_RATIO;
  const maxW = width * (selfie ? 0.7 : 0.88);
  const maxH = height * (selfie ? 0.78 : 0.76);
  const w = Math.min(maxW, maxH * ratio);
  const h = w / ratio;
  return { x: (width - w) / 2, y: (height - h) / 2, width: w, height: h };
}

/**
 * The part of the frame that is saved: the guide plus its margin, grown around its centre to the
 * pipeline's minimum resolution where the frame is large enough, clamped to the frame, in whole pixels.
 */
export function cropRect(role: CaptureRole, width: number, height: number): FrameRect {
  const guide = guideRect(role, width, height);
  const margin = CROP_MARGIN[role === 'selfie' ? 'selfie' : 'document'];
  let w = guide.width * (1 + 2 * margin);
  let h = guide.height * (1 + 2 * margin);
  const [minW, minH] = w >= h ? [MIN_LONG, MIN_SHORT] : [MIN_SHORT, MIN_LONG];
  w = Math.min(width, Math.max(w, minW));
  h = Math.min(height, Math.max(h, minH));
  const x = Math.min(Math.max(0, guide.x + guide.width / 2 - w / 2), width - w);
  const y = Math.min(Math.max(0, guide.y + guide.height / 2 - h / 2), height - h);
  return { x: Math.round(x), y: Math.round(y), width: Math.round(w), height: Math.round(h) };
}

/**
 * Where the guide sits in the saved part of a `width` x `height` frame, as its margin on each
 * axis (a fraction of the guide's size on each side): what the checks after the shot need to
 * find the document against the guide, as the live checks did.
 */
export function guideMargin(role: CaptureRole, width: number, height: number): { x: number; y: number } {
  const guide = guideRect(role, width, height);
  const crop = cropRect(role, width, height);
  return { x: (crop.width / guide.width - 1) / 2, y: (crop.height / guide.height - 1) / 2 };
}
