/**
 * From a picked file or a camera capture to what the companion accepts: checked (type by magic
 * bytes, resolution, focus, exposure), upright (EXIF orientation applied), never mirrored,
 * re-encoded as JPEG within size and dimension caps (which also drops EXIF, GPS included), and
 * as pure base64.
 */
import { bytesToBase64, SNIFF_BYTES, sniffBytes } from '@onboarding-kit/contract';
import type { Options as CompressionOptions } from 'browser-image-compression';
import { ImageCheckError } from './image-error.js';
import { jpegSize } from './jpeg-size.js';
import { defaultCompressionLibURL } from './lib-url.js';
import { greyCopy, laplacianVariance, meanBrightness } from './quality.js';

export { ImageCheckError };
export type { ImageCheckCode } from './image-error.js';

export type CaptureRole = 'documentFront' | 'documentBack' | 'selfie';

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
  signal?: AbortSignal;
  /** Self-hosted browser-image-compression UMD for the worker; default: next to this module. */
  libURL?: string;
}

export interface ProcessedImage {
  role: CaptureRole;
  /** Pure base64, no `data:` prefix. */
  base64: string;
  mime: 'image/jpeg';
  bytes: number;
  width: number;
  height: number;
  /** Object URL of the output JPEG; the caller revokes it. */
  previewUrl: string;
  checks: { sharpness: number; brightness: number };
  /** Milliseconds per stage. */
  timings: { decode: number; checks: number; compress: number; encode: number };
  /**
   * How the JPEG was made: 'canvas' when the picture already fit the long-edge cap and one JPEG
   * encode met the byte cap (no library, no worker); otherwise browser-image-compression in its
   * 'worker', or on the 'main-thread' only when the worker could not be used (see console).
   */
  compressedIn: 'canvas' | 'worker' | 'main-thread';
}

/**
 * Calibrated on the test card picture at 1280x720 (quality.test.ts logs the values):
 * sharpness (Laplacian variance of the 256 px grey copy) sharp 1619, blur(1px) 1175, (2px) 782,
 * (3px) 505, (5px) 284, (8px) 79; the camera capture of it ~1600. Document bar 150 sits between
 * blur(5px) and blur(8px) (about their geometric mean), with room for real photos' softer,
 * lower-contrast edges (a sharp picture at 30% brightness still measures ~146).
 * Selfies have far fewer edges than a card full of text, so their bar is lower (40); it is NOT
 * calibrated on real faces.
 * Brightness (mean luma): picture 130; brightness(0.3) 39, (0.5) 65, (1.7) 177, (2.2) 198, (3) 231:
 * dark bar 50, bright bar 220 (mean luma above 220 means most of the picture is blown out).
 */
export const DEFAULT_THRESHOLDS = {
  blur: { documentFront: 150, documentBack: 150, selfie: 40 } satisfies Record<CaptureRole, number>,
  dark: 50,
  bright: 220,
} as const;

const MiB = 1024 * 1024;
const DEFAULTS = { maxLongEdge: 2000, maxBytes: MiB, maxFileBytes: 25 * MiB, minWidth: 640, minHeight: 480 };
const JPEG_START_QUALITY = 0.92;

const now = (): number => performance.now();

async function sniffBlob(source: Blob): Promise<ReturnType<typeof sniffBytes>> {
  return sniffBytes(new Uint8Array(await source.slice(0, SNIFF_BYTES).arrayBuffer()));
}

/** Type from the bytes, never from the name or the claimed MIME type. */
async function checkType(source: Blob): Promise<'image/jpeg' | 'image/png' | 'image/webp'> {
  const sniffed = await sniffBlob(source);
  if (sniffed === 'image/jpeg' || sniffed === 'image/png' || sniffed === 'image/webp') return sniffed;
  if (sniffed === null && source.type.startsWith('image/')) {
    // GIF, HEIC, BMP, SVG...: an image, but not one we can rely on every browser to decode.
    throw new ImageCheckError('unsupported-type', `Images of type ${source.type} are not supported; use JPEG, PNG or WebP`);
  }
  throw new ImageCheckError('not-an-image', 'The file is not an image');
}

