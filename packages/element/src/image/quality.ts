/**
 * Image quality measures on a small grey copy: cheap enough to run on every capture (a 256 px
 * long edge is ~37k pixels) and stable across input resolutions, because the copy always has
 * the same size whatever the camera gave.
 */

import { context2d, createCanvas } from './canvas.js';

export const CHECK_LONG_EDGE = 256;

export interface GreyImage {
  width: number;
  height: number;
  /** Luma 0..255 (BT.601 weights), row-major. */
  grey: Float32Array;
}

/**
 * Halves `source` until it is at most twice `width` x `height`. A 2x bilinear step averages
 * exactly 2x2 pixels, so the chain is an area-averaging downscale in every engine; a single
 * large `drawImage` step is not (WebKit samples it, which aliases and invents sharpness: the card
 * measured 4485 there against 1619 in Chromium).
 */
function halvedTowards(source: CanvasImageSource & { width: number; height: number }, width: number, height: number): CanvasImageSource & { width: number; height: number } {
  let current = source;
  while (current.width >= width * 2 && current.height >= height * 2) {
    const canvas = createCanvas(Math.ceil(current.width / 2), Math.ceil(current.height / 2));
    const ctx = context2d(canvas);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'low';
    ctx.drawImage(current, 0, 0, canvas.width, canvas.height);
    current = canvas;
  }
  return current;
}

/** Draws `source` scaled so its long edge is `longEdge` (never upscaled) and returns its luma. */
export function greyCopy(source: CanvasImageSource & { width: number; height: number }, longEdge = CHECK_LONG_EDGE): GreyImage {
  const scale = Math.min(1, longEdge / Math.max(source.width, source.height));
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const ctx = context2d(createCanvas(width, height), { willReadFrequently: true });
  // Area-averaging downscale: plain bilinear over a large ratio would alias and invent sharpness.
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(halvedTowards(source, width, height), 0, 0, width, height);
  const { data } = ctx.getImageData(0, 0, width, height);
  const grey = new Float32Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    grey[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
  }
  return { width, height, grey };
}

/** Mean luma, 0 (black) .. 255 (white). */
export function meanBrightness(image: GreyImage): number {
  let sum = 0;
  for (const v of image.grey) sum += v;
  return image.grey.length ? sum / image.grey.length : 0;
}

/**
 * Variance of the 4-neighbour Laplacian: high when there are crisp edges, low when blurred
 * (the usual focus measure; text on a document gives it a lot to work with).
 */
export function laplacianVariance(image: GreyImage): number {
  const { width, height, grey } = image;
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!;
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}
