/**
 * From a picked file or a camera capture to what the companion accepts: checked (type by magic
 * bytes, resolution, focus, exposure), upright (EXIF orientation applied), never mirrored,
 * re-encoded as JPEG within size and dimension caps (which also drops EXIF, GPS included), and
 * as pure base64.
 *
 * The pixel work (prepare.ts) runs in the image worker wherever the engine has `OffscreenCanvas`
 * (Chromium, Firefox, Safari 16.4+), so a photo never freezes the page. Without it (older Safari)
 * it runs on the page with a `<canvas>`: slower, but the photo is still accepted. The result says
 * which (`processedIn`); a worker that cannot start is a console warning, never a silent fallback.
 * A camera frame comes as pixels (a VideoFrame or an ImageBitmap from `captureFramePixels`), not
 * as a JPEG: it goes to the worker without a copy, is never decoded, and is encoded once, as the upload. A file is decoded
 * straight to the upload's size. The JPEG is the element's own canvas encode when its first encode
 * is within the byte cap; over it, browser-image-compression's where the engine lets it run in the
 * worker (Chromium, Firefox; files only), the own loop's where not; the result says which
 * (`processedBy`, and `ownBecause`).
 */
import { SNIFF_BYTES, sniffBytes } from '@onboarding-kit/contract';
import { hasOffscreenCanvas } from './canvas.js';
import { frameRegionOf } from '../camera/frame-region.js';
import { ImageCheckError } from './image-error.js';
import {
  DEFAULTS,
  isBlob,
  prepareImage,
  type CaptureRole,
  type FramePixels,
  type PreparedImage,
  type PrepareOptions,
  type ProcessedBy,
} from './prepare.js';
import { defaultImageWorkerURL } from './worker-url.js';
import { classifyFileFailure } from '../lazy/report-load-failure.js';
import type { GuidanceRequest, GuidanceResponse, GuidanceSample, WorkerFailure, WorkerRequest, WorkerResponse } from './worker-protocol.js';

export { ImageCheckError };
export { faceTips, imageErrors, selfieTexts } from '../messages/image-errors.js';
export type { ImageCheckCode } from './image-error.js';
export { DEFAULT_THRESHOLDS } from './prepare.js';
export type { CaptureRole, FramePixels, ProcessedBy };

export type ProcessedIn = 'worker' | 'main-thread';

export interface PipelineOptions {
  role: CaptureRole;
  /** Longest output edge in px, default 2000. */
  maxLongEdge?: number;
  /** Output size cap in bytes, default 1 MiB (the companion takes up to 4 MiB per image). */
  maxBytes?: number;
  /** Input size cap in bytes, default 25 MiB (checked before anything is read). */
  maxFileBytes?: number;
  /** Minimum input size, orientation-free (long edge >= max, short edge >= min), default 640x480. */
  minWidth?: number;
  minHeight?: number;
  /** Minimum Laplacian variance on the 256 px grey copy; default by role (see DEFAULT_THRESHOLDS). */
  blurThreshold?: number;
  /** Minimum mean luma (0..255), default 50. */
  darkThreshold?: number;
  /** Maximum mean luma (0..255), default 220. */
  brightThreshold?: number;
  /** Keep the photo whatever its resolution, exposure or focus (the person chose to, after two refusals). */
  keepAnyway?: boolean;
  signal?: AbortSignal;
  /** The image worker script; default: `onboarding-flow.image-worker.js` beside this module. */
  workerURL?: string;
}

/** What the worker (or the page) prepared, as the element holds it: the JPEG as an object URL. */
export interface ProcessedImage extends Omit<PreparedImage, 'jpeg'> {
  role: CaptureRole;
  mime: 'image/jpeg';
  /** Object URL of the output JPEG; the caller revokes it. */
  previewUrl: string;
  /**
   * Where decode, checks and encode really ran: the image 'worker', or the 'main-thread' when
   * the engine has no `OffscreenCanvas` or the worker could not start (a console warning says why).
   */
  processedIn: ProcessedIn;
}

async function sniffBlob(source: Blob): Promise<ReturnType<typeof sniffBytes>> {
  return sniffBytes(new Uint8Array(await source.slice(0, SNIFF_BYTES).arrayBuffer()));
}

/** Type from the bytes, never from the name or the claimed MIME type. */
async function checkType(source: Blob): Promise<void> {
  const sniffed = await sniffBlob(source);
  if (sniffed === 'image/jpeg' || sniffed === 'image/png' || sniffed === 'image/webp') return;
  if (sniffed === null && source.type.startsWith('image/')) {
    // GIF, HEIC, BMP, SVG...: an image, but not one we can rely on every browser to decode.
    throw new ImageCheckError('unsupported-type', `Images of type ${source.type} are not supported; use JPEG, PNG or WebP`);
  }
  throw new ImageCheckError('not-an-image', 'The file is not an image');
}

