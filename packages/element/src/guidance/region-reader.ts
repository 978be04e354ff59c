/**
 * The small grey copy the live checks look at: one region of a video frame (the guide plus its
 * margin) drawn into a few canvases kept from sample to sample, then read back once.
 *
 * The region is halved down in steps, like the pipeline's greyCopy: one large drawImage step
 * samples rather than averages in WebKit, which aliases and invents sharpness, and the live
 * focus bar must mean the same as the pipeline's. Every stage asks for `willReadFrequently`
 * (a canvas in memory, not on the GPU), though only the last is read back: a GPU stage followed
 * by a read made one sample 2-4x slower (Chromium 5.7 against 1.5 ms, Firefox 4.0 against
 * 1.2 ms, WebKit 10.4 against 4.4 ms, the fake camera's 1280x720 frame).
 */
import { context2d, createCanvas, type AnyCanvas } from '../image/canvas.js';
import type { GreyImage } from '../image/quality.js';
import { ANALYSIS_LONG_EDGE } from './frame-analysis.js';

/** A rectangle in source pixels. */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

type Ctx = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

/**
 * What a grey copy covers and its size: `region` grown by `margin` of its size on each side,
 * scaled so that its long edge is `longEdge` (never up). The luma reader (luma-reader.ts) copies
 * the same rectangle at the same size.
 */
export function copyGeometry(region: PixelRect, margin: number, longEdge: number): { crop: PixelRect; width: number; height: number } {
  const crop = {
    x: region.x - region.width * margin,
    y: region.y - region.height * margin,
    width: region.width * (1 + 2 * margin),
    height: region.height * (1 + 2 * margin),
  };
  const scale = Math.min(1, longEdge / Math.max(crop.width, crop.height));
  return { crop, width: Math.max(1, Math.round(crop.width * scale)), height: Math.max(1, Math.round(crop.height * scale)) };
}

export class RegionReader {
  readonly longEdge: number;
  /** Largest first: stages[0] takes the source, each next one is half the previous; the last is read back. */
  #stages: { canvas: AnyCanvas; ctx: Ctx }[] = [];

  constructor(longEdge = ANALYSIS_LONG_EDGE) {
    this.longEdge = longEdge;
  }

  /**
   * Luma of `region` grown by `margin` of its size on each side, scaled so the long edge is
   * `longEdge` (never up). Where the grown region leaves the source, the copy shows mid grey there,
   * so the guide keeps its place in the copy.
   */
  read(source: CanvasImageSource, sourceWidth: number, sourceHeight: number, region: PixelRect, margin: number): GreyImage {
    const { crop, width, height } = copyGeometry(region, margin, this.longEdge);
    const halvings = Math.max(0, Math.floor(Math.log2(crop.width / width)));
    this.#prepare(width, height, halvings);

    const first = this.#stages[0]!;
    const fw = first.canvas.width;
    const fh = first.canvas.height;
    // The part of the crop inside the source, and where it lands on the first canvas.
    const sx0 = Math.max(0, crop.x);
    const sy0 = Math.max(0, crop.y);
    const sx1 = Math.min(sourceWidth, crop.x + crop.width);
    const sy1 = Math.min(sourceHeight, crop.y + crop.height);
    const k = fw / crop.width;
    const clipped = sx0 > crop.x || sy0 > crop.y || sx1 < crop.x + crop.width || sy1 < crop.y + crop.height;
    if (clipped) {
      first.ctx.fillStyle = 'rgb(128,128,128)';
      first.ctx.fillRect(0, 0, fw, fh);
    }
    if (sx1 > sx0 && sy1 > sy0) {
      first.ctx.drawImage(source, sx0, sy0, sx1 - sx0, sy1 - sy0, (sx0 - crop.x) * k, (sy0 - crop.y) * k, (sx1 - sx0) * k, (sy1 - sy0) * k);
    }
    for (let i = 1; i < this.#stages.length; i++) {
      const { canvas, ctx } = this.#stages[i]!;
      ctx.drawImage(this.#stages[i - 1]!.canvas, 0, 0, canvas.width, canvas.height);
    }
    const last = this.#stages[this.#stages.length - 1]!;
    const { data } = last.ctx.getImageData(0, 0, width, height);
    const grey = new Float32Array(width * height);
    for (let i = 0, p = 0; i < grey.length; i++, p += 4) grey[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
    return { width, height, grey };
  }

  /** Drops the canvases (their memory goes once nothing holds them). */
  release(): void {
    for (const { canvas } of this.#stages) {
      canvas.width = 0;
      canvas.height = 0;
    }
    this.#stages = [];
  }

  /** Keeps the stage canvases when the sizes are the same as last time, makes them again otherwise. */
  #prepare(width: number, height: number, halvings: number): void {
    const sizes: [number, number][] = [];
    for (let i = halvings; i >= 0; i--) sizes.push([width * 2 ** i, height * 2 ** i]);
    const same =
      sizes.length === this.#stages.length &&
      sizes.every(([w, h], i) => this.#stages[i]!.canvas.width === w && this.#stages[i]!.canvas.height === h);
    if (same) return;
    this.release();
    this.#stages = sizes.map(([w, h]) => {
      const canvas = createCanvas(w, h);
      const ctx = context2d(canvas, { willReadFrequently: true });
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'low';
      return { canvas, ctx };
    });
  }
}
