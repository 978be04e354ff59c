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

export function context2d(canvas: AnyCanvas, settings?: CanvasRenderingContext2DSettings): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D {
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
