/**
 * Whether a card fills the framing guide, is inside it but too far away, or is not there: edges
 * on a small grey copy of the guide plus its margin. A pure function on a GreyImage, applied to
 * the live preview and to a camera frame after the shot alike, with the shared fill bars
 * (image/capture-thresholds.ts DOCUMENT_FILL).
 *
 * Every distance is a fraction of the guide's size and every count a fraction of the lines
 * looked at, so the check reads the same at any copy size.
 */
import { DOCUMENT_FILL } from '../image/capture-thresholds.js';
import type { GreyImage } from '../image/quality.js';

export type CardFit = 'fits' | 'too-far' | 'none';

/**
 * The card check's geometry, as fractions of the guide's size or of the lines looked at.
 * An edge is a luma step of `edgeStep` across two pixels that runs across the side (its gradient
 * across the side larger than along it). A side is found where at least `sideSupport` of the
 * lines crossing it (the middle `lineSpan`, away from rounded corners) have such an edge within
 * ±`tilt` of the guide's size around one position: that window, with only half the lines needed,
 * is the tilt allowed (the test card passes turned 6°, not 10°). "Near" a side is from most of
 * the margin outside it to `near` inside it; one side may be found only within twice that, because
 * a coloured header (the test card's blue band has the table's luma) can hide a card's edge in
 * grey and show the header's lower edge instead. So a card down to about 80 % of the guide fits.
 */
const CARD_CHECK = {
  edgeStep: 20,
  lineSpan: 0.6,
  tilt: 0.02,
  sideSupport: 0.5,
  near: DOCUMENT_FILL.near,
  /**
   * A card smaller than the guide: its sides are looked for up to `farDepth` in, first on the
   * guide's lines (half of `farSupport`, as a small card crosses few of them), then checked on the
   * lines of the box they make (`farSupport`).
   */
  farSupport: 0.35,
  farDepth: 0.45,
  /** ...within a wider window: found from outside in, a turned card's side is met at its corner first. */
  farTilt: 0.04,
  /** The box found for a card too far away: ID-1's 1.586 within ±40 %, and at least 15 % of the guide across. */
  aspect: [1.586 / 1.4, 1.586 * 1.4],
  minSize: DOCUMENT_FILL.minSize,
  /**
   * Around a card too far away is the table: the copy outside the box found may have at most this
   * fraction of the box's edge density (the test card on the bare table: 0 to 0.02 up to 6° turned,
   * 0.1 at 10°). A card too close fails this (its own print is all around whatever inner box was
   * found: 0.18 to 0.48 from 1.1x to 1.4x the guide) and is told to place the document, not to come
   * closer. A busy table does too; "place the document" is still sound advice there.
   */
  surround: 0.08,
} as const;

type Side = 'left' | 'right' | 'top' | 'bottom';
const SIDES: readonly Side[] = ['left', 'right', 'top', 'bottom'];

/**
 * The margin around the guide in a copy, as a fraction of the guide's size on each side: one for
 * both axes (the live copy), or one per axis (a saved photo grown to the pipeline's minimum
 * resolution around its guide).
 */
export type GuideMargin = number | { x: number; y: number };

const marginOf = (margin: GuideMargin, axis: 'x' | 'y'): number => (typeof margin === 'number' ? margin : margin[axis]);

/** The guide inside the copy, in copy pixels (the copy is the guide plus `margin` of it on each side). */
export function guideBox(image: GreyImage, margin: GuideMargin): { x0: number; x1: number; y0: number; y1: number } {
  const mx = marginOf(margin, 'x');
  const my = marginOf(margin, 'y');
  return {
    x0: (image.width * mx) / (1 + 2 * mx),
    x1: (image.width * (1 + mx)) / (1 + 2 * mx),
    y0: (image.height * my) / (1 + 2 * my),
    y1: (image.height * (1 + my)) / (1 + 2 * my),
  };
}

