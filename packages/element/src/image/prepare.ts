/**
 * The pixel work of the pipeline, the same code in the image worker and (only where the worker
 * cannot run) on the page: decode upright, check resolution, exposure and focus, resize to the
 * long-edge cap and encode a JPEG under the byte cap, then base64. Nothing here touches the DOM
 * except through canvas.ts, so it runs in a worker as is.
 */
import { bytesToBase64, sniffBytes } from '@onboarding-kit/contract';
import { canvasToJpeg, context2d, createCanvas } from './canvas.js';
import { decodeUpright } from './decode.js';
import { ImageCheckError } from './image-error.js';
import { jpegSize } from './jpeg-size.js';
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
}

/**
 * Which code made the JPEG: 'library' = browser-image-compression (in the image worker only,
 * where it runs off the main thread), 'own' = this module's canvas encode (everywhere else, and
 * whenever the library cannot run or its output misses a cap).
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

/**
 * Calibrated on the test card picture at 1280x720 (quality.test.ts logs the values):
 * sharpness (Laplacian variance of the 256 px grey copy) sharp 1536, blur(1px) 1099, (2px) 731,
 * (3px) 482, (5px) 277, (8px) 79 (Chromium; Firefox within 4 %; WebKit's sharp card 1531);
 * the camera capture of it ~1600. Document bar 150 sits between
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

async function decode(source: Blob): Promise<ImageBitmap> {
  try {
    // Upright (EXIF orientation applied), so checks and dimensions see the picture as taken.
    return await decodeUpright(source);
  } catch (error) {
    throw new ImageCheckError('not-an-image', 'The image could not be decoded', undefined, { cause: error });
  }
}

function checkQuality(bitmap: ImageBitmap, options: PrepareOptions): { sharpness: number; brightness: number } {
  const minWidth = options.minWidth ?? DEFAULTS.minWidth;
  const minHeight = options.minHeight ?? DEFAULTS.minHeight;
  const long = Math.max(bitmap.width, bitmap.height);
  const short = Math.min(bitmap.width, bitmap.height);
  if (options.keepAnyway) {
    const grey = greyCopy(bitmap);
    return { sharpness: laplacianVariance(grey), brightness: meanBrightness(grey) };
  }
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

/**
 * The largest JPEG within both caps: the picture scaled to the long-edge cap (never upscaled),
 * then lower qualities, then smaller sizes. Drawing the upright bitmap onto a fresh canvas also
 * drops EXIF (GPS included) and can never mirror it.
 */
async function encodeWithinCaps(bitmap: ImageBitmap, maxLongEdge: number, maxBytes: number): Promise<Blob> {
  let longEdge = Math.min(maxLongEdge, Math.max(bitmap.width, bitmap.height));
  let smallest = Infinity;
  for (let shrink = 0; shrink <= MAX_SHRINKS; shrink++) {
    const scale = longEdge / Math.max(bitmap.width, bitmap.height);
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = createCanvas(width, height);
    const ctx = context2d(canvas);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(bitmap, 0, 0, width, height);
    for (const quality of QUALITIES) {
      const blob = await canvasToJpeg(canvas, quality);
      if (blob.size <= maxBytes) return blob;
      smallest = Math.min(smallest, blob.size);
      // Far over the cap: lower qualities at this size will not get there; shrink at once.
      if (blob.size > maxBytes * 4) break;
    }
    longEdge = Math.round(longEdge * SHRINK);
  }
  throw new ImageCheckError('compression-failed', 'The image could not be made small enough', { bytes: smallest, maxBytes });
}

/** Decodes, checks and re-encodes one image whose type was already sniffed as JPEG, PNG or WebP. */
export async function prepareImage(source: Blob, options: PrepareOptions, encoder?: Encoder): Promise<PreparedImage> {
  const maxLongEdge = options.maxLongEdge ?? DEFAULTS.maxLongEdge;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const t0 = now();
  const bitmap = await decode(source);
  const t1 = now();
  const upright = { width: bitmap.width, height: bitmap.height };
  let checks: PreparedImage['checks'];
  try {
    checks = checkQuality(bitmap, options);
  } catch (error) {
    bitmap.close();
    throw error;
  }
  const t2 = now();
  let jpeg: Blob | null = null;
  let processedBy: ProcessedBy = 'own';
  let ownBecause: string | undefined;
  if (encoder) {
    // The other encoder decodes the source itself: the bitmap's memory is not needed meanwhile.
    bitmap.close();
    const other = await encoder(source, { maxLongEdge, maxBytes, upright });
    if ('jpeg' in other) {
      jpeg = other.jpeg;
      processedBy = 'library';
    } else {
      ownBecause = other.declined;
    }
  }
  if (!jpeg) {
    // Declined: decode again (the first bitmap was let go for the other encoder's sake).
    const own = encoder ? await decode(source) : bitmap;
    try {
      jpeg = await encodeWithinCaps(own, maxLongEdge, maxBytes);
    } finally {
      own.close();
    }
  }
  const bytes = new Uint8Array(await jpeg.arrayBuffer());
  const size = sniffBytes(bytes) === 'image/jpeg' ? jpegSize(bytes) : null;
  if (!size) throw new ImageCheckError('compression-failed', 'The canvas did not produce a JPEG');
  const t3 = now();
  const base64 = bytesToBase64(bytes);
  const t4 = now();
  return {
    jpeg,
    base64,
    bytes: bytes.length,
    width: size.width,
    height: size.height,
    checks,
    timings: { decode: t1 - t0, checks: t2 - t1, compress: t3 - t2, encode: t4 - t3 },
    processedBy,
    ...(ownBecause ? { ownBecause } : {}),
  };
}
