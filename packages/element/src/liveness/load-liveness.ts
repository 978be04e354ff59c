/**
 * When the liveness worker is started and its model fetched: while the browser is idle on the
 * first capture step (a document's, so the selfie finds it ready), once per page. The worker's
 * file and the model's are fetched once, when it starts.
 */
import { faceWorker } from '../face/load-face.js';
import { idleStartOnce } from '../lazy/idle-start.js';

/** Starts the worker and the model's load at the browser's next idle moment, once per page. */
export const preloadLiveness = idleStartOnce(
  // A model that cannot load is told when the challenge asks for it: the face check goes on.
  () =>
    void faceWorker()
      ?.loadModel()
      .catch(() => undefined),
);