/**
 * Edge maps as running counts, so "is there an edge within this window of this line" is one
 * subtraction: `vertical` marks steps across x (a left or right side), counted along each row;
 * `horizontal` marks steps across y (a top or bottom side), counted down each column.
 */
interface EdgeCounts {
  width: number;
  height: number;
  /** (width + 1) per row: vertical[y * (width + 1) + x] = vertical edges in row y before column x. */
  vertical: Uint16Array;
  /** (height + 1) per column: horizontal[x * (height + 1) + y] = horizontal edges in column x above row y. */
  horizontal: Uint16Array;
}

function edgeCounts(image: GreyImage): EdgeCounts {
  const { width, height, grey } = image;
  const vertical = new Uint16Array((width + 1) * height);
  const horizontal = new Uint16Array((height + 1) * width);
  const step = CARD_CHECK.edgeStep;
  for (let y = 0; y < height; y++) {
    let run = 0;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const gx = x > 0 && x < width - 1 ? Math.abs(grey[i + 1]! - grey[i - 1]!) : 0;
      const gy = y > 0 && y < height - 1 ? Math.abs(grey[i + width]! - grey[i - width]!) : 0;
      if (gx >= step && gx >= gy) run++;
      vertical[y * (width + 1) + x + 1] = run;
      if (gy >= step && gy > gx) horizontal[x * (height + 1) + y + 1] = 1;
    }
  }
  for (let x = 0; x < width; x++) {
    const base = x * (height + 1);
    for (let y = 1; y <= height; y++) horizontal[base + y]! += horizontal[base + y - 1]!;
  }
  return { width, height, vertical, horizontal };
}

/** A rectangle in copy pixels, edges included. */
interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * Fraction of the lines crossing `side` of `box` (the middle lineSpan of it) that have an edge
 * within ±window px of position `at` (a column for left/right, a row for top/bottom).
 */
function support(edges: EdgeCounts, side: Side, box: Box, at: number, window: number): number {
  const across = side === 'left' || side === 'right';
  const [from, to] = across ? [box.y0, box.y1] : [box.x0, box.x1];
  const trim = ((to - from) * (1 - CARD_CHECK.lineSpan)) / 2;
  const limit = across ? edges.height : edges.width;
  const first = Math.max(0, Math.round(from + trim));
  const last = Math.min(limit - 1, Math.round(to - trim));
  if (last < first) return 0;
  const size = across ? edges.width : edges.height;
  const lo = Math.max(0, Math.round(at - window));
  const hi = Math.min(size, Math.round(at + window) + 1);
  if (hi <= lo) return 0;
  const counts = across ? edges.vertical : edges.horizontal;
  const stride = size + 1;
  let hits = 0;
  for (let line = first; line <= last; line++) if (counts[line * stride + hi]! - counts[line * stride + lo]! > 0) hits++;
  return hits / (last - first + 1);
}

/** Edge pixels (either direction) per pixel inside `box`, and in the rest of the copy. */
function edgeDensities(edges: EdgeCounts, box: Box): { inside: number; outside: number } {
  const { width, height, vertical, horizontal } = edges;
  const x0 = Math.max(0, Math.round(box.x0));
  const x1 = Math.min(width, Math.round(box.x1));
  const y0 = Math.max(0, Math.round(box.y0));
  const y1 = Math.min(height, Math.round(box.y1));
  let all = 0;
  let inside = 0;
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    all += vertical[row + width]!;
    if (y >= y0 && y < y1) inside += vertical[row + x1]! - vertical[row + x0]!;
  }
  for (let x = 0; x < width; x++) {
    const column = x * (height + 1);
    all += horizontal[column + height]!;
    if (x >= x0 && x < x1) inside += horizontal[column + y1]! - horizontal[column + y0]!;
  }
  const area = Math.max(1, (x1 - x0) * (y1 - y0));
  const rest = Math.max(1, width * height - area);
  return { inside: inside / area, outside: (all - inside) / rest };
}

