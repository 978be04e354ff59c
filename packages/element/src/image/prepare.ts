/**
 * The pixel work of the pipeline, the same code in the image worker and (only where the worker
 * cannot run) on the page: decode upright (a file) or take the pixels as they are (a camera
 * frame), check resolution, exposure and focus, resize to the long-edge cap and encode a JPEG
 * under the byte cap, then base64. Nothing here touches the DOM except through canvas.ts, so it
 * runs in a worker as is.
 *
 * One encode where it can be: a file is decoded straight to the upload's size (decode.ts), a
 * frame is not decoded at all, and the JPEG at the first quality is started before the checks run
 * (they read a 256 px copy meanwhile); only a JPEG over the byte cap is encoded again (by the
 * compression library for a file where the worker has it, else by the own loop below).
 */
import { base64ToBytes, bytesToBase64, hasNativeBase64, sniffBytes } from '@onboarding-kit/contract';
import { canvasToJpeg, context2d, createCanvas, giveCanvas, takeCanvas, type AnyCanvas } from './canvas.js';
import { decodeFitting, type Decoded } from './decode.js';
import { ImageCheckError } from './image-error.js';
import { jpegSize } from './jpeg-size.js';
import { cardFit, type GuideMargin } from '../guidance/card-fit.js';
import { EXPOSURE, FOCUS, frameProblem } from './capture-thresholds.js';
import { greyCopy, laplacianVariance, meanBrightness } from './quality.js';

export type CaptureRole = 'documentFront' | 'documentBack' | 'selfie';

/** What the pixel work needs to know: plain data, so it can be posted to the worker. */
export interface PrepareOptions {
  role: CaptureRole;
  maxLongEdge?: number;
  maxBytes?: number;
  minWidth?: number;
  minHeight?: number;
  blurThreshold?: number;
  darkThreshold?: number;
  brightThreshold?: number;
  /**
   * The person chose to keep this photo after it was refused twice: resolution, exposure and
   * focus are measured but refuse nothing (the type, size and encode caps still hold).
   */
  keepAnyway?: boolean;
  /**
   * A camera frame's part to keep, in the frame's pixels (cut here with drawImage's source
   * rectangle, so the page hands over the whole frame and never copies the region itself).
   */
  crop?: { x: number; y: number; width: number; height: number };
  /**
   * A camera frame's guide in the part kept, as its margin on each axis (guide-geometry.ts
   * guideMargin): the document is then looked for against the guide, as the live checks did.
   */
  guide?: { x: number; y: number };
}

/**
 * Which code made the JPEG: 'own' = this module's canvas encode (one encode at the final size
 * whenever that JPEG is within the byte cap: every camera frame, most files); 'library' =
 * browser-image-compression, asked (in the image worker only, where it runs off the main thread)
 * for a file whose first JPEG was over the byte cap. The own loop also takes over when the
 * library cannot run or its output misses a cap.
 */
export type ProcessedBy = 'library' | 'own';

/**
 * The compression library's encode, tried before the own one where the image worker offers it
 * (library-encode.ts): its JPEG, which it has checked against the caps, or why not (then the own
 * encode runs). `upright` is the decoded picture's size, EXIF applied.
 */
export type Encoder = (
  source: Blob,
  caps: { maxLongEdge: number; maxBytes: number; upright: { width: number; height: number } },
) => Promise<{ jpeg: Blob } | { declined: string }>;

export interface PreparedImage {
  jpeg: Blob;
  /** Pure base64, no `data:` prefix. */
  base64: string;
  bytes: number;
  width: number;
  height: number;
  checks: { sharpness: number; brightness: number };
  timings: { decode: number; checks: number; compress: number; encode: number };
  /** Which code resized and encoded the JPEG (see {@link ProcessedBy}). */
  processedBy: ProcessedBy;
  /** Why the library was passed over where it was tried (in the image worker) and the own encode ran instead. */
  ownBecause?: string;
}

/** The pipeline's bars: the shared ones (capture-thresholds.ts), which the live hints apply too. */
export const DEFAULT_THRESHOLDS = { blur: FOCUS, dark: EXPOSURE.dark, bright: EXPOSURE.bright } as const;

const MiB = 1024 * 1024;
export const DEFAULTS = { maxLongEdge: 2000, maxBytes: MiB, maxFileBytes: 25 * MiB, minWidth: 640, minHeight: 480 };

/**
 * JPEG qualities tried in turn at one size before the size itself shrinks. 0.92 keeps a camera
 * frame's text crisp; below ~0.5 JPEG ringing blurs small print more than a smaller picture does.
 */
