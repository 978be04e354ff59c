/**
 * Writes RGB pictures as Y4M (YUV4MPEG2, I420) for Chromium's
 * `--use-file-for-fake-video-capture`. Y4M rather than MJPEG because MJPEG is lossy and shifts
 * colours, and tests compare captured pixels with the source picture.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderCardPicture } from './card-picture.mjs';
import { renderDocumentPicture } from './document-pictures.mjs';
import { astronautPortrait } from './astronaut.mjs';
import { livenessSequence, SEQUENCE_FPS } from './liveness-sequences.mjs';

const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/**
 * RGB (or RGBA, alpha ignored) -> I420 with BT.601 limited ("studio") range, which is how
 * Chromium interprets the frames of the file capture device when it draws them.
 */
export function rgbToI420({ width, height, rgb: packed, rgba }) {
  if (width % 2 || height % 2) throw new RangeError('I420 needs even width and height');
  const rgb = packed ?? rgba;
  const step = packed ? 3 : 4;
  const ySize = width * height;
  const cSize = (width / 2) * (height / 2);
  const out = new Uint8Array(ySize + 2 * cSize);
  for (let i = 0, p = 0; i < ySize; i++, p += step) {
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
        const p = ((cy * 2 + dy) * width + cx * 2 + dx) * step;
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

const y4mHeader = (width, height, fps) => new TextEncoder().encode(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
const frameTag = new TextEncoder().encode('FRAME\n');

/** A whole Y4M file: header, then `frames` copies of the picture. */
export function encodeY4m(picture, frames = 1) {
  const header = y4mHeader(picture.width, picture.height, 25);
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

/**
 * The same for one of the liveness sequences (liveness-sequences.mjs), at its 15 fps, written a
 * frame at a time (a 4 s loop at 640x480 is 28 MB): `{ path, frames, bytes }`.
 */
export function writeLivenessY4m(name, options) {
  const sequence = livenessSequence(astronautPortrait(), name, options);
  const path = freshPath(name);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, y4mHeader(sequence.width, sequence.height, SEQUENCE_FPS));
    const planes = new Map();
    for (let i = 0; i < sequence.length; i++) {
      const frame = sequence.frame(i);
      if (!planes.has(frame)) planes.set(frame, rgbToI420(frame));
      writeSync(fd, frameTag);
      writeSync(fd, planes.get(frame));
    }
  } finally {
    closeSync(fd);
  }
  return { path, frames: sequence.length, bytes: statSync(path).size };
}

function writeY4m(name, picture) {
  const path = freshPath(name);
  writeFileSync(path, encodeY4m(picture));
  return path;
}

function freshPath(name) {
  const dir = mkdtempSync(join(tmpdir(), 'onboarding-kit-camera-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return join(dir, `${name}.y4m`);
}