/** Inward direction and the guide's extent across a side. */
function sideGeometry(side: Side, box: Box): { edge: number; inward: 1 | -1; extent: number } {
  switch (side) {
    case 'left':
      return { edge: box.x0, inward: 1, extent: box.x1 - box.x0 };
    case 'right':
      return { edge: box.x1, inward: -1, extent: box.x1 - box.x0 };
    case 'top':
      return { edge: box.y0, inward: 1, extent: box.y1 - box.y0 };
    case 'bottom':
      return { edge: box.y1, inward: -1, extent: box.y1 - box.y0 };
  }
}

/**
 * The outermost position (px inward from the guide's side, negative = in the margin) between
 * `from` and `to` where the side's support reaches `needed`, or null.
 */
function outermostEdge(
  edges: EdgeCounts,
  side: Side,
  guide: Box,
  lines: Box,
  from: number,
  to: number,
  needed: number,
  tilt: number,
): number | null {
  const { edge, inward, extent } = sideGeometry(side, guide);
  const window = Math.max(1, tilt * extent);
  for (let d = Math.floor(from); d <= to; d++) {
    if (support(edges, side, lines, edge + inward * d, window) >= needed) return d;
  }
  return null;
}

/** Where a card sits against the guide: filling it, inside it but small, or not seen. */
export function cardFit(image: GreyImage, margin: GuideMargin): CardFit {
  const guide = guideBox(image, margin);
  const edges = edgeCounts(image);
  const marginPx = (side: Side) =>
    marginOf(margin, side === 'left' || side === 'right' ? 'x' : 'y') * sideGeometry(side, guide).extent * 0.8;
  // Near each side, counting the guide's middle lines.
  const near = SIDES.map((side) => {
    const extent = sideGeometry(side, guide).extent;
    return outermostEdge(edges, side, guide, guide, -marginPx(side), 2 * CARD_CHECK.near * extent, CARD_CHECK.sideSupport, CARD_CHECK.tilt);
  });
  const within = (d: number | null, side: Side, depth: number) => d !== null && d <= depth * sideGeometry(side, guide).extent;
  const close = SIDES.filter((side, i) => within(near[i]!, side, CARD_CHECK.near)).length;
  const loose = SIDES.filter((side, i) => within(near[i]!, side, 2 * CARD_CHECK.near)).length;
  if (close >= 3 && loose === 4) return 'fits';

  // A smaller card: the outermost edges inward of each side, then whether they make a card-shaped box
  // whose own sides hold (counted along the box's lines, not the guide's).
  const far = SIDES.map((side) => {
    const extent = sideGeometry(side, guide).extent;
    return outermostEdge(edges, side, guide, guide, 0, CARD_CHECK.farDepth * extent, CARD_CHECK.farSupport * 0.5, CARD_CHECK.farTilt);
  });
  if (far.some((d) => d === null)) return 'none';
  const [l, r, t, b] = far as number[];
  const box: Box = { x0: guide.x0 + l!, x1: guide.x1 - r!, y0: guide.y0 + t!, y1: guide.y1 - b! };
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  if (w < CARD_CHECK.minSize * (guide.x1 - guide.x0) || h < CARD_CHECK.minSize * (guide.y1 - guide.y0)) return 'none';
  const aspect = w / h;
  if (aspect < CARD_CHECK.aspect[0] || aspect > CARD_CHECK.aspect[1]) return 'none';
  // Found from outside in, the box meets a turned card at its corners only: each side's middle
  // is looked for up to two tilt windows further in.
  const held = SIDES.filter((side) => {
    const window = Math.max(1, CARD_CHECK.farTilt * sideGeometry(side, guide).extent);
    const { edge, inward } = sideGeometry(side, box);
    for (let d = 0; d <= 2 * window; d++) if (support(edges, side, box, edge + inward * d, window) >= CARD_CHECK.farSupport) return true;
    return false;
  }).length;
  if (held < 3) return 'none';
  const density = edgeDensities(edges, box);
  return density.outside <= CARD_CHECK.surround * density.inside ? 'too-far' : 'none';
}
