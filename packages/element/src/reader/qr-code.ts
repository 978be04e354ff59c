/**
 * The QR side of the reader, in its worker: the engine's own `BarcodeDetector` where the worker
 * has one that knows `qr_code` (Chromium on Android, macOS and ChromeOS), else the `qr` package's
 * decoder (about 16 KB gzip, no dependencies) over the frame's pixels. The payload is kept as
 * bytes: the decoder hands its byte segments over one byte a character.
 */
import { decodeQR } from 'qr/decode.js';
import type { LumaFrame } from './reader-protocol.js';

interface DetectedBarcode {
  rawValue: string;
}
interface NativeDetector {
  detect(source: ImageBitmapSource): Promise<DetectedBarcode[]>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

/** How much larger a photo is read the second time. */
const ENLARGE = 1.5;

let native: Promise<NativeDetector | null> | undefined;

/** The engine's detector, once, when it reads QR codes. */
export function nativeDetector(): Promise<NativeDetector | null> {
  const Detector = (self as unknown as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  native ??= Detector
    ? Detector.getSupportedFormats().then(
        (formats) => (formats.includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null),
        () => null,
      )
    : Promise.resolve(null);
  return native;
}

/** Each character's code as a byte; text beyond Latin-1 (a Kanji segment, an engine's decoded text) as UTF-8. */
function payloadBytes(text: string): Uint8Array {
  // Any UTF-16 unit above one byte (surrogates included).
  if (/[\u0100-\uffff]/.test(text)) return new TextEncoder().encode(text);
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

function base64(bytes: Uint8Array): string {
  return btoa(latin1(bytes));
}

/** A frame's RGBA pixels or grey levels, for the decoder. */
export type QrPixels = { rgba: ImageData } | { grey: LumaFrame };

/**
 * The code's payload in base64, or undefined where there is none; `bitmap` goes to the engine's
 * detector where there is one. `thorough`: every retry the decoder has (a photo), else its quick pass.
 */
export async function readQr(bitmap: ImageBitmap | null, pixels: QrPixels, thorough: boolean): Promise<string | undefined> {
  const detector = bitmap ? await nativeDetector() : null;
  if (detector && bitmap) {
    const found = await detector.detect(bitmap).catch(() => []);
    return found[0] ? base64(payloadBytes(found[0].rawValue)) : undefined;
  }
  const image =
    'rgba' in pixels
      ? { width: pixels.rgba.width, height: pixels.rgba.height, data: pixels.rgba.data }
      : { width: pixels.grey.width, height: pixels.grey.height, data: pixels.grey.luma };
  const text =
    decode(image, 'grey' in pixels, thorough) ??
    // A photo's dense code seen at a slant can have modules too thin for the finder: once more, larger.
    (thorough && bitmap ? decode(enlarged(bitmap), false, true) : undefined);
  return text === undefined ? undefined : base64(payloadBytes(text));
}

/** The decoder's text, or undefined where it finds no code (it throws). */
function decode(
  image: { width: number; height: number; data: Uint8Array | Uint8ClampedArray },
  luma: boolean,
  thorough: boolean,
): string | undefined {
  try {
    return decodeQR(image, {
      ...(thorough && { effort: Infinity, timeLimit: Infinity }),
      ...(luma && { format: 'I420' }),
      textDecoder: latin1,
    });
  } catch {
    return undefined;
  }
}

/** The picture half as large again, smoothed, as RGBA. */
function enlarged(bitmap: ImageBitmap): ImageData {
  const width = Math.round(bitmap.width * ENLARGE);
  const height = Math.round(bitmap.height * ENLARGE);
  const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!;
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  return context.getImageData(0, 0, width, height);
}
