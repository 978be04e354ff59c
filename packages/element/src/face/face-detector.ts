/**
 * The selfie's face check, loaded lazily on the selfie step (load-face.ts): a classical LBP
 * cascade (OpenCV's frontal face model, a few KB) run over a small grey copy, so it needs no
 * WebGL, WASM or network and runs the same in a worker or on the page.
 *
 * Detection follows OpenCV's `detectMultiScale` for LBP cascades: the grey image is shrunk by
 * steps of 10 %, the 45 px window slides over each size (every 2nd position until the image is
 * halved, then every position), each window runs the boosted stages over multi-block LBP codes
 * read from an integral image, and the windows that pass every stage are grouped into faces.
 */

import { FACE, faceProblem } from '../image/capture-thresholds.js';
import type { GreyImage } from '../image/quality.js';
import { greyCopy } from '../image/quality.js';
import { FRONTAL_FACE, type LbpCascade } from './frontal-face-cascade.js';

export type { GreyImage } from '../image/quality.js';

/** A detected face, in pixels of the image it was found in. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** How many overlapping windows agreed on this face (more is surer; at least MIN_NEIGHBOURS + 1). */
  score: number;
}

export type SelfieVerdict = 'ok' | 'no-face' | 'several-faces' | 'face-too-small' | 'face-off-center';

/** What the face check says about one selfie; face boxes are in pixels of the `width` x `height` grey copy it was judged on. */
export interface SelfieJudgement {
  verdict: SelfieVerdict;
  faces: FaceBox[];
  width: number;
  height: number;
}

/**
 * The long edge of the grey copy a selfie is judged on, live and after the shot (the shared
 * FACE.longEdge): the smallest face found is 45 px of it.
 */
export const FACE_LONG_EDGE = FACE.longEdge;
/** Each pyramid level is this much smaller than the last (OpenCV's usual 1.1). */
const SCALE_STEP = 1.1;
/** Windows needed to agree before a face counts (OpenCV's default 3: fewer finds texture). */
const MIN_NEIGHBOURS = 3;
/** How far (as a share of their size) two windows may differ and still be one face. */
const GROUP_EPS = 0.2;
/**
 * Slack on every stage threshold, as OpenCV applies when it loads a cascade: the last stage's
 * threshold is exactly the sum of its two best leaves, so without it no window would pass.
 */
const THRESHOLD_EPS = 1e-5;
/** The smallest face accepted, as a share of the picture's short side (the shared FACE.minWidth). */
export const MIN_FACE_WIDTH = FACE.minWidth;
/** How far the face's centre may stray from the oval's, as a share of its half-axes (FACE.maxCentreOffset). */
export const MAX_CENTRE_OFFSET = FACE.maxCentreOffset;

/** Each feature's 4 x 4 grid corners as integral-image offsets from the window's corner, for one row stride. */
function featureOffsets(cascade: LbpCascade, stride: number): Int32Array {
  const count = cascade.features.length / 4;
  const offsets = new Int32Array(count * 16);
  for (let f = 0; f < count; f++) {
    const [x, y, w, h] = cascade.features.slice(f * 4, f * 4 + 4) as [number, number, number, number];
    for (let row = 0; row < 4; row++) {
      for (let col = 0; col < 4; col++) offsets[f * 16 + row * 4 + col] = (y + row * h) * stride + x + col * w;
    }
  }
  return offsets;
}

/** Summed-area table with a zero first row and column: sum of [x0, x1) x [y0, y1) is four reads. */
function integralImage(grey: Uint8Array, width: number, height: number): Int32Array {
  const stride = width + 1;
  const table = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    for (let x = 0; x < width; x++) {
      rowSum += grey[y * width + x]!;
      table[(y + 1) * stride + x + 1] = table[y * stride + x + 1]! + rowSum;
    }
  }
  return table;
}

