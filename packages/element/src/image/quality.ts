/**
 * Image quality measures on a small grey copy: cheap enough to run on every capture (a 256 px
 * long edge is ~37k pixels) and stable across input resolutions, because the copy always has
 * the same size whatever the camera gave.
 */

import { context2d, createCanvas, KEEP_MS, releaseCanvas, type AnyCanvas } from './canvas.js';

type Context2d = ReturnType<typeof context2d>;

export const CHECK_LONG_EDGE = 256;

export interface GreyImage {
  width: number;
  height: number;
  /** Luma 0..255 (BT.601 weights), row-major. */
  grey: Float32Array;
}

/**
 * The canvases the grey copy is drawn through, kept across calls by size: making a canvas (and its
 * context) costs more than the small draws on it, and a camera gives frames of one size (live
 * guidance draws five a second). A few sizes at most (a few hundred KB), forgotten all at once when
 * a ninth size comes. They hold a downscale of the last picture checked, so, like the kept photo
 * canvases, they are let go (pixels and all) KEEP_MS after the last check.
 */
const canvases = new Map<string, { canvas: AnyCanvas; ctx: Context2d }>();
const MAX_CACHED_CANVASES = 8;
let letGo: ReturnType<typeof setTimeout> | undefined;

/** Lets every check canvas go now, their pixels with them. */
export function releaseCheckCanvases(): void {
  clearTimeout(letGo);
  letGo = undefined;
  for (const { canvas } of canvases.values()) releaseCanvas(canvas);
  canvases.clear();
}

/** How many check canvases are kept (for tests). */
export function checkCanvasCount(): number {
  return canvases.size;
}

function canvasOf(width: number, height: number, read: boolean): { canvas: AnyCanvas; ctx: Context2d } {
  const key = `${width}x${height}${read ? 'r' : ''}`;
  let entry = canvases.get(key);
  if (!entry) {
    // Forgotten, not wiped: the halving chain may be drawing from one of them right now.
    if (canvases.size >= MAX_CACHED_CANVASES) canvases.clear();
    const canvas = createCanvas(width, height);
    entry = { canvas, ctx: context2d(canvas, read ? { willReadFrequently: true } : undefined) };
    canvases.set(key, entry);
  }
  const { ctx } = entry;
  ctx.globalCompositeOperation = 'source-over';
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, width, height);
  // Area-averaging steps: plain bilinear over a large ratio would alias and invent sharpness.
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'low';
  return entry;
}

/**
 * Halves `source` until it is at most twice `width` x `height`. A 2x bilinear step averages
 * exactly 2x2 pixels, so the chain is an area-averaging downscale in every engine; a single
 * large `drawImage` step is not (WebKit samples it, which aliases and invents sharpness: the card
 * measured 4485 there against 1619 in Chromium; Firefox's single step measures 4485 at every
 * imageSmoothingQuality, so no engine gets a one-step path).
 */
function halvedTowards(
  source: CanvasImageSource & { width: number; height: number },
  width: number,
  height: number,
): CanvasImageSource & { width: number; height: number } {
  let current = source;
  while (current.width >= width * 2 && current.height >= height * 2) {
    const { canvas, ctx } = canvasOf(Math.ceil(current.width / 2), Math.ceil(current.height / 2), false);
    ctx.drawImage(current, 0, 0, canvas.width, canvas.height);
    current = canvas;
  }
  return current;
}

/**
 * Draws `source` scaled so its long edge is `longEdge` (never upscaled) and returns its luma.
 * `keepMs`: how long the canvases it drew through are kept after this call (default KEEP_MS).
 */
export function greyCopy(
  source: CanvasImageSource & { width: number; height: number },
  longEdge = CHECK_LONG_EDGE,
  keepMs = KEEP_MS,
): GreyImage {
  const scale = Math.min(1, longEdge / Math.max(source.width, source.height));
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const halved = halvedTowards(source, width, height);
  // Only this copy is read back (a canvas kept on the CPU for it).
  const { ctx } = canvasOf(width, height, true);
  ctx.drawImage(halved, 0, 0, width, height);
  const { data } = ctx.getImageData(0, 0, width, height);
  const grey = new Float32Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    grey[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
  }
  clearTimeout(letGo);
  letGo = setTimeout(releaseCheckCanvases, keepMs);
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
