/**
 * A small rasteriser for the document pictures: flat shapes, text in the generated glyph
 * bitmaps (OCR-B, DejaVu Sans Mono), QR codes, then the card laid on a table through a
 * perspective transform, and the camera's faults (blur, low light with noise). Isomorphic: it
 * runs in Node (for the fake camera's Y4M) and in browsers (for canvases and files), with the
 * same result.
 */
import { GLYPH_CHARS, GLYPH_FONTS } from './mrz-glyphs.mjs';

/** An RGB buffer (3 bytes per pixel, row-major) filled with one colour. */
export function rgbBuffer(width, height, colour) {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 3) rgb.set(colour, i);
  return { width, height, rgb };
}

export function fillRect(buf, x0, y0, x1, y1, colour) {
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(buf.height, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(buf.width, Math.round(x1)); x++) buf.rgb.set(colour, (y * buf.width + x) * 3);
  }
}

export function fillEllipse(buf, cx, cy, rx, ry, colour) {
  for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(buf.height, Math.ceil(cy + ry)); y++) {
    for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(buf.width, Math.ceil(cx + rx)); x++) {
      const dx = (x + 0.5 - cx) / rx;
      const dy = (y + 0.5 - cy) / ry;
      if (dx * dx + dy * dy <= 1) buf.rgb.set(colour, (y * buf.width + x) * 3);
    }
  }
}

const decoded = new Map();
/** A font's glyph coverage as levels 0-15, one byte per pixel. */
function glyphFont(name) {
  if (!decoded.has(name)) {
    const font = GLYPH_FONTS[name];
    const bytes = Uint8Array.from(atob(font.data), (c) => c.charCodeAt(0));
    const levels = new Uint8Array(bytes.length * 2);
    bytes.forEach((b, i) => {
      levels[2 * i] = b >> 4;
      levels[2 * i + 1] = b & 15;
    });
    decoded.set(name, { ...font, levels });
  }
  return decoded.get(name);
}

/** The capitals' height a font has when its advance is `pitch`. */
export function capHeight(fontName, pitch) {
  const font = GLYPH_FONTS[fontName];
  return (font.cap * pitch) / font.advance;
}

function blend(buf, x, y, colour, alpha) {
  const o = (y * buf.width + x) * 3;
  for (let c = 0; c < 3; c++) buf.rgb[o + c] = Math.round(buf.rgb[o + c] * (1 - alpha) + colour[c] * alpha);
}

/** Draws one glyph whose capitals start at (`x`, `top`), `scale` pixels per glyph pixel. */
function drawGlyph(buf, font, index, x, top, scale, colour) {
  const cell = font.width * font.height;
  const y0 = top - font.pad * scale;
  const at = (gx, gy) => (gx < 0 || gy < 0 || gx >= font.width || gy >= font.height ? 0 : font.levels[index * cell + gy * font.width + gx]);
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(buf.height, Math.ceil(y0 + font.height * scale)); y++) {
    for (let px = Math.max(0, Math.floor(x)); px < Math.min(buf.width, Math.ceil(x + font.width * scale)); px++) {
      const gx = (px + 0.5 - x) / scale - 0.5;
      const gy = (y + 0.5 - y0) / scale - 0.5;
      const ix = Math.floor(gx);
      const iy = Math.floor(gy);
      const fx = gx - ix;
      const fy = gy - iy;
      const level = (at(ix, iy) * (1 - fx) + at(ix + 1, iy) * fx) * (1 - fy) + (at(ix, iy + 1) * (1 - fx) + at(ix + 1, iy + 1) * fx) * fy;
      if (level > 0) blend(buf, px, y, colour, level / 15);
    }
  }
}

/** Monospace text: capitals from `top` down, `pitch` pixels a character; spaces are skipped. */
export function drawText(buf, { x, top, pitch, font: fontName, text, colour }) {
  const font = glyphFont(fontName);
  const scale = pitch / font.advance;
  for (let i = 0; i < text.length; i++) {
    const index = GLYPH_CHARS.indexOf(text[i]);
    if (index >= 0) drawGlyph(buf, font, index, x + i * pitch, top, scale, colour);
  }
}

