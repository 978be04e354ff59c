/**
 * A 2D canvas wherever the pipeline runs: `OffscreenCanvas` in the worker and in every engine
 * that has it, a `<canvas>` element on the page where it does not (Safari before 16.4). Every
 * canvas the pipeline makes comes from here, so none assumes `OffscreenCanvas` exists.
 */

export type AnyCanvas = OffscreenCanvas | HTMLCanvasElement;

export function hasOffscreenCanvas(): boolean {
  return typeof OffscreenCanvas === 'function';
}

export function createCanvas(width: number, height: number): AnyCanvas {
  if (hasOffscreenCanvas()) return new OffscreenCanvas(width, height);
  if (typeof document === 'undefined') throw new Error('Neither OffscreenCanvas nor a document canvas is available');
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

export function context2d(
  canvas: AnyCanvas,
  settings?: CanvasRenderingContext2DSettings,
): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', settings) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('A 2D canvas context is unavailable');
  return ctx;
}

export function canvasToJpeg(canvas: AnyCanvas, quality: number): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type: 'image/jpeg', quality });
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas.toBlob produced no image'))), 'image/jpeg', quality);
  });
}

/**
 * Canvases kept from one photo to the next. A camera gives frames of one size, and drawing a
 * frame into a canvas whose pixels are already allocated costs about a third less than into a
 * new one (a 1280x720 VideoFrame in Chromium's worker: 6.7 ms against 10.5 ms, the allocation and
 * first touch of 3.7 MB). A canvas comes back wiped (it held a photo); the kept ones are let go
 * after KEEP_MS without a photo, so neither their memory nor a trace of a photo stays for long.
 */
const kept: AnyCanvas[] = [];
const MAX_KEPT = 2;
export const KEEP_MS = 30_000;
let letGo: ReturnType<typeof setTimeout> | undefined;

/** A canvas of this size: a kept one where there is one, else a new one. Give it back with {@link giveCanvas}. */
export function takeCanvas(width: number, height: number): AnyCanvas {
  const i = kept.findIndex((c) => c.width === width && c.height === height);
  return i >= 0 ? kept.splice(i, 1)[0]! : createCanvas(width, height);
}

/**
 * Wipes `canvas` and keeps it for the next photo of its size (the oldest kept one goes beyond
 * MAX_KEPT); all are let go `keepMs` after the last one came back.
 */
export function giveCanvas(canvas: AnyCanvas, keepMs = KEEP_MS): void {
  const ctx = context2d(canvas);
  ctx.globalCompositeOperation = 'source-over';
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  kept.unshift(canvas);
  for (const old of kept.splice(MAX_KEPT)) releaseCanvas(old);
  clearTimeout(letGo);
  letGo = setTimeout(releaseKeptCanvases, keepMs);
}

/** Lets every kept canvas go now (their memory back at once, not when the collector runs). */
export function releaseKeptCanvases(): void {
  clearTimeout(letGo);
  for (const old of kept.splice(0)) releaseCanvas(old);
}

/** How many canvases are kept (for tests). */
export function keptCanvasCount(): number {
  return kept.length;
}

/** Gives a canvas's pixels back at once (not when the collector runs): it is empty from then on. */
export function releaseCanvas(canvas: AnyCanvas): void {
  canvas.width = 0;
  canvas.height = 0;
}
