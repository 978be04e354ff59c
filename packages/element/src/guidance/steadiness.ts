/**
 * Whether the camera (or the card) is held still: successive small grey copies of the same
 * region compared pixel by pixel. On the small copy a sensor's noise averages out to a luma or
 * two; a hand moving the card by a few pixels changes every edge, which moves the mean by far more.
 */
import type { GreyImage } from '../image/quality.js';

/**
 * Mean absolute luma difference over 255 below which two frames count as the same view. 0.02
 * (about 5 luma) sits above the noise of a still camera's downscaled copy and below the change a
 * shake of ~1 % of the frame makes on a textured card.
 */
export const STEADY_DIFFERENCE = 0.02;

/**
 * Mean absolute difference of two grey images, 0 (identical) .. 1 (black against white).
 * Images of different sizes (the region or the camera changed) are as different as can be.
 */
export function frameDifference(a: GreyImage, b: GreyImage): number {
  if (a.width !== b.width || a.height !== b.height || a.grey.length === 0) return 1;
  let sum = 0;
  const ga = a.grey;
  const gb = b.grey;
  for (let i = 0; i < ga.length; i++) sum += Math.abs(ga[i]! - gb[i]!);
  return sum / ga.length / 255;
}

/** Whether `current` shows the same view as `previous` (no previous frame: not yet known to be steady). */
export function isSteady(previous: GreyImage | null, current: GreyImage, threshold = STEADY_DIFFERENCE): boolean {
  return previous !== null && frameDifference(previous, current) < threshold;
}