/** A QR code's modules (`matrix` of booleans, dark true) in a square of `size` with a 4-module quiet zone. */
export function drawQr(buf, matrix, x, y, size, { dark, light }) {
  const modules = matrix.length + 8;
  const step = size / modules;
  fillRect(buf, x, y, x + size, y + size, light);
  matrix.forEach((row, r) =>
    row.forEach((on, c) => {
      if (on) fillRect(buf, x + (c + 4) * step, y + (r + 4) * step, x + (c + 5) * step, y + (r + 5) * step, dark);
    }),
  );
}

/** Solves the 8 coefficients of the homography taking each `from` point to its `to` point. */
function homography(from, to) {
  const a = [];
  from.forEach(([x, y], i) => {
    const [u, v] = to[i];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  });
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = a[r][col] / a[col][col];
      for (let k = col; k < 9; k++) a[r][k] -= f * a[col][k];
    }
  }
  return a.map((row, i) => row[8] / row[i]);
}

function sampler(src) {
  return (x, y, out) => {
    const ix = Math.floor(x - 0.5);
    const iy = Math.floor(y - 0.5);
    const fx = x - 0.5 - ix;
    const fy = y - 0.5 - iy;
    const cx0 = Math.min(src.width - 1, Math.max(0, ix));
    const cx1 = Math.min(src.width - 1, Math.max(0, ix + 1));
    const cy0 = Math.min(src.height - 1, Math.max(0, iy));
    const cy1 = Math.min(src.height - 1, Math.max(0, iy + 1));
    for (let c = 0; c < 3; c++) {
      const p = (px, py) => src.rgb[(py * src.width + px) * 3 + c];
      out[c] += (p(cx0, cy0) * (1 - fx) + p(cx1, cy0) * fx) * (1 - fy) + (p(cx0, cy1) * (1 - fx) + p(cx1, cy1) * fx) * fy;
    }
  };
}

/**
 * Lays `card` on a table picture of `width` x `height` with its corners (top-left, top-right,
 * bottom-right, bottom-left) at `corners`, four samples a pixel.
 */
export function warpOnto(card, { width, height, corners, table }) {
  const out = rgbBuffer(width, height, table);
  const h = homography(corners, [
    [0, 0],
    [card.width, 0],
    [card.width, card.height],
    [0, card.height],
  ]);
  const sample = sampler(card);
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const acc = [0, 0, 0];
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y < Math.min(height, Math.ceil(Math.max(...ys))); y++) {
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x < Math.min(width, Math.ceil(Math.max(...xs))); x++) {
      acc.fill(0);
      let inside = 0;
      for (const [dx, dy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ]) {
        const w = h[6] * (x + dx) + h[7] * (y + dy) + 1;
        const u = (h[0] * (x + dx) + h[1] * (y + dy) + h[2]) / w;
        const v = (h[3] * (x + dx) + h[4] * (y + dy) + h[5]) / w;
        if (u < 0 || v < 0 || u >= card.width || v >= card.height) {
          for (let c = 0; c < 3; c++) acc[c] += table[c];
        } else {
          sample(u, v, acc);
          inside++;
        }
      }
      if (inside > 0)
        out.rgb.set(
          acc.map((s) => Math.round(s / 4)),
          (y * width + x) * 3,
        );
    }
  }
  return out;
}

/** A box blur of `radius`, run `passes` times each way (three passes come close to a Gaussian). */
export function blur(picture, radius, passes = 3) {
  const { width, height, rgb } = picture;
  const tmp = new Float32Array(rgb.length);
  const run = (src, dst, len, count, stride, step) => {
    for (let line = 0; line < count; line++) {
      const base = line * stride;
      for (let c = 0; c < 3; c++) {
        for (let i = 0; i < len; i++) {
          let sum = 0;
          for (let k = -radius; k <= radius; k++) sum += src[base + Math.min(len - 1, Math.max(0, i + k)) * step + c];
          dst[base + i * step + c] = sum / (2 * radius + 1);
        }
      }
    }
  };
  for (let p = 0; p < passes; p++) {
    run(rgb, tmp, width, height, width * 3, 3);
    const back = new Float32Array(rgb.length);
    run(tmp, back, height, width, 3, width * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = Math.round(back[i]);
  }
  return picture;
}

/** A dim room: light scaled down, then sensor noise from a fixed seed. */
export function dim(picture, factor, noise) {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const { rgb } = picture;
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.max(0, Math.min(255, Math.round(rgb[i] * factor + (next() - 0.5) * 2 * noise)));
  return picture;
}
