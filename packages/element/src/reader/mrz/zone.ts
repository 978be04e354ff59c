/**
 * The machine-readable zone among a picture's text rows: two or three rows, one above the other
 * at an even spacing of about one and a half capitals, of about the same slope, height and start,
 * long enough for 30 (TD1), 36 (TD2) or 44 (TD3) characters. Then where each character's cell
 * lies: a walk along each row one pitch at a time, pulled onto the blob found there, which follows
 * the pitch as it changes under perspective.
 */
import type { MrzFormat } from '@onboarding-kit/contract';
import { blobCentreX, median, type TextLine } from './text-lines.js';

export interface Cell {
  x: number;
  y: number;
  /** Unit vector along the row. */
  ux: number;
  uy: number;
  pitch: number;
  height: number;
}

export interface ZoneCandidate {
  format: MrzFormat;
  lines: TextLine[];
}

const LINE_LENGTHS: Record<MrzFormat, number> = { TD1: 30, TD2: 36, TD3: 44 };

const start = (line: TextLine) => line.members[0]!.x0;
const end = (line: TextLine) => line.members[line.members.length - 1]!.x1;

/** Whether `below` can be the zone's next row after `above`, and the spacing between them. */
function spacing(above: TextLine, below: TextLine): number | undefined {
  const height = Math.min(above.height, below.height);
  if (Math.max(above.height, below.height) / height > 1.3) return undefined;
  if (Math.abs(above.angle - below.angle) > 0.035) return undefined;
  if (Math.abs(start(above) - start(below)) > 2 * height) return undefined;
  const overlap = Math.min(end(above), end(below)) - Math.max(start(above), start(below));
  if (overlap < 0.7 * Math.max(end(above) - start(above), end(below) - start(below))) return undefined;
  const x = (Math.max(start(above), start(below)) + Math.min(end(above), end(below))) / 2;
  const gap = below.centreAt(x) - above.centreAt(x);
  return gap >= 1.15 * height && gap <= 2.3 * height ? gap : undefined;
}

/** Characters a row spans, from its blobs' usual spacing. */
function characterCount(line: TextLine): number {
  const xs = line.members.map(blobCentreX);
  const steps = xs.slice(1).map((x, i) => x - xs[i]!);
  const typical = median(steps);
  const pitch = median(steps.filter((s) => s > 0.6 * typical && s < 1.4 * typical));
  return Math.round((xs[xs.length - 1]! - xs[0]!) / pitch) + 1;
}

function twoLineFormat(lines: TextLine[]): MrzFormat | undefined {
  const count = Math.max(...lines.map(characterCount));
  if (count >= 32 && count <= 39) return 'TD2';
  if (count >= 40 && count <= 50) return 'TD3';
  return undefined;
}

/** Candidate zones, three-row ones first. */
export function zoneCandidates(lines: TextLine[]): ZoneCandidate[] {
  const byHeight = [...lines].sort((a, b) => a.centreAt(start(a)) - b.centreAt(start(b)));
  const triples: ZoneCandidate[] = [];
  const pairs: ZoneCandidate[] = [];
  byHeight.forEach((a, i) => {
    byHeight.slice(i + 1).forEach((b, j) => {
      const ab = spacing(a, b);
      if (ab === undefined) return;
      const format = twoLineFormat([a, b]);
      if (format) pairs.push({ format, lines: [a, b] });
      for (const c of byHeight.slice(i + j + 2)) {
        const bc = spacing(b, c);
        if (bc === undefined || Math.abs(ab - bc) > 0.25 * ab) continue;
        const count = Math.max(characterCount(a), characterCount(b), characterCount(c));
        if (count >= 24 && count <= 36) triples.push({ format: 'TD1', lines: [a, b, c] });
      }
    });
  });
  return [...triples, ...pairs];
}

/** The cells of every row of a zone, `length` each. */
export function zoneCells(zone: ZoneCandidate): Cell[][] {
  const length = LINE_LENGTHS[zone.format];
  const angle = zone.lines.reduce((s, l) => s + l.angle, 0) / zone.lines.length;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Along the zone's direction, its first and last characters line up across rows.
  const along = (x: number, line: TextLine) => x * cos + line.centreAt(x) * sin;
  const first = Math.min(...zone.lines.map((l) => along(blobCentreX(l.members[0]!), l)));
  const last = Math.max(...zone.lines.map((l) => along(blobCentreX(l.members[l.members.length - 1]!), l)));
  const pitch = (last - first) / (length - 1);
  return zone.lines.map((line) => walkRow(line, { first, pitch, length, cos, sin }));
}

interface Walk {
  first: number;
  pitch: number;
  length: number;
  cos: number;
  sin: number;
}

/** One row's cells, each pulled onto a blob of about one character's width where there is one. */
function walkRow(line: TextLine, { first, pitch, length, cos, sin }: Walk): Cell[] {
  // The centre line is straight (y = a + b x): a position along the zone's direction gives its x.
  const a = line.centreAt(0);
  const b = line.centreAt(1) - a;
  const xOf = (u: number) => (u - a * sin) / (cos + b * sin);
  const members = line.members.map((blob) => {
    const x = blobCentreX(blob);
    return { u: x * cos + line.centreAt(x) * sin, width: blob.x1 - blob.x0 };
  });
  const cells: Cell[] = [];
  const ux = Math.cos(line.angle);
  const uy = Math.sin(line.angle);
  let u = first;
  let previous: number | undefined;
  let local = pitch;
  for (let k = 0; k < length; k++) {
    const snapped = members.find((m) => Math.abs(m.u - u) < 0.35 * local && m.width < 1.3 * local);
    if (snapped) {
      if (previous !== undefined) local = 0.7 * local + 0.3 * Math.min(1.25 * pitch, Math.max(0.8 * pitch, snapped.u - previous));
      u = snapped.u;
    }
    const x = xOf(u);
    cells.push({ x, y: line.centreAt(x), ux, uy, pitch: local, height: line.heightAt(x) });
    previous = u;
    u += local;
  }
  return cells;
}