/** The worker could not start, or failed for a reason that is not about the photo: the page does the work instead. */
class WorkerUnavailable extends Error {
  override name = 'WorkerUnavailable';
  /** The frame the worker was given, handed back (it had been transferred). */
  readonly frame?: FramePixels;

  constructor(message?: string, frame?: FramePixels) {
    super(message);
    if (frame) this.frame = frame;
  }
}

/**
 * One worker per script URL, kept for the next photo (starting one costs a script load). An abort
 * terminates it (the work cannot be interrupted otherwise) and the next photo starts a new one;
 * a worker that failed to start is remembered so that each photo does not try again.
 */
interface WorkerSlot {
  worker: Worker;
  /** The worker has answered once: a frame can be transferred to it (a new one gets a copy, in case it cannot run). */
  proven: boolean;
  /** Answers awaited: a prepared image, or a guidance sample. */
  pending: Map<number, { resolve(answer: PreparedImage | GuidanceSample): void; reject(error: unknown): void }>;
}
const workers = new Map<string, WorkerSlot>();
const brokenWorkers = new Map<string, string>();
let nextId = 1;

/**
 * A refusal stays a refusal; any other failure in the worker (an engine whose worker lacks what
 * the page has, say) is the worker's, so the photo is tried again on the page.
 */
function fromFailure(url: string, failure: WorkerFailure): Error {
  if (failure.code) {
    const error = new ImageCheckError(failure.code, failure.message, failure.detail);
    if (failure.image) error.image = failure.image;
    return error;
  }
  return new WorkerUnavailable(`${url} failed: ${failure.name}: ${failure.message}`, failure.frame);
}

function workerSlot(url: string): WorkerSlot {
  const existing = workers.get(url);
  if (existing) return existing;
  // A module worker: the test server serves the TypeScript source as modules; the build's file
  // is self-contained, so it would run as a classic script too.
  const worker = new Worker(url, { type: 'module' });
  const slot: WorkerSlot = { worker, proven: false, pending: new Map() };
  const fail = (reason: string) => {
    brokenWorkers.set(url, reason);
    dropWorker(url, slot, new WorkerUnavailable(reason));
  };
  worker.addEventListener('message', (event: MessageEvent<WorkerResponse | GuidanceResponse>) => {
    const answer = event.data;
    slot.proven = true;
    const waiting = slot.pending.get(answer.id);
    if (!waiting) return;
    slot.pending.delete(answer.id);
    if (answer.ok) waiting.resolve('image' in answer ? answer.image : answer.guidance);
    else waiting.reject(fromFailure(url, answer.error));
  });
  // The script did not load or evaluate (404, refused by the page's policy, no module workers).
  worker.addEventListener('error', (event) => {
    // No message: the script never ran, which the page's developer must hear of if the page does not serve it.
    if (!event.message) void classifyFileFailure('image-worker', url);
    fail(`${url} could not run: ${event.message || 'the script did not load'}`);
  });
  worker.addEventListener('messageerror', () => fail(`${url} sent a message that could not be read`));
  workers.set(url, slot);
  return slot;
}

function dropWorker(url: string, slot: WorkerSlot, reason: unknown): void {
  if (workers.get(url) === slot) workers.delete(url);
  slot.worker.terminate();
  for (const waiting of slot.pending.values()) waiting.reject(reason);
  slot.pending.clear();
}

/**
 * The worker for `url`, started if need be; why not where the engine has none or it cannot start
 * (some engines refuse a policy-blocked or cross-origin worker synchronously: remembered).
 */
function startedSlot(url: string): WorkerSlot | WorkerUnavailable {
  if (!hasOffscreenCanvas() || typeof Worker !== 'function') return new WorkerUnavailable('no worker with OffscreenCanvas');
  const broken = brokenWorkers.get(url);
  if (broken) return new WorkerUnavailable(broken);
  try {
    return workerSlot(url);
  } catch (error) {
    brokenWorkers.set(url, `${url} could not start: ${(error as Error).message}`);
    return new WorkerUnavailable(brokenWorkers.get(url));
  }
}

