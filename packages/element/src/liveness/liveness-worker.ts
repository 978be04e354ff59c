/**
 * The liveness worker: the selfie's face check (the LBP cascade of face/face-detector.ts, which
 * needs nothing to load) and the challenge's face model (face-model.ts), off the page's main
 * thread. Built as its own self-contained file beside the module that starts it
 * (`onboarding-flow.liveness-worker.js`), the model's files beside it.
 */
import { judgeSelfieSource } from '../face/face-detector.js';
import { analyseFrame, loadFaceModel } from './face-model.js';
import type { LivenessRequest, LivenessResponse } from './liveness-protocol.js';

// The element's TypeScript lib is DOM, not WebWorker: only these two members are used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<LivenessRequest>) => void) | null;
  postMessage(message: LivenessResponse): void;
};

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

async function judge(source: ImageBitmap | Blob) {
  const bitmap = source instanceof Blob ? await createImageBitmap(source) : source;
  try {
    return judgeSelfieSource(bitmap);
  } finally {
    bitmap.close();
  }
}

async function answer(request: LivenessRequest): Promise<LivenessResponse> {
  const { id } = request;
  const started = performance.now();
  switch (request.kind) {
    case 'load':
      return loadFaceModel(request.backend).then(
        () => ({ id, ok: true, kind: 'load' }),
        (error: unknown) => ({ id, ok: false, error: describe(error), model: true }),
      );
    case 'analyse': {
      try {
        await loadFaceModel();
      } catch (error) {
        request.frame.close();
        return { id, ok: false, error: describe(error), model: true };
      }
      try {
        return { id, ok: true, kind: 'analyse', ...(await analyseFrame(request.frame, request.video)), ms: performance.now() - started };
      } finally {
        request.frame.close();
      }
    }
    case 'judge':
      return { id, ok: true, kind: 'judge', judgement: await judge(request.source), ms: performance.now() - started };
  }
}

scope.onmessage = (event) => {
  const { id } = event.data;
  answer(event.data).then(
    (response) => scope.postMessage(response),
    (error: unknown) => scope.postMessage({ id, ok: false, error: describe(error) }),
  );
};