async function decode(source: Blob): Promise<ImageBitmap> {
  try {
    // 'from-image' applies EXIF orientation, so checks and dimensions see the picture upright.
    return await createImageBitmap(source, { imageOrientation: 'from-image' });
  } catch (error) {
    throw new ImageCheckError('not-an-image', 'The image could not be decoded', undefined, { cause: error });
  }
}

function checkQuality(bitmap: ImageBitmap, options: PipelineOptions): { sharpness: number; brightness: number } {
  const minWidth = options.minWidth ?? DEFAULTS.minWidth;
  const minHeight = options.minHeight ?? DEFAULTS.minHeight;
  const long = Math.max(bitmap.width, bitmap.height);
  const short = Math.min(bitmap.width, bitmap.height);
  if (long < Math.max(minWidth, minHeight) || short < Math.min(minWidth, minHeight)) {
    throw new ImageCheckError('too-small', `The image is ${bitmap.width}x${bitmap.height}; at least ${minWidth}x${minHeight} is needed`, {
      width: bitmap.width,
      height: bitmap.height,
      minWidth,
      minHeight,
    });
  }
  const grey = greyCopy(bitmap);
  const brightness = meanBrightness(grey);
  const sharpness = laplacianVariance(grey);
  const dark = options.darkThreshold ?? DEFAULT_THRESHOLDS.dark;
  const bright = options.brightThreshold ?? DEFAULT_THRESHOLDS.bright;
  const blur = options.blurThreshold ?? DEFAULT_THRESHOLDS.blur[options.role];
  // Exposure first: a dark picture also has weak edges, and "too dark" is the useful advice.
  if (brightness < dark) throw new ImageCheckError('too-dark', 'The image is too dark', { brightness, threshold: dark, sharpness });
  if (brightness > bright) throw new ImageCheckError('too-bright', 'The image is too bright', { brightness, threshold: bright, sharpness });
  if (sharpness < blur) throw new ImageCheckError('blurry', 'The image is blurry', { sharpness, threshold: blur, brightness });
  return { sharpness, brightness };
}

type ImageCompression = (file: File, options: CompressionOptions) => Promise<File>;

/** Loaded on first use: ~20 KB gzipped that the element's first load does not need. */
async function loadImageCompression(): Promise<ImageCompression> {
  const mod: { default: unknown } = await import('browser-image-compression');
  // Bundlers and the test server load the ESM build (function as default export); the package's
  // typings are CommonJS, where TypeScript sees it one `default` deeper.
  const fn = typeof mod.default === 'function' ? mod.default : (mod.default as { default: unknown }).default;
  return fn as ImageCompression;
}

/** One HEAD request per libURL: is the self-hosted worker copy there? */
const libReachable = new Map<string, Promise<boolean>>();
function canUseWorker(libURL: string): Promise<boolean> {
  if (typeof Worker !== 'function') return Promise.resolve(false);
  let reachable = libReachable.get(libURL);
  if (!reachable) {
    reachable = fetch(libURL, { method: 'HEAD' }).then(
      (response) => response.ok,
      () => false,
    );
    libReachable.set(libURL, reachable);
  }
  return reachable;
}

