/**
 * Rows of character-sized blobs: chains of neighbours of similar height, each a pitch or so to
 * the right of the last and level with it (a tolerance that follows a slight rotation step by
 * step), with the straight lines their centres and heights follow.
 */
import type { Blob } from './components.js';

export interface TextLine {
  /** The row's blobs, left to right. */
  members: Blob[];
  /** The capitals' height (the tall members' median). */
  height: number;
  /** The row's slope angle, in radians. */
  angle: number;
  /** Centre height and capitals' height at `x`, from least-squares fits over the tall members. */
  centreAt: (x: number) => number;
  heightAt: (x: number) => number;
}

const cx = (b: Blob) => (b.x0 + b.x1) / 2;
const cy = (b: Blob) => (b.y0 + b.y1) / 2;
const h = (b: Blob) => b.y1 - b.y0;

/** Blobs that could be characters: not specks, not the photo, the QR code or a long rule. */
export function characterLike(all: Blob[], pictureHeight: number): Blob[] {
  const maxHeight = pictureHeight / 6;
  return all.filter((b) => {
    const height = h(b);
    const width = b.x1 - b.x0;
    return height >= 6 && height <= maxHeight && width <= 3.5 * height && b.area >= 6;
  });
}

/** The nearest blob to the right of `from` that can follow it in a row whose tallest member is `tall`. */
function nextInRow(sorted: Blob[], start: number, from: Blob, tall: number, used: Uint8Array): number {
  let best = -1;
  let bestDx = Number.POSITIVE_INFINITY;
  for (let j = start; j < sorted.length; j++) {
    const b = sorted[j]!;
    const dx = cx(b) - cx(from);
    const scale = Math.max(tall, h(b));
    if (dx > 2.2 * scale) break;
    if (used[j] || dx <= 0) continue;
    const ratio = Math.max(tall, h(b)) / Math.min(tall, h(b));
    if (ratio > 2.6 || Math.abs(cy(b) - cy(from)) > 0.4 * scale) continue;
    if (dx < bestDx) {
      bestDx = dx;
      best = j;
    }
  }
  return best;
}

function fit(points: [number, number][]): (x: number) => number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  return (x) => my + slope * (x - mx);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function describe(members: Blob[]): TextLine {
  const heights = members.map(h).sort((a, b) => a - b);
  const reference = heights[Math.floor(heights.length * 0.8)]!;
  const tall = members.filter((b) => h(b) >= 0.75 * reference && h(b) <= 1.25 * reference);
  const centreAt = fit(tall.map((b) => [cx(b), cy(b)]));
  const heightAt = fit(tall.map((b) => [cx(b), h(b)]));
  const x0 = cx(members[0]!);
  const x1 = cx(members[members.length - 1]!);
  return {
    members,
    height: median(tall.map(h)),
    angle: Math.atan2(centreAt(x1) - centreAt(x0), x1 - x0),
    centreAt,
    heightAt,
  };
}

/** Rows of at least `minMembers` blobs. */
export function textLines(candidates: Blob[], minMembers: number): TextLine[] {
  const sorted = [...candidates].sort((a, b) => cx(a) - cx(b));
  const used = new Uint8Array(sorted.length);
  const lines: TextLine[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (used[i]) continue;
    const chain = [i];
    used[i] = 1;
    let tall = h(sorted[i]!);
    for (let at = i; ; ) {
      const next = nextInRow(sorted, at + 1, sorted[at]!, tall, used);
      if (next < 0) break;
      chain.push(next);
      used[next] = 1;
      tall = Math.max(tall, h(sorted[next]!));
      at = next;
    }
    if (chain.length >= minMembers) lines.push(describe(chain.map((j) => sorted[j]!)));
    else for (const j of chain.slice(1)) used[j] = 0;
  }
  return lines;
}

export { cx as blobCentreX, median };
