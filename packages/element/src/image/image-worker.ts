/**
 * The image worker: every photo's decode, checks, resize and JPEG encode happen here, off the
 * page's main thread, with `createImageBitmap` and `OffscreenCanvas` (which every engine with
 * `OffscreenCanvas` also has in workers). A camera frame arrives as pixels (a VideoFrame or an
 * ImageBitmap), a file as a Blob. The live guidance's samples come here too (guidance/worker-sample.ts). The JPEG is the own canvas encode's when its first encode is within the byte
 * cap; over it, browser-image-compression's where it runs in a worker (library-encode.ts: files
 * only, not in WebKit), else the own loop's. Built as its own self-contained file beside the pipeline module
 * (`onboarding-flow.image-worker.js`), library included, so `worker-src 'self'` covers it.
 */
import { sampleInWorker } from '../guidance/worker-sample.js';
import { decodeUpright } from './decode.js';
import { ImageCheckError } from './image-error.js';
import { libraryEncode } from './library-encode.js';
import { isBlob, prepareImage } from './prepare.js';
import type { GuidanceRequest, GuidanceResponse, WorkerFailure, WorkerRequest, WorkerResponse } from './worker-protocol.js';

// The element's TypeScript lib is DOM, not WebWorker: only these two members are used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest | GuidanceRequest>) => void) | null;
  postMessage(message: WorkerResponse | GuidanceResponse, transfer?: Transferable[]): void;
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
    return {
      name: error.name,
      message: error.message,
      code: error.code,
      ...(error.detail ? { detail: error.detail } : {}),
      ...(error.image ? { image: error.image } : {}),
    };
  }
  const e = error as { name?: unknown; message?: unknown } | null;
  return { name: typeof e?.name === 'string' ? e.name : 'Error', message: typeof e?.message === 'string' ? e.message : String(error) };
}

/** A live-guidance sample: answered with its grey copy transferred. */
function guidance(request: GuidanceRequest): void {
  sampleInWorker(request).then(
    (sample) => scope.postMessage({ id: request.id, ok: true, guidance: sample }, [sample.grey.grey.buffer]),
    (error: unknown) => scope.postMessage({ id: request.id, ok: false, error: failure(error) }),
  );
}

scope.onmessage = (event) => {
  if ('kind' in event.data) {
    guidance(event.data);
    return;
  }
  const { id, source, options } = event.data;
  const frame = isBlob(source) ? null : source;
  // The library is asked only for a file whose first JPEG is over the byte cap; once it has failed
  // in this worker it declines at once, saying why (libraryEncode), and the own loop runs.
  prepareImage(source, options, libraryEncode).then(
    (image) => {
      frame?.close();
      scope.postMessage({ id, ok: true, image });
    },
    (error: unknown) => {
      const answer = failure(error);
      // A failure that is not about the photo: a transferred bitmap goes back, for the page to
      // prepare it (a VideoFrame came as a clone: the page still has its own).
      if (frame && !answer.code && !('displayWidth' in frame)) scope.postMessage({ id, ok: false, error: { ...answer, frame } }, [frame]);
      else {
        frame?.close();
        scope.postMessage({ id, ok: false, error: answer });
      }
    },
  );
};
