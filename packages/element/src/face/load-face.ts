import { lazyOnce } from '../messages/lazy-once.js';
import type { SelfieJudgement } from './face-detector.js';

export type { SelfieJudgement } from './face-detector.js';
export type FaceDetectorModule = typeof import('./face-detector.js');

/**
 * The face detector (`onboarding-flow.face.js` beside the script-tag bundles, a chunk of the npm
 * build), fetched once on the selfie step; a failed fetch is tried again on the next call.
 */
export const loadFaceDetector: () => Promise<FaceDetectorModule> = lazyOnce(() => import('./face-detector.js'), 'face');

/** Thrown by judgeSelfieBlob when the detector cannot be loaded: the caller falls back to the other checks and says so. */
export class FaceDetectorUnavailableError extends Error {
  override name = 'FaceDetectorUnavailableError';
}

/**
 * Loads the detector if needed, decodes `blob` and judges it as a selfie (exactly one face, large
 * enough, inside the oval), the detection in slices so that the page never freezes.
 */
export async function judgeSelfieBlob(blob: Blob): Promise<SelfieJudgement> {
  const detector = await loadFaceDetector().catch((cause: unknown) => {
    throw new FaceDetectorUnavailableError('The face detector could not be loaded', { cause });
  });
  const bitmap = await createImageBitmap(blob);
  try {
    return await detector.judgeSelfieSourceInSlices(bitmap);
  } finally {
    bitmap.close();
  }
}