const QUALITIES = [0.92, 0.85, 0.75, 0.65, 0.55];
/** Each further size is this fraction of the previous one (long edge), at most MAX_SHRINKS times. */
const SHRINK = 0.8;
const MAX_SHRINKS = 6;

const now = (): number => performance.now();

async function decode(source: Blob, longEdge?: number): Promise<Decoded> {
  try {
    // Upright (EXIF orientation applied), so checks and dimensions see the picture as taken.
    return await decodeFitting(source, longEdge);
  } catch (error) {
    throw new ImageCheckError('not-an-image', 'The image could not be decoded', undefined, { cause: error });
  }
}

/** What the checks read and the encode draws: a decoded bitmap, or a canvas a frame was drawn on. */
type Picture = ImageBitmap | AnyCanvas;

/** `upright` is the picture's own size (the bitmap may already be resized to the upload's). */
function checkQuality(
  bitmap: Picture,
  upright: { width: number; height: number },
  options: PrepareOptions,
  guide: GuideMargin | null,
): { sharpness: number; brightness: number } {
  const minWidth = options.minWidth ?? DEFAULTS.minWidth;
  const minHeight = options.minHeight ?? DEFAULTS.minHeight;
  const long = Math.max(upright.width, upright.height);
  const short = Math.min(upright.width, upright.height);
  if (options.keepAnyway) {
    const grey = greyCopy(bitmap);
    return { sharpness: laplacianVariance(grey), brightness: meanBrightness(grey) };
  }
  if (long < Math.max(minWidth, minHeight) || short < Math.min(minWidth, minHeight)) {
    throw new ImageCheckError('too-small', `The image is ${upright.width}x${upright.height}; at least ${minWidth}x${minHeight} is needed`, {
      width: upright.width,
      height: upright.height,
      minWidth,
      minHeight,
    });
  }
  const grey = greyCopy(bitmap);
  const brightness = meanBrightness(grey);
  const sharpness = laplacianVariance(grey);
  // A camera frame of a document is judged against its guide as the live hint judged it; a file has no guide.
  const fit = guide && options.role !== 'selfie' ? cardFit(grey, guide) : null;
  const bars = { dark: options.darkThreshold, bright: options.brightThreshold, blur: options.blurThreshold };
  const problem = frameProblem({ brightness, sharpness, fit }, options.role, false, bars);
  const detail = { brightness, sharpness };
  if (problem === 'too-dark')
    throw new ImageCheckError('too-dark', 'The image is too dark', { ...detail, threshold: bars.dark ?? EXPOSURE.dark });
  if (problem === 'too-bright')
    throw new ImageCheckError('too-bright', 'The image is too bright', { ...detail, threshold: bars.bright ?? EXPOSURE.bright });
  if (problem === 'no-document') throw new ImageCheckError('no-document', 'No document fills the guide', detail);
  // Found inside the guide but small: too few of its pixels to read, the resolution refusal's advice (come closer).
  if (problem === 'document-too-far') throw new ImageCheckError('too-small', 'The document is too far from the camera', detail);
  if (problem === 'blurry')
    throw new ImageCheckError('blurry', 'The image is blurry', { ...detail, threshold: bars.blur ?? FOCUS[options.role] });
  return { sharpness, brightness };
}

/** The picture on a canvas whose long edge is `longEdge`: a canvas of that size already is used as it is. */
function drawnAt(bitmap: Picture, longEdge: number): AnyCanvas {
  const scale = longEdge / Math.max(bitmap.width, bitmap.height);
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  if (!isBitmap(bitmap) && width === bitmap.width && height === bitmap.height) return bitmap;
  const canvas = createCanvas(width, height);
  const ctx = context2d(canvas);
  // Pixel for pixel (a file decoded to the upload's size, a frame that fits): a plain copy.
  ctx.imageSmoothingEnabled = width !== bitmap.width || height !== bitmap.height;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, width, height);
  return canvas;
}

function isBitmap(picture: Picture): picture is ImageBitmap {
  return typeof (picture as ImageBitmap).close === 'function';
}

/** The first JPEG: the picture at the long-edge cap (never upscaled), at the first quality. */
function firstJpeg(bitmap: Picture, maxLongEdge: number): Promise<Blob> {
  return canvasToJpeg(drawnAt(bitmap, Math.min(maxLongEdge, Math.max(bitmap.width, bitmap.height))), QUALITIES[0]!);
}

/**
 * The largest JPEG within both caps: the picture scaled to the long-edge cap (never upscaled),
 * then lower qualities, then smaller sizes. Drawing the upright bitmap onto a fresh canvas also
 * drops EXIF (GPS included) and can never mirror it. `first` is the first JPEG when it was
 * already made (and found over the byte cap).
 */
