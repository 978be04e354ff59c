/**
 * Recognises one character cell: the cell is sampled from the picture along its row (so a
 * rotated row reads like a level one), scaled to the template size, and compared by normalised
 * correlation with every template of both fonts, a template pixel either way, keeping the best.
 */
import { base64ToBytes } from '@onboarding-kit/contract';
import { TEMPLATE_CHARS, TEMPLATE_DATA, TEMPLATE_HEIGHT, TEMPLATE_MARGIN, TEMPLATE_WIDTH } from './templates.js';
import type { Cell } from './zone.js';

const FONT_NAMES = Object.keys(TEMPLATE_DATA) as (keyof typeof TEMPLATE_DATA)[];
const SIZE = TEMPLATE_WIDTH * TEMPLATE_HEIGHT;
/** Template pixels tried either way. */
const SLACK = 1;
const PATCH_WIDTH = TEMPLATE_WIDTH + 2 * SLACK;
const PATCH_HEIGHT = TEMPLATE_HEIGHT + 2 * SLACK;

/** Scales `values` in place to zero mean and unit length; false when they are flat. */
function normalise(values: Float32Array): boolean {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    values[i]! -= mean;
    norm += values[i]! * values[i]!;
  }
  if (norm < 1e-6) return false;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < values.length; i++) values[i]! *= scale;
  return true;
}

let decoded: Float32Array | undefined;
/** Every template, fonts one after the other, each normalised, end to end in one array. */
function templates(): Float32Array {
  if (decoded) return decoded;
  const all = new Float32Array(FONT_NAMES.length * TEMPLATE_CHARS.length * SIZE);
  FONT_NAMES.forEach((name, f) => {
    const bytes = base64ToBytes(TEMPLATE_DATA[name]);
    for (let index = 0; index < TEMPLATE_CHARS.length; index++) {
      const t = all.subarray((f * TEMPLATE_CHARS.length + index) * SIZE, (f * TEMPLATE_CHARS.length + index + 1) * SIZE);
      for (let i = 0; i < SIZE; i++) {
        const p = index * SIZE + i;
        t[i] = p & 1 ? bytes[p >> 1]! & 15 : bytes[p >> 1]! >> 4;
      }
      normalise(t);
    }
  });
  decoded = all;
  return all;
}

/** The cell's ink (dark high), at the template's scale plus the slack, four samples a pixel. */
function samplePatch(gray: Uint8Array, width: number, height: number, cell: Cell): Float32Array {
  const patch = new Float32Array(PATCH_WIDTH * PATCH_HEIGHT);
  const cellHeight = cell.height * (1 + 2 * TEMPLATE_MARGIN);
  const stepU = cell.pitch / TEMPLATE_WIDTH;
  const stepV = cellHeight / TEMPLATE_HEIGHT;
  const vx = -cell.uy;
  const vy = cell.ux;
  const at = (x: number, y: number) => {
    const ix = Math.min(width - 2, Math.max(0, Math.floor(x)));
    const iy = Math.min(height - 2, Math.max(0, Math.floor(y)));
    const fx = Math.min(1, Math.max(0, x - ix));
    const fy = Math.min(1, Math.max(0, y - iy));
    const p = iy * width + ix;
    return (gray[p]! * (1 - fx) + gray[p + 1]! * fx) * (1 - fy) + (gray[p + width]! * (1 - fx) + gray[p + width + 1]! * fx) * fy;
  };
  for (let py = 0; py < PATCH_HEIGHT; py++) {
    for (let px = 0; px < PATCH_WIDTH; px++) {
      let sum = 0;
      for (const [sx, sy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const u = (px - SLACK + sx - TEMPLATE_WIDTH / 2) * stepU;
        const v = (py - SLACK + sy - TEMPLATE_HEIGHT / 2) * stepV;
        sum += at(cell.x + u * cell.ux + v * vx - 0.5, cell.y + u * cell.uy + v * vy - 0.5);
      }
      patch[py * PATCH_WIDTH + px] = 255 - sum / 4;
    }
  }
  return patch;
}

/** Each template's best correlation with the cell (fonts one after the other, TEMPLATE_CHARS order); only `fonts` are tried. */
function cellScores(gray: Uint8Array, width: number, height: number, cell: Cell, fonts: readonly number[]): Float32Array {
  const all = templates();
  const perFont = TEMPLATE_CHARS.length;
  const scores = new Float32Array(all.length / SIZE).fill(-1);
  const patch = samplePatch(gray, width, height, cell);
  const window = new Float32Array(SIZE);
  for (let oy = 0; oy <= 2 * SLACK; oy++) {
    for (let ox = 0; ox <= 2 * SLACK; ox++) {
      for (let y = 0; y < TEMPLATE_HEIGHT; y++) {
        for (let x = 0; x < TEMPLATE_WIDTH; x++) window[y * TEMPLATE_WIDTH + x] = patch[(y + oy) * PATCH_WIDTH + x + ox]!;
      }
      if (!normalise(window)) continue;
      for (const font of fonts) {
        for (let i = font * perFont, base = i * SIZE; i < (font + 1) * perFont; i++, base += SIZE) {
          let dot = 0;
          for (let k = 0; k < SIZE; k++) dot += all[base + k]! * window[k]!;
          if (dot > scores[i]!) scores[i] = dot;
        }
      }
    }
  }
  return scores;
}

export interface ReadCharacters {
  lines: string[];
  /** The mean correlation of the characters chosen. */
  score: number;
}

/**
 * The characters of every cell in the font that fits the zone best: a zone is printed in one
 * font, and deciding it once (on the first row, against every font) keeps one font's shapes from
 * standing in for another's and halves the work on the other rows.
 */
export function readCharacters(gray: Uint8Array, width: number, height: number, rows: Cell[][]): ReadCharacters {
  const count = TEMPLATE_CHARS.length;
  const bestIn = (scores: Float32Array, font: number) => {
    let best = font * count;
    for (let i = font * count; i < (font + 1) * count; i++) if (scores[i]! > scores[best]!) best = i;
    return best;
  };
  const everyFont = FONT_NAMES.map((_, f) => f);
  const firstRow = rows[0]!.map((cell) => cellScores(gray, width, height, cell, everyFont));
  const totals = everyFont.map((f) => firstRow.reduce((s, scores) => s + scores[bestIn(scores, f)]!, 0));
  const font = totals.indexOf(Math.max(...totals));
  const scored = [firstRow, ...rows.slice(1).map((row) => row.map((cell) => cellScores(gray, width, height, cell, [font])))];
  let total = 0;
  const lines = scored.map((row) =>
    row
      .map((scores) => {
        const best = bestIn(scores, font);
        total += scores[best]!;
        return TEMPLATE_CHARS[best - font * count];
      })
      .join(''),
  );
  return { lines, score: total / scored.flat().length };
}
