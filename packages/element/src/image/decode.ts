/**
 * An upright `ImageBitmap` of a JPEG, PNG or WebP, decoded off the page's main thread wherever
 * the engine allows. Firefox decodes a Blob handed to `createImageBitmap` on the page's main
 * thread even when a worker asks (a 12 MP photo froze the page for 80 to 170 ms per decode),
 * while its `ImageDecoder` (WebCodecs) decodes in the worker. So `ImageDecoder` is used where
 * the engine has one that applies EXIF orientation (found out once with a 2x1 picture marked
 * "rotate 90": Firefox), `createImageBitmap` elsewhere (Chromium, whose `ImageDecoder` leaves
 * orientation to the caller and whose worker decode leaves the page alone; WebKit, which has no
 * `ImageDecoder`). pipeline.test.ts checks the pixels of an orientation-6 photo in every engine.
 */
import { base64ToBytes, SNIFF_BYTES, sniffBytes } from '@onboarding-kit/contract';

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

async function decodeWith(data: Uint8Array<ArrayBuffer> | ArrayBuffer, type: string): Promise<ImageBitmap> {
  const decoder = new ImageDecoder({ data, type, preferAnimation: false });
  // A picture that does not decode also rejects these two; decode() below is what reports it.
  decoder.completed.catch(() => undefined);
  decoder.tracks.ready.catch(() => undefined);
  try {
    const { image } = await decoder.decode({ frameIndex: 0 });
    try {
      return await nativeCreateImageBitmap(image);
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
    const probe = await decodeWith(base64ToBytes(ROTATE_90_PROBE) as Uint8Array<ArrayBuffer>, 'image/jpeg');
    const upright = probe.width === 1 && probe.height === 2;
    probe.close();
    return upright;
  })().catch(() => false);
  return uprightDecoder;
}

export async function decodeUpright(source: Blob): Promise<ImageBitmap> {
  if (await hasUprightImageDecoder()) {
    const type = sniffBytes(new Uint8Array(await source.slice(0, SNIFF_BYTES).arrayBuffer()));
    if (type && (await ImageDecoder.isTypeSupported(type))) return decodeWith(await source.arrayBuffer(), type);
  }
  return nativeCreateImageBitmap(source, { imageOrientation: 'from-image' });
}
