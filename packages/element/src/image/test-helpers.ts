/**
 * Test pictures every engine can make. The card fixtures' CSS `filter` (blur(), brightness())
 * is a no-op in WebKit's canvas, so refusal tests draw their bad pictures with compositing
 * and scaling instead; calibration tests that need the exact CSS filters say where they cannot run.
 */
import { cardCanvas } from '@onboarding-kit/testing/pixels';

/** Whether this engine's canvas applies `ctx.filter` (WebKitGTK 2.50's does not). */
export function canvasFiltersWork(): boolean {
  const ctx = new OffscreenCanvas(4, 4).getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.filter = 'brightness(0)';
  ctx.fillRect(0, 0, 4, 4);
  return ctx.getImageData(0, 0, 1, 1).data[0] === 0;
}

/** Whether this engine's canvas encodes WebP (WebKit gives PNG instead). */
export async function canvasEncodesWebp(): Promise<boolean> {
  const canvas = new OffscreenCanvas(4, 4);
  canvas.getContext('2d')!.fillRect(0, 0, 4, 4);
  const blob = await canvas.convertToBlob({ type: 'image/webp' });
  return blob.type === 'image/webp';
}

/**
 * The card picture made too dark (every channel x0.3, like brightness(0.3)), too bright (x3,
 * clipped, like brightness(3)) or blurry (through a 1/32 copy, scaled back up in steps: softer than blur(8px)).
 */
export function degradedCard(kind: 'dark' | 'bright' | 'blurry', width = 1280, height = 720): OffscreenCanvas {
  const card = cardCanvas(width, height);
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  if (kind === 'dark') {
    ctx.drawImage(card, 0, 0);
    ctx.globalCompositeOperation = 'multiply';
    ctx.fillStyle = 'rgb(77, 77, 77)';
    ctx.fillRect(0, 0, width, height);
  } else if (kind === 'bright') {
    ctx.globalCompositeOperation = 'lighter';
    for (let i = 0; i < 3; i++) ctx.drawImage(card, 0, 0);
  } else {
    // Down to 1/32, then back up in 4x steps: one big bilinear step would leave creases that
    // the focus measure reads as edges.
    let current: OffscreenCanvas = card;
    for (const divisor of [32, 8, 2, 1]) {
      const next = new OffscreenCanvas(Math.ceil(width / divisor), Math.ceil(height / divisor));
      const nctx = next.getContext('2d')!;
      nctx.imageSmoothingQuality = 'high';
      nctx.drawImage(current, 0, 0, next.width, next.height);
      current = next;
    }
    ctx.drawImage(current, 0, 0);
  }
  return canvas;
}
