/**
 * browser-image-compression as the image worker's encoder: resize to the long-edge cap and
 * encode a JPEG under the byte cap with the library's own loop, called with `useWebWorker: false`
 * because it already runs in the element's worker (its own worker would be a `blob:` script that
 * imports a copy of the library from a CDN). Bundled into the worker file only: the page's
 * pipeline never loads it.
 *
 * Where it works depends on the engine, and is found out by trying, not by the user agent: the
 * library decodes with `createImageBitmap` and draws on `OffscreenCanvas` (Chromium, Firefox),
 * but in Safari and every WebKit it decodes with `new Image()`, which workers do not have
 * ("Can't find variable: Image"). A library that throws is not asked again in this worker;
 * an output that misses a cap or comes out turned is declined for that photo only. Either way
 * the own canvas encode (prepare.ts) makes the JPEG.
 */
import * as compression from 'browser-image-compression';
import type { Options } from 'browser-image-compression';
import { sniffBytes } from '@onboarding-kit/contract';
import { jpegSize } from './jpeg-size.js';
import type { Encoder } from './prepare.js';

// Bundlers load the package's ES build, whose default export is the function; its types are
// CommonJS-shaped, so TypeScript sees one `.default` more than there is.
type Compress = (file: File, options: Options) => Promise<File>;
const imported = compression.default as unknown as Compress | { default: Compress };
const imageCompression: Compress = typeof imported === 'function' ? imported : imported.default;

const MiB = 1024 * 1024;
/** The library's first quality (it lowers it by 5 % per round); the own encode starts at the same. */
const INITIAL_QUALITY = 0.92;

/** Why the library cannot run in this worker, once it has failed here; null while it may. */
let unusable: string | null = null;

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export const libraryEncode: Encoder = async (source, { maxLongEdge, maxBytes, upright }) => {
  if (unusable) return { declined: unusable };
  // The library wants a File whose type says image; the bytes were sniffed already.
  const file = new File([source], 'photo', { type: source.type.startsWith('image/') ? source.type : 'image/jpeg' });
  let output: Blob;
  try {
    output = await imageCompression(file, {
      useWebWorker: false,
      maxWidthOrHeight: maxLongEdge,
      maxSizeMB: maxBytes / MiB,
      fileType: 'image/jpeg',
      initialQuality: INITIAL_QUALITY,
    });
  } catch (error) {
    unusable = `browser-image-compression cannot run in this worker (${describe(error)})`;
    return { declined: unusable };
  }
  const bytes = new Uint8Array(await output.slice(0, Math.min(output.size, 64 * 1024)).arrayBuffer());
  const size = sniffBytes(bytes) === 'image/jpeg' ? jpegSize(bytes) : null;
  if (!size) return { declined: 'browser-image-compression did not produce a JPEG' };
  if (output.size > maxBytes) return { declined: `browser-image-compression stopped at ${output.size} bytes, over the ${maxBytes} cap` };
  if (Math.max(size.width, size.height) > maxLongEdge)
    return { declined: `browser-image-compression made ${size.width}x${size.height}, over the ${maxLongEdge} px cap` };
  // The same shape as the upright decode: the library applied EXIF orientation once, not twice or never.
  const turned = size.width >= size.height !== upright.width >= upright.height;
  const ratio = size.width / size.height / (upright.width / upright.height);
  if (turned || Math.abs(ratio - 1) > 0.02) {
    return { declined: `browser-image-compression made ${size.width}x${size.height} from an upright ${upright.width}x${upright.height}` };
  }
  return { jpeg: output };
};