async function compress(
  source: Blob,
  mime: string,
  options: PipelineOptions,
): Promise<{ output: Blob; compressedIn: ProcessedImage['compressedIn'] }> {
  const libURL = options.libURL ?? defaultCompressionLibURL();
  const [imageCompression, useWebWorker] = await Promise.all([loadImageCompression(), canUseWorker(libURL)]);
  if (!useWebWorker) {
    // Explicit, not the library's silent fallback: say why compression blocks the page.
    console.warn(`[onboarding-flow] image compression runs on the main thread: ${libURL} is not reachable or workers are unavailable`);
  }
  options.signal?.throwIfAborted();
  const file = source instanceof File ? source : new File([source], 'image', { type: mime });
  const typed = file.type === mime ? file : new File([file], file.name, { type: mime });
  const output = await imageCompression(typed, {
    maxSizeMB: (options.maxBytes ?? DEFAULTS.maxBytes) / MiB,
    maxWidthOrHeight: options.maxLongEdge ?? DEFAULTS.maxLongEdge,
    fileType: 'image/jpeg',
    initialQuality: JPEG_START_QUALITY,
    useWebWorker,
    libURL,
    preserveExif: false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { output, compressedIn: useWebWorker ? 'worker' : 'main-thread' };
}

/**
 * One JPEG encode of the decoded (already upright) pixels, for a picture that fits the long-edge
 * cap: a camera frame needs no resizing, so starting the library's worker (a fixed ~30 ms plus
 * its script) would be most of the cost. `null` when the result is over `maxBytes`.
 */
async function encodeDirect(bitmap: ImageBitmap, maxBytes: number): Promise<Blob | null> {
  let blob: Blob | null;
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.drawImage(bitmap, 0, 0);
    blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_START_QUALITY });
  } else {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.drawImage(bitmap, 0, 0);
    blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_START_QUALITY));
  }
  return blob && blob.size <= maxBytes ? blob : null;
}

/**
 * Checks and prepares one image. Throws {@link ImageCheckError} when the image is refused, and
 * the signal's reason (an AbortError DOMException by default) when aborted.
 */
export async function processImage(source: Blob, options: PipelineOptions): Promise<ProcessedImage> {
  const { signal } = options;
  signal?.throwIfAborted();
  const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
  if (source.size > maxFileBytes) {
    throw new ImageCheckError('file-too-large', 'The file is too large', { bytes: source.size, maxBytes: maxFileBytes });
  }

  const t0 = now();
  const mime = await checkType(source);
  signal?.throwIfAborted();
  const bitmap = await decode(source);
  const t1 = now();
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  let checks: { sharpness: number; brightness: number };
  let t2: number;
  let compressed: { output: Blob; compressedIn: ProcessedImage['compressedIn'] } | null = null;
  try {
    signal?.throwIfAborted();
    checks = checkQuality(bitmap, options);
    t2 = now();
    signal?.throwIfAborted();
    if (Math.max(bitmap.width, bitmap.height) <= (options.maxLongEdge ?? DEFAULTS.maxLongEdge)) {
      const direct = await encodeDirect(bitmap, maxBytes).catch(() => null);
      if (direct) compressed = { output: direct, compressedIn: 'canvas' };
    }
  } finally {
    bitmap.close();
  }
  signal?.throwIfAborted();

  if (!compressed) {
    try {
      compressed = await compress(source, mime, options);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new ImageCheckError('compression-failed', 'The image could not be compressed', undefined, { cause: error });
    }
  }
  signal?.throwIfAborted();
  const t3 = now();

  const bytes = new Uint8Array(await compressed.output.arrayBuffer());
  const size = sniffBytes(bytes) === 'image/jpeg' ? jpegSize(bytes) : null;
  if (!size) throw new ImageCheckError('compression-failed', 'Compression did not produce a JPEG');
  if (bytes.length > maxBytes) {
    throw new ImageCheckError('compression-failed', 'The image could not be made small enough', { bytes: bytes.length, maxBytes });
  }
  const base64 = bytesToBase64(bytes);
  const t4 = now();
  signal?.throwIfAborted();

  const output = new Blob([bytes], { type: 'image/jpeg' });
  return {
    role: options.role,
    base64,
    mime: 'image/jpeg',
    bytes: bytes.length,
    width: size.width,
    height: size.height,
    previewUrl: URL.createObjectURL(output),
    checks,
    timings: { decode: t1 - t0, checks: t2 - t1, compress: t3 - t2, encode: t4 - t3 },
    compressedIn: compressed.compressedIn,
  };
}
