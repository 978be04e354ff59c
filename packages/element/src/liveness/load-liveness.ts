/**
 * When the liveness worker is started and its model fetched: while the browser is idle on the
 * first capture step (a document's, so the selfie finds it ready), once per page. The worker's
 * file and the model's are fetched once, when it starts.
 */
import { faceWorker } from '../face/load-face.js';

/** The longest a capture step waits for an idle moment before the worker is started anyway. */
const IDLE_WAIT_MS = 2_000;

let scheduled = false;

/** Starts the worker and the model's load at the browser's next idle moment, once per page. */
export function preloadLiveness(): void {
  if (scheduled || typeof Worker !== 'function') return;
  scheduled = true;
  // A model that cannot load is told when the challenge asks for it: the face check goes on.
  const load = () =>
    void faceWorker()
      ?.loadModel()
      .catch(() => undefined);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: IDLE_WAIT_MS });
  else setTimeout(load, IDLE_WAIT_MS);
}
