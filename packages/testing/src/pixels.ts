/** Browser test helpers: decode images and compare them with the fixture card picture. */
import { COLOURS, PICTURE_HEIGHT, PICTURE_WIDTH, PROBES, renderCardPictureRgba } from './card-picture.mjs';
import type { Rgb } from './card-picture.mjs';

export interface Decoded {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export async function decode(blob: Blob): Promise<Decoded> {
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  return { width: canvas.width, height: canvas.height, data: ctx.getImageData(0, 0, canvas.width, canvas.height).data };
}

/** Mean colour of the (2r+1)^2 square around (x, y). */
export function meanAt(image: Decoded, x: number, y: number, radius = 2): Rgb {
  let r0 = 0;
  let g0 = 0;
  let b0 = 0;
  let n = 0;
  for (let yy = Math.max(0, y - radius); yy <= Math.min(image.height - 1, y + radius); yy++) {
    for (let xx = Math.max(0, x - radius); xx <= Math.min(image.width - 1, x + radius); xx++) {
      const i = (yy * image.width + xx) * 4;
      r0 += image.data[i]!;
      g0 += image.data[i + 1]!;
      b0 += image.data[i + 2]!;
      n++;
    }
  }
  return [r0 / n, g0 / n, b0 / n];
}

export interface ProbeResult {
  name: string;
  expected: Rgb;
  actual: Rgb;
  maxDiff: number;
}

/**
 * Compares an image showing the card picture (any size with the picture's 16:9 shape, scaled
 * uniformly) with the known colours at every probe. `mirrored` samples the horizontally flipped
 * position (to prove an image is NOT mirrored, compare both).
 */
export function probeCard(image: Decoded, mirrored = false): ProbeResult[] {
  const sx = image.width / PICTURE_WIDTH;
  const sy = image.height / PICTURE_HEIGHT;
  return PROBES.map((probe) => {
    const px = mirrored ? PICTURE_WIDTH - 1 - probe.x : probe.x;
    const actual = meanAt(image, Math.round(px * sx), Math.round(probe.y * sy), Math.max(1, Math.round(2 * sx)));
    const expected = COLOURS[probe.colour];
    const maxDiff = Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)));
    return { name: probe.name, expected, actual, maxDiff };
  });
}

export function worstProbe(results: ProbeResult[]): number {
  return Math.max(...results.map((r) => r.maxDiff));
}

/** The fixture picture as a canvas of the given size, optionally with a CSS filter (blur, brightness). */
export function cardCanvas(width = PICTURE_WIDTH, height = PICTURE_HEIGHT, filter = 'none'): OffscreenCanvas {
  const { rgba } = renderCardPictureRgba();
  const source = new OffscreenCanvas(PICTURE_WIDTH, PICTURE_HEIGHT);
  source.getContext('2d')!.putImageData(new ImageData(rgba, PICTURE_WIDTH, PICTURE_HEIGHT), 0, 0);
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.filter = filter;
  ctx.drawImage(source, 0, 0, width, height);
  return canvas;
}

export function canvasBlob(canvas: OffscreenCanvas, type = 'image/png', quality?: number): Promise<Blob> {
  return canvas.convertToBlob(quality === undefined ? { type } : { type, quality });
}