/** Bilinear resample to width x height, rounded to whole grey levels as the cascade was trained on. */
function resize(image: GreyImage, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  const { grey } = image;
  for (let y = 0; y < height; y++) {
    const fy = Math.max(0, (y + 0.5) * sy - 0.5);
    const y0 = Math.min(image.height - 1, Math.floor(fy));
    const y1 = Math.min(image.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.max(0, (x + 0.5) * sx - 0.5);
      const x0 = Math.min(image.width - 1, Math.floor(fx));
      const x1 = Math.min(image.width - 1, x0 + 1);
      const wx = fx - x0;
      const top = grey[y0 * image.width + x0]! * (1 - wx) + grey[y0 * image.width + x1]! * wx;
      const bottom = grey[y1 * image.width + x0]! * (1 - wx) + grey[y1 * image.width + x1]! * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return out;
}

/**
 * Runs the cascade on the window whose top-left corner is at integral offset `origin`: 1 when
 * every stage passes, otherwise minus the index of the stage that rejected it (0: the first).
 * Each weak classifier reads one multi-block LBP code: the 8 outer blocks of a 3 x 3 grid each
 * set a bit when their sum is at least the centre block's, clockwise from the top-left (bit 7).
 * Written out flat because it runs for every window: a helper call per block was 3 times slower.
 */
function evaluate(cascade: LbpCascade, o: Int32Array, t: Int32Array, origin: number): number {
  const { stages, weak } = cascade;
  let w = 0;
  for (let s = 0; s < stages.length; s += 2) {
    const count = stages[s]!;
    let sum = 0;
    for (let k = 0; k < count; k++, w += 11) {
      const f = weak[w]! * 16;
      const p0 = t[origin + o[f]!]!,
        p1 = t[origin + o[f + 1]!]!,
        p2 = t[origin + o[f + 2]!]!,
        p3 = t[origin + o[f + 3]!]!;
      const p4 = t[origin + o[f + 4]!]!,
        p5 = t[origin + o[f + 5]!]!,
        p6 = t[origin + o[f + 6]!]!,
        p7 = t[origin + o[f + 7]!]!;
      const p8 = t[origin + o[f + 8]!]!,
        p9 = t[origin + o[f + 9]!]!,
        p10 = t[origin + o[f + 10]!]!,
        p11 = t[origin + o[f + 11]!]!;
      const p12 = t[origin + o[f + 12]!]!,
        p13 = t[origin + o[f + 13]!]!,
        p14 = t[origin + o[f + 14]!]!,
        p15 = t[origin + o[f + 15]!]!;
      const centre = p5 - p6 - p9 + p10;
      const code =
        (p0 - p1 - p4 + p5 >= centre ? 128 : 0) |
        (p1 - p2 - p5 + p6 >= centre ? 64 : 0) |
        (p2 - p3 - p6 + p7 >= centre ? 32 : 0) |
        (p6 - p7 - p10 + p11 >= centre ? 16 : 0) |
        (p10 - p11 - p14 + p15 >= centre ? 8 : 0) |
        (p9 - p10 - p13 + p14 >= centre ? 4 : 0) |
        (p8 - p9 - p12 + p13 >= centre ? 2 : 0) |
        (p4 - p5 - p8 + p9 >= centre ? 1 : 0);
      sum += weak[w + 1 + (code >> 5)]! & (1 << (code & 31)) ? weak[w + 9]! : weak[w + 10]!;
    }
    if (sum < stages[s + 1]! - THRESHOLD_EPS) return -s / 2;
  }
  return 1;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The windows the cascade accepts (largest pyramid level first), in pixels of `image`. */
function candidateWindows(image: GreyImage, cascade: LbpCascade, maxFactor = Infinity): Rect[] {
  const found: Rect[] = [];
  for (let factor = 1; factor <= maxFactor; factor *= SCALE_STEP) {
    const width = Math.round(image.width / factor);
    const height = Math.round(image.height / factor);
    if (width < cascade.width || height < cascade.height) break;
    const table = integralImage(resize(image, width, height), width, height);
    const offsets = featureOffsets(cascade, width + 1);
    const step = factor > 2 ? 1 : 2;
    const size = { width: Math.round(cascade.width * factor), height: Math.round(cascade.height * factor) };
    for (let y = 0; y <= height - cascade.height; y += step) {
      for (let x = 0; x <= width - cascade.width; x += step) {
        const result = evaluate(cascade, offsets, table, y * (width + 1) + x);
        if (result === 1) found.push({ x: Math.round(x * factor), y: Math.round(y * factor), ...size });
        // Rejected by the very first stage: the next window, one step over, nearly always is too.
        else if (result === 0) x += step;
      }
    }
  }
  return found;
}

function similar(a: Rect, b: Rect): boolean {
  const delta = (GROUP_EPS * (Math.min(a.width, b.width) + Math.min(a.height, b.height))) / 2;
  return (
    Math.abs(a.x - b.x) <= delta &&
    Math.abs(a.y - b.y) <= delta &&
    Math.abs(a.x + a.width - b.x - b.width) <= delta &&
    Math.abs(a.y + a.height - b.y - b.height) <= delta
  );
}

/**
 * OpenCV's `groupRectangles`: windows that overlap closely form one face (their mean), a face
 * needs more than MIN_NEIGHBOURS windows, and a weak face inside a stronger one is dropped.
 */
function groupWindows(windows: Rect[]): FaceBox[] {
  const parent = windows.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let i = 0; i < windows.length; i++) {
    for (let j = i + 1; j < windows.length; j++) if (similar(windows[i]!, windows[j]!)) parent[root(i)] = root(j);
  }
  const clusters = new Map<number, { x: number; y: number; width: number; height: number; score: number }>();
  windows.forEach((r, i) => {
    const c = clusters.get(root(i)) ?? { x: 0, y: 0, width: 0, height: 0, score: 0 };
    c.x += r.x;
    c.y += r.y;
    c.width += r.width;
    c.height += r.height;
    c.score++;
    clusters.set(root(i), c);
  });
  const faces = [...clusters.values()]
    .map((c) => ({
      x: Math.round(c.x / c.score),
      y: Math.round(c.y / c.score),
      width: Math.round(c.width / c.score),
      height: Math.round(c.height / c.score),
      score: c.score,
    }))
    .filter((face) => face.score > MIN_NEIGHBOURS);
  const inside = (a: FaceBox, b: FaceBox) => {
    const dx = Math.round(b.width * GROUP_EPS);
    const dy = Math.round(b.height * GROUP_EPS);
    return a.x >= b.x - dx && a.y >= b.y - dy && a.x + a.width <= b.x + b.width + dx && a.y + a.height <= b.y + b.height + dy;
  };
  return faces.filter((a) => !faces.some((b) => b !== a && inside(a, b) && (b.score > Math.max(3, a.score) || a.score < 3)));
}

const facesOf = (windows: Rect[]) => groupWindows(windows).sort((a, b) => b.width - a.width);

/** Every frontal face in `image` at least 45 px wide, largest first. */
export function detectFaces(image: GreyImage): FaceBox[] {
  return facesOf(candidateWindows(image, FRONTAL_FACE));
}

/**
 * Judges a selfie: exactly one face, large enough, centred inside the oval. The oval is the
 * ellipse inscribed in the image (the camera view crops the selfie to the oval's box plus a
 * small margin; a file is judged the same way).
 */
export function judgeSelfie(image: GreyImage): { verdict: SelfieVerdict; faces: FaceBox[] } {
  const faces = detectFaces(image);
  return { verdict: verdictOf(image, faces), faces };
}

/** The rules of judgeSelfie on faces already found in `image`: the shared ones. */
function verdictOf(image: GreyImage, faces: FaceBox[]): SelfieVerdict {
  return faceProblem(faces, image.width, image.height) ?? 'ok';
}

type Source = CanvasImageSource & { width: number; height: number };

/**
 * Where to look closer for a face too small for the FACE_LONG_EDGE copy: the middle of a copy
 * FACE.closerLook times larger (never above the source's own size), and the factor `k` between
 * the two copies; null when the source has no more pixels to give.
 */
function closerLook(source: Source, image: GreyImage): { centre: GreyImage; x0: number; y0: number; k: number } | null {
  const big = greyCopy(source, FACE.longEdge * FACE.closerLook);
  const k = big.width / image.width;
  if (k < 1.2) return null;
  const w = Math.round(big.width * FACE.closerArea);
  const h = Math.round(big.height * FACE.closerArea);
  const x0 = Math.round((big.width - w) / 2);
  const y0 = Math.round((big.height - h) / 2);
  const grey = new Float32Array(w * h);
  for (let y = 0; y < h; y++) grey.set(big.grey.subarray((y + y0) * big.width + x0, (y + y0) * big.width + x0 + w), y * w);
  return { centre: { width: w, height: h, grey }, x0, y0, k };
}

/** Faces found in the closer look, in pixels of the FACE_LONG_EDGE copy. */
const backToCopy = (faces: FaceBox[], look: { x0: number; y0: number; k: number }): FaceBox[] =>
  faces.map((f) => ({
    x: (f.x + look.x0) / look.k,
    y: (f.y + look.y0) / look.k,
    width: f.width / look.k,
    height: f.height / look.k,
    score: f.score,
  }));

/**
 * Judges a decoded selfie (an ImageBitmap, a canvas, an image) on its FACE_LONG_EDGE grey copy;
 * face boxes are in that copy's pixels. Where that copy shows no face, the middle of the picture
 * is looked at closer, for faces smaller than the copy's smallest (only those sizes, so the look
 * costs about one more detection): a small face is then told to come closer rather than that
 * there is none.
 */
export function judgeSelfieSource(source: Source): SelfieJudgement {
  const image = greyCopy(source, FACE_LONG_EDGE);
  let faces = detectFaces(image);
  const look = faces.length === 0 ? closerLook(source, image) : null;
  if (look) faces = backToCopy(facesOf(candidateWindows(look.centre, FRONTAL_FACE, look.k)), look);
  return { verdict: verdictOf(image, faces), faces, width: image.width, height: image.height };
}
