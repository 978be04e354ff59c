/**
 * The selfie's face check, run in the liveness worker (liveness/liveness-client.ts), which carries
 * the LBP cascade of face-detector.ts whether or not the challenge's model loads: the page's main
 * thread never runs the detection.
 */
import { livenessWorker, type LivenessWorker } from '../liveness/liveness-client.js';
import type { SelfieJudgement } from './face-detector.js';

export type { SelfieJudgement } from './face-detector.js';

/** Thrown by judgeSelfieBlob when the face check cannot run: the caller falls back to the other checks and says so. */
export class FaceDetectorUnavailableError extends Error {
  override name = 'FaceDetectorUnavailableError';
}

/** The worker that judges faces, started on the first call; null where the page has no workers. */
export function faceWorker(start: () => LivenessWorker = livenessWorker): LivenessWorker | null {
  return typeof Worker === 'function' ? start() : null;
}

/** Judges `blob` as a selfie (exactly one face, large enough, inside the oval) in the worker. */
export async function judgeSelfieBlob(blob: Blob, worker = faceWorker()): Promise<SelfieJudgement> {
  if (!worker) throw new FaceDetectorUnavailableError('The face detector could not be loaded: this page has no workers');
  try {
    return await worker.judge(blob);
  } catch (cause) {
    throw new FaceDetectorUnavailableError('The face detector could not be loaded', { cause });
  }
}
