/**
 * Frames for the liveness tests made from NASA's public-domain portrait of Eileen Collins
 * (test/fixtures/faces/README.md): the face turned by warping its lower half sideways (the nose
 * leaves the eyes' midline, the eyes stay), and the face brought closer by zooming in on it.
 */
export const ASTRONAUT_URL = new URL('../../test/fixtures/faces/astronaut.jpg', import.meta.url).href;

/** Where the portrait's nose sits, and the rows from below the eyes to the chin (px of the 512 px portrait). */
const NOSE_X = 235;
const WARP_HALF_WIDTH = 60;
const WARP_ROWS = [95, 190] as const;

/**
 * The portrait with its lower face shifted by up to `shift` px (positive: towards the frame's
 * right, which is how the nose moves when the person turns to their own left).
 */
export function turnedFace(image: ImageBitmap, shift: number): ImageBitmap {
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(image, 0, 0);
  const source = ctx.getImageData(0, 0, image.width, image.height);
  const out = ctx.getImageData(0, 0, image.width, image.height);
  const [top, bottom] = WARP_ROWS;
  for (let y = top; y < bottom; y++) {
    const rowWeight = Math.sin((Math.PI * (y - top)) / (bottom - top));
    for (let x = NOSE_X - WARP_HALF_WIDTH; x < NOSE_X + WARP_HALF_WIDTH; x++) {
      const d = shift * rowWeight * Math.cos((Math.PI / 2) * ((x - NOSE_X) / WARP_HALF_WIDTH)) ** 2;
      const from = Math.min(image.width - 1, Math.max(0, Math.round(x - d)));
      for (let c = 0; c < 4; c++) out.data[(y * image.width + x) * 4 + c] = source.data[(y * image.width + from) * 4 + c]!;
    }
  }
  ctx.putImageData(out, 0, 0);
  return canvas.transferToImageBitmap();
}

/** The portrait zoomed `factor` times about the face: the face as a person coming closer shows it. */
export function closerFace(image: ImageBitmap, factor: number): ImageBitmap {
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d')!;
  const [cx, cy] = [NOSE_X, 130];
  ctx.translate(cx, cy);
  ctx.scale(factor, factor);
  ctx.drawImage(image, -cx, -cy);
  return canvas.transferToImageBitmap();
}

/** The picture mirrored left to right. */
export function mirrored(image: ImageBitmap): ImageBitmap {
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d')!;
  ctx.scale(-1, 1);
  ctx.drawImage(image, -image.width, 0);
  return canvas.transferToImageBitmap();
}