async function encodeWithinCaps(bitmap: Picture, maxLongEdge: number, maxBytes: number, first?: Blob): Promise<Blob> {
  let longEdge = Math.min(maxLongEdge, Math.max(bitmap.width, bitmap.height));
  let smallest = first?.size ?? Infinity;
  for (let shrink = 0; shrink <= MAX_SHRINKS; shrink++) {
    const skipFirst = shrink === 0 && first !== undefined;
    // The first JPEG far over the cap: lower qualities at this size will not get there.
    if (!(skipFirst && first.size > maxBytes * 4)) {
      const canvas = drawnAt(bitmap, longEdge);
      for (const quality of skipFirst ? QUALITIES.slice(1) : QUALITIES) {
        const blob = await canvasToJpeg(canvas, quality);
        if (blob.size <= maxBytes) return blob;
        smallest = Math.min(smallest, blob.size);
        // Far over the cap: lower qualities at this size will not get there; shrink at once.
        if (blob.size > maxBytes * 4) break;
      }
    }
    longEdge = Math.round(longEdge * SHRINK);
  }
  throw new ImageCheckError('compression-failed', 'The image could not be made small enough', { bytes: smallest, maxBytes });
}

/** Where FileReaderSync exists (workers): the engine's own reads, at once. */
type SyncReader = { readAsDataURL(blob: Blob): string; readAsArrayBuffer(blob: Blob): ArrayBuffer };
const FileReaderSyncCtor = (globalThis as { FileReaderSync?: new () => SyncReader }).FileReaderSync;

/** The JPEG's size from its header; null when the bytes are not a JPEG. */
function jpegSizeOfBytes(bytes: Uint8Array): { width: number; height: number } | null {
  return sniffBytes(bytes) === 'image/jpeg' ? jpegSize(bytes) : null;
}

/**
 * Pure base64 of the JPEG and its size from its header, the JPEG read once. Where the engine
 * encodes base64 from bytes itself (or has no data-URL reader): from its bytes, the size from the
 * same bytes. Elsewhere the engine's data-URL encoder (native, much faster than a JS loop on a
 * large JPEG), the size from the start of that base64.
 */
async function encodeJpeg(blob: Blob): Promise<{ base64: string; size: { width: number; height: number } | null }> {
  if (hasNativeBase64() || (!FileReaderSyncCtor && typeof FileReader !== 'function')) {
    const bytes = new Uint8Array(FileReaderSyncCtor ? new FileReaderSyncCtor().readAsArrayBuffer(blob) : await blob.arrayBuffer());
    return { base64: bytesToBase64(bytes), size: jpegSizeOfBytes(bytes) };
  }
  const dataUrl = FileReaderSyncCtor
    ? new FileReaderSyncCtor().readAsDataURL(blob)
    : await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('FileReader failed'));
        reader.readAsDataURL(blob);
      });
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return { base64, size: jpegSizeOf(base64) };
}

/**
 * The JPEG's size from its header, read from the start of its base64 (the SOF of a canvas's JPEG
 * is within its first kilobytes), so the JPEG is not read again; null when it is not a JPEG.
 */
function jpegSizeOf(base64: string): { width: number; height: number } | null {
  for (const chars of [8192, base64.length]) {
    const bytes = base64ToBytes(base64.slice(0, Math.min(base64.length, chars)));
    if (sniffBytes(bytes) !== 'image/jpeg') return null;
    const size = jpegSize(bytes);
    if (size || chars >= base64.length) return size;
  }
  return null;
}

/** A camera frame's pixels, as captureFramePixels gives them. */
export type FramePixels = VideoFrame | ImageBitmap;

/** A file rather than a frame's pixels (duck-typed: a Blob from another realm, such as a frame's, is one too). */
export function isBlob(source: Blob | FramePixels): source is Blob {
  return typeof (source as Blob).slice === 'function';
}

function isVideoFrame(source: FramePixels): source is VideoFrame {
  return 'displayWidth' in source;
}

/**
 * The frame's pixels to read and encode: a VideoFrame is drawn on a canvas (its one conversion,
 * here in the worker; the JPEG is then encoded from that canvas), a bitmap is used as it is.
 * The canvases are kept ones (takeCanvas); the one returned is given back once the photo is done.
 */
