/**
 * Dark blobs of a grey picture: an adaptive threshold (each pixel against the mean of its
 * neighbourhood, so that shade and low light across a card do not matter), then connected
 * components with their boxes. Pure: runs in a worker on 8-bit luma.
 */

export interface Blob {
  x0: number;
  y0: number;
  /** Exclusive right and bottom edges. */
  x1: number;
  y1: number;
  area: number;
}

/** Pixels darker than their neighbourhood's mean by more than this share (or 6 levels, whichever is more). */
const DARKER_BY = 0.14;
const MIN_CONTRAST = 6;

/** 1 where a pixel is ink: darker than the mean of the `2r+1` square around it. */
export function inkMask(gray: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  // Sums stay below 2^31 for pictures up to 8 million pixels.
  const stride = width + 1;
  const integral = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0, p = y * width, q = (y + 1) * stride + 1; x < width; x++, p++, q++) {
      row += gray[p]!;
      integral[q] = integral[q - stride]! + row;
    }
  }
  const lefts = new Int32Array(width);
  const rights = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    lefts[x] = Math.max(0, x - radius);
    rights[x] = Math.min(width, x + radius + 1);
  }
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - radius) * stride;
    const bottom = Math.min(height, y + radius + 1) * stride;
    const rows = (bottom - top) / stride;
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const left = lefts[x]!;
      const right = rights[x]!;
      const mean =
        (integral[bottom + right]! - integral[top + right]! - integral[bottom + left]! + integral[top + left]!) / (rows * (right - left));
      const margin = mean * DARKER_BY;
      if (gray[p]! < mean - (margin > MIN_CONTRAST ? margin : MIN_CONTRAST)) mask[p] = 1;
    }
  }
  return mask;
}

/** The 8-connected components of a mask, with their boxes and pixel counts. */
export function blobs(mask: Uint8Array, width: number, height: number): Blob[] {
  const seen = new Uint8Array(mask.length);
  const stack = new Int32Array(mask.length);
  const out: Blob[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    const blob = { x0: width, y0: height, x1: 0, y1: 0, area: 0 };
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      blob.area++;
      if (x < blob.x0) blob.x0 = x;
      if (x >= blob.x1) blob.x1 = x + 1;
      if (y < blob.y0) blob.y0 = y;
      if (y >= blob.y1) blob.y1 = y + 1;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (mask[q] && !seen[q]) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    out.push(blob);
  }
  return out;
}

/** The picture at half size, each pixel the mean of four. */
export function halve(gray: Uint8Array, width: number, height: number): { gray: Uint8Array; width: number; height: number } {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0, p = 2 * y * width, q = y * w; x < w; x++, p += 2, q++) {
      out[q] = (gray[p]! + gray[p + 1]! + gray[p + width]! + gray[p + width + 1]! + 2) >> 2;
    }
  }
  return { gray: out, width: w, height: h };
}
