/**
 * An upright `ImageBitmap` of a JPEG, PNG or WebP, decoded off the page's main thread wherever
 * the engine allows. Firefox decodes a Blob handed to `createImageBitmap` on the page's main
 * thread even when a worker asks (a 12 MP photo froze the page for 80 to 170 ms per decode),
 * while its `ImageDecoder` (WebCodecs) decodes in the worker. So `ImageDecoder` is used where
 * the engine has one that applies EXIF orientation (found out once with a 2x1 picture marked
 * "rotate 90": Firefox), `createImageBitmap` elsewhere (Chromium, whose `ImageDecoder` leaves
 * orientation to the caller and whose worker decode leaves the page alone; WebKit, which has no
 * `ImageDecoder`). pipeline.test.ts checks the pixels of an orientation-6 photo in every engine.
 *
 * `decodeFitting` decodes straight to the size the upload will have (`resizeWidth` and
 * `resizeHeight`), so a 12 MP photo is never held, checked or drawn at full size: the size comes
 * from the JPEG's header (SOF and EXIF orientation) where the engine decodes the Blob itself, from
 * the decoded frame where `ImageDecoder` does.
 */
import { base64ToBytes, SNIFF_BYTES, sniffBytes } from '@onboarding-kit/contract';
import { jpegOrientation, jpegSize } from './jpeg-size.js';

type Decode = (image: ImageBitmapSource, options?: ImageBitmapOptions) => Promise<ImageBitmap>;

// Kept before the image worker routes the global one here (image-worker.ts), so no loop; looked
// up when this module loads, but only required when a photo is decoded.
const engineCreateImageBitmap = typeof createImageBitmap === 'function' ? (createImageBitmap.bind(globalThis) as Decode) : undefined;
const nativeCreateImageBitmap: Decode = (image, options) => {
  if (!engineCreateImageBitmap) throw new TypeError('createImageBitmap is not available');
  return engineCreateImageBitmap(image, options);
};

/** A black 2x1 JPEG whose EXIF Orientation is 6: decoded upright it is 1x2 (the probe blueimp's load-image and browser-image-compression use). */
const ROTATE_90_PROBE =
  '/9j/4QAiRXhpZgAATU0AKgAAAAgAAQESAAMAAAABAAYAAAAAAAD/2wCEAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ' +
  'EBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB' +
  'AQEBAQEBAf/AABEIAAEAAgMBEQACEQEDEQH/xABKAAEAAAAAAAAAAAAAAAAAAAALEAEAAAAAAAAAAAAAAAAAAAAAAQEAAAAAAAAAAAAAAAAAAA' +
  'AAEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwA/8H//2Q==';

/** The picture's upright size, and the size it has once its long edge fits `longEdge` (never upscaled; rounded as the encode rounds). */
function fitLongEdge(width: number, height: number, longEdge: number): { width: number; height: number } {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function resizeTo(upright: { width: number; height: number }, longEdge: number | undefined): ImageBitmapOptions {
  if (longEdge === undefined) return {};
  const fit = fitLongEdge(upright.width, upright.height, longEdge);
  if (fit.width === upright.width && fit.height === upright.height) return {};
  // 'low' (bilinear) averages 2x2 pixels at a halving, what a plain drawImage does, and costs
  // little over the decode itself; further down, 'medium' (mipmaps), so that nothing aliases.
  // 'high' doubled Chromium's decode of a 12 MP photo for no visible gain at these ratios.
  const ratio = Math.max(upright.width, upright.height) / Math.max(fit.width, fit.height);
  return { resizeWidth: fit.width, resizeHeight: fit.height, resizeQuality: ratio <= 2.5 ? 'low' : 'medium' };
}

export interface Decoded {
  /** Upright; at most `longEdge` on its long edge where the decode was asked to fit. */
  bitmap: ImageBitmap;
  /** The picture's own upright size, before any resize (what the resolution check judges). */
  upright: { width: number; height: number };
}

async function decodeWith(data: Uint8Array<ArrayBuffer> | ArrayBuffer, type: string, longEdge?: number): Promise<Decoded> {
  const decoder = new ImageDecoder({ data, type, preferAnimation: false });
  // A picture that does not decode also rejects these two; decode() below is what reports it.
  decoder.completed.catch(() => undefined);
  decoder.tracks.ready.catch(() => undefined);
  try {
    const { image } = await decoder.decode({ frameIndex: 0 });
    try {
      const upright = { width: image.displayWidth, height: image.displayHeight };
      return { bitmap: await nativeCreateImageBitmap(image, resizeTo(upright, longEdge)), upright };
    } finally {
      image.close();
    }
  } finally {
    decoder.close();
  }
}

let uprightDecoder: Promise<boolean> | undefined;

/** Whether this engine has an ImageDecoder that turns pictures upright as it decodes them (exported for its test). */
export function hasUprightImageDecoder(): Promise<boolean> {
  uprightDecoder ??= (async () => {
    if (typeof ImageDecoder !== 'function' || !(await ImageDecoder.isTypeSupported('image/jpeg'))) return false;
    const { bitmap: probe } = await decodeWith(base64ToBytes(ROTATE_90_PROBE) as Uint8Array<ArrayBuffer>, 'image/jpeg');
    const upright = probe.width === 1 && probe.height === 2;
    probe.close();
    return upright;
  })().catch(() => false);
  return uprightDecoder;
}

export async function decodeUpright(source: Blob): Promise<ImageBitmap> {
  return (await decodeFitting(source)).bitmap;
}

/** Enough of a JPEG to find its SOF behind EXIF (thumbnail included) and ICC segments. */
const HEAD_BYTES = 256 * 1024;

/**
 * Decodes `source` upright, straight to the size whose long edge fits `longEdge` where given
 * (the engine resizes as it decodes: no full-size bitmap to draw from). PNG and WebP, whose
 * headers are not read here, decode at full size where the engine decodes the Blob itself.
 */
export async function decodeFitting(source: Blob, longEdge?: number): Promise<Decoded> {
  if (await hasUprightImageDecoder()) {
    const type = sniffBytes(new Uint8Array(await source.slice(0, SNIFF_BYTES).arrayBuffer()));
    if (type && (await ImageDecoder.isTypeSupported(type))) return decodeWith(await source.arrayBuffer(), type, longEdge);
  }
  let resize: ImageBitmapOptions = {};
  let upright: { width: number; height: number } | null = null;
  if (longEdge !== undefined) {
    const head = new Uint8Array(await source.slice(0, HEAD_BYTES).arrayBuffer());
    const size = sniffBytes(head) === 'image/jpeg' ? jpegSize(head) : null;
    if (size) {
      upright = jpegOrientation(head) >= 5 ? { width: size.height, height: size.width } : size;
      resize = resizeTo(upright, longEdge);
    }
  }
  const bitmap = await nativeCreateImageBitmap(source, { imageOrientation: 'from-image', ...resize });
  if (!upright || !('resizeWidth' in resize)) return { bitmap, upright: { width: bitmap.width, height: bitmap.height } };
  return { bitmap, upright };
}
