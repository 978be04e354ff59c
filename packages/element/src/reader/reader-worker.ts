/**
 * The document reader's worker: a frame or a photo in, what it carries out (the QR code's payload,
 * the machine-readable zone with its check digits, the document kind they point to), off the
 * page's main thread. Built as its own self-contained file beside the module that starts it
 * (`onboarding-flow.reader-worker.js`), so `worker-src 'self'` covers it.
 */
import { base64ToBytes, type SideReading } from '@onboarding-kit/contract';
import { readZone, zoneKind } from './mrz-zone.js';
import { frameLuma } from './frame-luma.js';
import { nativeDetector, readQr, type QrPixels } from './qr-code.js';
import type { Base64Photo, LumaFrame, ReadRequest, ReadResponse } from './reader-protocol.js';

// The element's TypeScript lib is DOM, not WebWorker: only these two members are used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadResponse): void;
};

function isLuma(source: ReadRequest['source']): source is LumaFrame {
  return 'luma' in source;
}

/** A picture's pixels as a bitmap (a bitmap frame already is one; a VideoFrame is closed once copied). */
async function bitmapOf(source: VideoFrame | ImageBitmap | Blob | Base64Photo): Promise<ImageBitmap> {
  if ('base64' in source) source = new Blob([base64ToBytes(source.base64) as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' });
  if (source instanceof Blob) return createImageBitmap(source);
  if (source instanceof ImageBitmap) return source;
  try {
    return await createImageBitmap(source);
  } finally {
    source.close();
  }
}

/** The bitmap's RGBA pixels, and their grey levels (BT.601 weights, as the camera's luma). */
function pixelsOf(bitmap: ImageBitmap): { rgba: ImageData; grey: LumaFrame } {
  const { width, height } = bitmap;
  const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2d context in the reader worker');
  context.drawImage(bitmap, 0, 0);
  const rgba = context.getImageData(0, 0, width, height);
  const data = rgba.data;
  const luma = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < luma.length; i++, p += 4) luma[i] = (data[p]! * 77 + data[p + 1]! * 150 + data[p + 2]! * 29) >> 8;
  return { rgba, grey: { luma, width, height } };
}

/** What one frame or photo carries; both members absent where nothing was read. */
async function readSide(source: ReadRequest['source'], thorough: boolean): Promise<SideReading> {
  // A camera frame goes to the engine's detector as a bitmap; without one, its luma plane is all the decoders need.
  if (typeof VideoFrame === 'function' && source instanceof VideoFrame && !(await nativeDetector())) {
    const grey = await frameLuma(source).catch(() => null);
    if (grey) {
      source.close();
      source = grey;
    }
  }
  let bitmap: ImageBitmap | null = null;
  let qrPixels: QrPixels;
  let grey: LumaFrame;
  if (isLuma(source)) {
    grey = source;
    qrPixels = { grey };
  } else {
    bitmap = await bitmapOf(source);
    const pixels = pixelsOf(bitmap);
    grey = pixels.grey;
    qrPixels = { rgba: pixels.rgba };
  }
  try {
    const payloadBase64 = await readQr(bitmap, qrPixels, thorough);
    const mrz = readZone(grey.luma, grey.width, grey.height);
    const documentKind = mrz && zoneKind(mrz);
    return {
      ...(payloadBase64 && { qr: { payloadBase64 } }),
      ...(mrz && { mrz }),
      ...(documentKind && { documentKind }),
    };
  } finally {
    bitmap?.close();
  }
}

scope.onmessage = (event) => {
  const { id, source, thorough } = event.data;
  const started = performance.now();
  readSide(source, thorough).then(
    (reading) => scope.postMessage({ id, ok: true, reading, ms: performance.now() - started }),
    (error: unknown) =>
      scope.postMessage({ id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
};