function inWorker(
  url: string,
  source: Blob | FramePixels,
  options: PrepareOptions,
  signal: AbortSignal | undefined,
): Promise<PreparedImage> {
  const slot = startedSlot(url);
  if (slot instanceof WorkerUnavailable) return Promise.reject(slot);
  const id = nextId++;
  return new Promise<PreparedImage>((resolve, reject) => {
    const onAbort = () => dropWorker(url, slot, signal!.reason);
    slot.pending.set(id, {
      resolve: (image) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(image as PreparedImage);
      },
      reject: (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    // A frame is transferred (no copy) to a worker that has shown it runs; a new one gets a copy,
    // so the page still has the frame if the worker cannot start.
    const transfer = !isBlob(source) && slot.proven ? [source] : [];
    slot.worker.postMessage({ id, source, options } satisfies WorkerRequest, transfer);
  });
}

/**
 * Starts the image worker (its script fetched and run) without giving it work, so that the
 * camera's first guidance frame and the first photo do not wait for it. Nothing happens where
 * there is no worker to start, or it already runs.
 */
export function warmImageWorker(workerURL?: string): void {
  startedSlot(workerURL ?? defaultImageWorkerURL());
}

/**
 * One live-guidance sample in the image worker (guidance/worker-sample.ts): the frame (which this
 * takes over) is read and analysed there, off the main thread. Rejects where the worker cannot
 * run (no `OffscreenCanvas`, a worker that failed to start, or one that cannot read the frame),
 * for the sampler to do the work on the page instead.
 */
export function sampleGuidance(
  frame: FramePixels,
  request: Omit<GuidanceRequest, 'id' | 'kind' | 'frame'>,
  workerURL?: string,
): Promise<GuidanceSample> {
  const slot = startedSlot(workerURL ?? defaultImageWorkerURL());
  if (slot instanceof WorkerUnavailable) {
    frame.close();
    return Promise.reject(slot);
  }
  const id = nextId++;
  return new Promise<GuidanceSample>((resolve, reject) => {
    slot.pending.set(id, { resolve: (answer) => resolve(answer as GuidanceSample), reject });
    // A clone shares a VideoFrame's buffer but copies a bitmap: transferred once the worker has shown it runs.
    const transfer = slot.proven ? [frame] : [];
    slot.worker.postMessage({ id, kind: 'guidance', frame, ...request } satisfies GuidanceRequest, transfer);
    if (!slot.proven) frame.close();
  });
}

function prepareOptions(options: PipelineOptions): PrepareOptions {
  const { signal: _signal, workerURL: _workerURL, maxFileBytes: _maxFileBytes, ...rest } = options;
  return rest;
}

/**
 * Checks and prepares one image: a picked file (a Blob), or a camera frame's pixels (a
 * VideoFrame or an ImageBitmap from `captureFramePixels`, which this takes over and closes; a
 * frame marked with a region (`setFrameRegion`) is cut to it in the worker). Throws
 * {@link ImageCheckError} when the image is refused or cannot be prepared (its message and
 * `cause` say why; a refused frame's JPEG is its `image`), and the signal's reason (an
 * AbortError DOMException by default) when aborted.
 */
export async function processImage(source: Blob | FramePixels, options: PipelineOptions): Promise<ProcessedImage> {
  let frame = isBlob(source) ? null : source;
  try {
    return await processSource(source, options, (returned) => (frame = returned));
  } finally {
    frame?.close();
  }
}

async function processSource(
  source: Blob | FramePixels,
  options: PipelineOptions,
  handedBack: (frame: FramePixels) => void,
): Promise<ProcessedImage> {
  const { signal } = options;
  signal?.throwIfAborted();
  if (isBlob(source)) {
    const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
    if (source.size > maxFileBytes) {
      throw new ImageCheckError('file-too-large', 'The file is too large', { bytes: source.size, maxBytes: maxFileBytes });
    }
    await checkType(source);
    signal?.throwIfAborted();
  }

  const work = prepareOptions(options);
  // A whole camera frame standing for its guide region: the worker cuts the region out.
  const region = isBlob(source) ? undefined : frameRegionOf(source);
  if (region) work.crop = region;
  const url = options.workerURL ?? defaultImageWorkerURL();
  let processedIn: ProcessedIn = 'main-thread';
  let prepared: PreparedImage | null = null;
  let local: Blob | FramePixels = source;
  try {
    if (!hasOffscreenCanvas() || typeof Worker !== 'function') {
      // Expected on older Safari; the work is the same, only the thread differs.
    } else if (brokenWorkers.has(url)) {
      console.warn(`[onboarding-flow] photos are prepared on the main thread: ${brokenWorkers.get(url)}`);
    } else {
      try {
        prepared = await inWorker(url, source, work, signal);
        processedIn = 'worker';
      } catch (error) {
        if (!(error instanceof WorkerUnavailable)) throw error;
        if (error.frame) {
          local = error.frame;
          handedBack(error.frame);
        }
        console.warn(`[onboarding-flow] photos are prepared on the main thread: ${error.message}`);
      }
    }
    signal?.throwIfAborted();
    if (!prepared && !isBlob(local) && !('displayWidth' in local) && local.width === 0) {
      // Transferred to a worker that then failed without handing it back.
      throw new Error('the camera frame went to the image worker and did not come back');
    }
    prepared ??= await prepareImage(local, work);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ImageCheckError) throw error;
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new ImageCheckError('compression-failed', `The image could not be prepared (${why})`, undefined, { cause: error });
  }
  signal?.throwIfAborted();
  return {
    role: options.role,
    base64: prepared.base64,
    mime: 'image/jpeg',
    bytes: prepared.bytes,
    width: prepared.width,
    height: prepared.height,
    previewUrl: URL.createObjectURL(prepared.jpeg),
    checks: prepared.checks,
    timings: prepared.timings,
    processedIn,
    processedBy: prepared.processedBy,
    ...(prepared.ownBecause ? { ownBecause: prepared.ownBecause } : {}),
  };
}