function framePixels(source: FramePixels, crop: PrepareOptions['crop']): { bitmap: Picture; upright: { width: number; height: number } } {
  const width = isVideoFrame(source) ? source.displayWidth : source.width;
  const height = isVideoFrame(source) ? source.displayHeight : source.height;
  if (crop) {
    // The region, clamped to the frame: one draw from the source rectangle.
    const x = Math.max(0, Math.min(width - 1, Math.round(crop.x)));
    const y = Math.max(0, Math.min(height - 1, Math.round(crop.y)));
    const w = Math.max(1, Math.min(width - x, Math.round(crop.width)));
    const h = Math.max(1, Math.min(height - y, Math.round(crop.height)));
    if (x !== 0 || y !== 0 || w !== width || h !== height) {
      // WebKit draws a VideoFrame's whole picture whatever the source rectangle (as it does
      // whatever its visibleRect), so a VideoFrame is drawn whole first and cut from that canvas.
      const drawn = isVideoFrame(source) ? takeCanvas(width, height) : null;
      if (drawn) context2d(drawn).drawImage(source, 0, 0);
      const canvas = takeCanvas(w, h);
      context2d(canvas).drawImage(drawn ?? (source as ImageBitmap), x, y, w, h, 0, 0, w, h);
      if (drawn) giveCanvas(drawn);
      return { bitmap: canvas, upright: { width: w, height: h } };
    }
  }
  if (!isVideoFrame(source)) return { bitmap: source, upright: { width, height } };
  const canvas = takeCanvas(width, height);
  context2d(canvas).drawImage(source, 0, 0);
  return { bitmap: canvas, upright: { width: canvas.width, height: canvas.height } };
}

const KEEPABLE_REFUSALS = new Set(['too-small', 'blurry', 'too-dark', 'too-bright', 'no-document']);

/**
 * Decodes (a file whose type was already sniffed as JPEG, PNG or WebP) or takes (a camera
 * frame's pixels, upright and unmirrored already) one picture, checks it and encodes it. A frame
 * stays the caller's: it is not closed here. A frame refused for what it shows comes with its JPEG
 * (`ImageCheckError.image`), so that it can be shown and kept anyway.
 */
export async function prepareImage(source: Blob | FramePixels, options: PrepareOptions, encoder?: Encoder): Promise<PreparedImage> {
  const maxLongEdge = options.maxLongEdge ?? DEFAULTS.maxLongEdge;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const isFile = isBlob(source);
  const t0 = now();
  const { bitmap, upright }: { bitmap: Picture; upright: Decoded['upright'] } = isBlob(source)
    ? await decode(source, maxLongEdge)
    : framePixels(source, options.crop);
  try {
    const t1 = now();
    // Started before the checks: the engine encodes while the checks read their small copy.
    const first = firstJpeg(bitmap, maxLongEdge);
    first.catch(() => undefined);
    let checks: PreparedImage['checks'];
    try {
      checks = checkQuality(bitmap, upright, options, isFile ? null : (options.guide ?? null));
    } catch (error) {
      if (!isFile && error instanceof ImageCheckError && KEEPABLE_REFUSALS.has(error.code)) {
        error.image = await first.catch(() => undefined);
      }
      throw error;
    }
    const t2 = now();
    let jpeg: Blob = await first;
    let processedBy: ProcessedBy = 'own';
    let ownBecause: string | undefined;
    if (jpeg.size > maxBytes) {
      const firstOver = jpeg;
      let other: Awaited<ReturnType<Encoder>> | null = null;
      // The library decodes the file itself; a frame has no file to give it.
      if (encoder && isBlob(source)) other = await encoder(source, { maxLongEdge, maxBytes, upright });
      if (other && 'jpeg' in other) {
        jpeg = other.jpeg;
        processedBy = 'library';
      } else {
        if (other) ownBecause = other.declined;
        jpeg = await encodeWithinCaps(bitmap, maxLongEdge, maxBytes, firstOver);
      }
    }
    const t3 = now();
    const { base64, size } = await encodeJpeg(jpeg);
    if (!size) throw new ImageCheckError('compression-failed', 'The canvas did not produce a JPEG');
    const t4 = now();
    return {
      jpeg,
      base64,
      bytes: jpeg.size,
      width: size.width,
      height: size.height,
      checks,
      timings: { decode: t1 - t0, checks: t2 - t1, compress: t3 - t2, encode: t4 - t3 },
      processedBy,
      ...(ownBecause ? { ownBecause } : {}),
    };
  } finally {
    if (bitmap !== source && isBitmap(bitmap)) bitmap.close();
    // A frame's canvas is kept for the next frame (wiped); a file's pictures are its own.
    else if (!isFile && !isBitmap(bitmap)) giveCanvas(bitmap);
  }
}
