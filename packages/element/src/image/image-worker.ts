/**
 * The image worker: every photo's decode, checks, resize and JPEG encode happen here, off the
 * page's main thread, with `createImageBitmap` and `OffscreenCanvas` (which every engine with
 * `OffscreenCanvas` also has in workers). The resize and encode are browser-image-compression's
 * where it runs in a worker (library-encode.ts), the own canvas encode's where it does not
 * (WebKit). Built as its own self-contained file beside the pipeline module
 * (`onboarding-flow.image-worker.js`), library included, so `worker-src 'self'` covers it.
 */
import { decodeUpright } from './decode.js';
import { ImageCheckError } from './image-error.js';
import { libraryEncode, libraryUnusable } from './library-encode.js';
import { prepareImage } from './prepare.js';
import type { WorkerFailure, WorkerRequest, WorkerResponse } from './worker-protocol.js';

// The element's TypeScript lib is DOM, not WebWorker: only these two members are used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse): void;
};

// The library decodes with the global `createImageBitmap(file)` (no options: EXIF applied). In
// this worker that call takes the same decode as the own path (decode.ts), so that the library's
// decode stays off Firefox's main thread too; every other call form goes to the engine's own.
const engineCreateImageBitmap = self.createImageBitmap.bind(self);
self.createImageBitmap = ((image: ImageBitmapSource, ...rest: unknown[]) =>
  image instanceof Blob && rest.length === 0
    ? decodeUpright(image)
    : (engineCreateImageBitmap as (...args: unknown[]) => Promise<ImageBitmap>)(image, ...rest)) as typeof createImageBitmap;

function failure(error: unknown): WorkerFailure {
  if (error instanceof ImageCheckError) {
    return { name: error.name, message: error.message, code: error.code, ...(error.detail ? { detail: error.detail } : {}) };
  }
  const e = error as { name?: unknown; message?: unknown } | null;
  return { name: typeof e?.name === 'string' ? e.name : 'Error', message: typeof e?.message === 'string' ? e.message : String(error) };
}

scope.onmessage = (event) => {
  const { id, source, options } = event.data;
  const passedOver = libraryUnusable();
  prepareImage(source, options, passedOver ? undefined : libraryEncode).then(
    (image) => scope.postMessage({ id, ok: true, image: passedOver ? { ...image, ownBecause: passedOver } : image }),
    (error: unknown) => scope.postMessage({ id, ok: false, error: failure(error) }),
  );
};
