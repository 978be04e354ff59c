/**
 * Writes RGB pictures as Y4M (YUV4MPEG2, I420) for Chromium's
 * `--use-file-for-fake-video-capture`. Y4M rather than MJPEG because MJPEG is lossy and shifts
 * colours, and tests compare captured pixels with the source picture.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderCardPicture } from './card-picture.mjs';
import { renderDocumentPicture } from './document-pictures.mjs';

const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/**
 * RGB -> I420 with BT.601 limited ("studio") range, which is how Chromium interprets the
 * frames of the file capture device when it draws them.
 */
export function rgbToI420({ width, height, rgb }) {
  if (width % 2 || height % 2) throw new RangeError('I420 needs even width and height');
  const ySize = width * height;
  const cSize = (width / 2) * (height / 2);
  const out = new Uint8Array(ySize + 2 * cSize);
  for (let i = 0, p = 0; i < ySize; i++, p += 3) {
    out[i] = clamp(16 + (65.481 * rgb[p] + 128.553 * rgb[p + 1] + 24.966 * rgb[p + 2]) / 255);
  }
  const cw = width / 2;
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      let r = 0,
        g = 0,
        b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]) {
        const p = ((cy * 2 + dy) * width + cx * 2 + dx) * 3;
        r += rgb[p];
        g += rgb[p + 1];
        b += rgb[p + 2];
      }
      r /= 4;
      g /= 4;
      b /= 4;
      out[ySize + cy * cw + cx] = clamp(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      out[ySize + cSize + cy * cw + cx] = clamp(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return out;
}

/** A whole Y4M file: header, then `frames` copies of the picture. */
export function encodeY4m(picture, frames = 1) {
  const header = new TextEncoder().encode(`YUV4MPEG2 W${picture.width} H${picture.height} F25:1 Ip A1:1 C420jpeg\n`);
  const frameTag = new TextEncoder().encode('FRAME\n');
  const planes = rgbToI420(picture);
  const out = new Uint8Array(header.length + frames * (frameTag.length + planes.length));
  out.set(header, 0);
  let o = header.length;
  for (let f = 0; f < frames; f++) {
    out.set(frameTag, o);
    o += frameTag.length;
    out.set(planes, o);
    o += planes.length;
  }
  return out;
}

/**
 * Writes the card picture to a fresh directory under os.tmpdir() (unique per run, removed at
 * process exit) and returns the absolute path of the .y4m file.
 */
export function writeCardY4m() {
  return writeY4m('card', renderCardPicture());
}

/** The same for one of the document pictures (document-pictures.mjs), by its id. */
export function writeDocumentY4m(id) {
  return writeY4m(id, renderDocumentPicture(id));
}

function writeY4m(name, picture) {
  const dir = mkdtempSync(join(tmpdir(), 'onboarding-kit-camera-'));
  const path = join(dir, `${name}.y4m`);
  writeFileSync(path, encodeY4m(picture));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return path;
}
