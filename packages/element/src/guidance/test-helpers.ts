/**
 * Camera-sized scenes for the guidance tests, made from the fake camera's card picture with
 * drawing that every engine's canvas does (no ctx.filter, which WebKit ignores).
 */
import { CARD, COLOURS, PICTURE_HEIGHT, PICTURE_WIDTH } from '@onboarding-kit/testing/card-picture';
import { cardCanvas } from '@onboarding-kit/testing/pixels';
import type { CaptureRole } from '../image/pipeline.js';
import type { PixelRect } from './region-reader.js';

/**
 * The document guide as the capture view places it (camera/guide-geometry.ts): the largest ID-1
 * rectangle within 88 % x 76 % of the frame, centred. The selfie oval's box: 3:4 within 70 % x 78 %.
 */
export function guideFor(role: CaptureRole, width: number, height: number): PixelRect {
  const selfie = role === 'selfie';
  const ratio = selfie ? 3 / 4 : 85.6 / 53.98;
  const w = Math.min(width * (selfie ? 0.7 : 0.88), height * (selfie ? 0.78 : 0.76) * ratio);
  const h = w / ratio;
  return { x: (width - w) / 2, y: (height - h) / 2, width: w, height: h };
}

const rgb = (c: readonly number[]) => `rgb(${c[0]},${c[1]},${c[2]})`;

function tableCanvas(width: number, height: number): { canvas: OffscreenCanvas; ctx: OffscreenCanvasRenderingContext2D } {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = rgb(COLOURS.table);
  ctx.fillRect(0, 0, width, height);
  return { canvas, ctx };
}

/** The card picture scaled by `scale` and turned by `degrees` about the frame's centre, on the table. */
export function cardScene(width = PICTURE_WIDTH, height = PICTURE_HEIGHT, scale = 1, degrees = 0): OffscreenCanvas {
  const { canvas, ctx } = tableCanvas(width, height);
  const picture = cardCanvas(width, height);
  ctx.translate(width / 2, height / 2);
  ctx.rotate((degrees * Math.PI) / 180);
  ctx.scale(scale, scale);
  ctx.drawImage(picture, -width / 2, -height / 2);
  return canvas;
}

/** The bare table, no card. */
export function blankScene(width = PICTURE_WIDTH, height = PICTURE_HEIGHT): OffscreenCanvas {
  return tableCanvas(width, height).canvas;
}

/** Every channel multiplied by `factor` (< 1 darkens), like brightness(factor) but drawn by compositing. */
export function darkened(source: OffscreenCanvas, factor: number): OffscreenCanvas {
  const canvas = new OffscreenCanvas(source.width, source.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(source, 0, 0);
  ctx.globalCompositeOperation = 'multiply';
  const v = Math.round(255 * factor);
  ctx.fillStyle = `rgb(${v},${v},${v})`;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  return canvas;
}

/**
 * Blurred by going down to 1/`divisor` and back up in steps of at most 4x (one big bilinear step
 * would leave creases that read as edges): a larger divisor is a softer picture.
 */
export function blurred(source: OffscreenCanvas, divisor: number): OffscreenCanvas {
  const steps: number[] = [divisor];
  while (steps[steps.length - 1]! > 1) steps.push(Math.max(1, steps[steps.length - 1]! / 4));
  let current = source;
  for (const d of steps) {
    const next = new OffscreenCanvas(Math.ceil(source.width / d), Math.ceil(source.height / d));
    const ctx = next.getContext('2d')!;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(current, 0, 0, next.width, next.height);
    current = next;
  }
  return current;
}

/** A blown-out reflection: a white ellipse over the card's right half, `area` of the card's area. */
export function withGlare(source: OffscreenCanvas, area = 0.1): OffscreenCanvas {
  const canvas = new OffscreenCanvas(source.width, source.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(source, 0, 0);
  const sx = source.width / PICTURE_WIDTH;
  const sy = source.height / PICTURE_HEIGHT;
  const rx = Math.sqrt((area * CARD.width * CARD.height * 1.5) / Math.PI) * sx;
  const ry = rx / 1.5;
  ctx.fillStyle = '#fff';
  ctx.beginPath();
  ctx.ellipse((CARD.x + CARD.width * 0.65) * sx, (CARD.y + CARD.height * 0.5) * sy, rx, ry * (sy / sx), 0, 0, 2 * Math.PI);
  ctx.fill();
  return canvas;
}
