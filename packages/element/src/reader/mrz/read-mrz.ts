/**
 * Reads the machine-readable zone of a document picture (8-bit luma, row-major): finds its rows
 * among the picture's text, reads each character against the OCR-B and plain monospace
 * templates, and parses the lines with their check digits. Null when no zone is found. Pure and
 * synchronous: the reader's worker calls it on each frame it keeps.
 */
import type { MrzReading } from '@onboarding-kit/contract';
import { blobs, halve, inkMask } from './components.js';
import { readCharacters } from './glyphs.js';
import { parseZone } from './parse-zone.js';
import { characterLike, type TextLine, textLines } from './text-lines.js';
import { zoneCandidates, zoneCells } from './zone.js';

/** Fewest blobs a zone row can show (TD1 rows hold 30 characters, some of them merged or faint). */
const MIN_ROW_BLOBS = 12;
/** Long edge from which the rows are searched at half size. */
const HALVE_FROM = 1000;

/**
 * The picture's text rows. A large picture is searched at half size, a quarter of the work; the
 * characters are still read from the full picture.
 */
function findTextLines(gray: Uint8Array, width: number, height: number): TextLine[] {
  const half = Math.max(width, height) >= HALVE_FROM ? halve(gray, width, height) : undefined;
  const small = half ?? { gray, width, height };
  const radius = Math.max(6, Math.round(Math.max(small.width, small.height) / 80));
  const mask = inkMask(small.gray, small.width, small.height, radius);
  const found = blobs(mask, small.width, small.height);
  const scale = half ? 2 : 1;
  const full = found.map((b) => ({ x0: b.x0 * scale, y0: b.y0 * scale, x1: b.x1 * scale, y1: b.y1 * scale, area: b.area * scale * scale }));
  return textLines(characterLike(full, height), MIN_ROW_BLOBS);
}

export function readMrz(gray: Uint8Array, width: number, height: number): MrzReading | null {
  if (gray.length !== width * height) throw new RangeError(`readMrz: ${gray.length} bytes for ${width}x${height} pixels`);
  const lines = findTextLines(gray, width, height);
  let best: { reading: MrzReading; rank: number } | undefined;
  for (const zone of zoneCandidates(lines)) {
    const { lines: text, score } = readCharacters(gray, width, height, zoneCells(zone));
    const reading = parseZone(text, zone.format);
    if (!reading) continue;
    // Check digits that hold weigh most; then how closely the characters matched.
    const rank = reading.checks.filter((c) => c.valid).length + score;
    if (!best || rank > best.rank) best = { reading, rank };
    if (reading.valid) break;
  }
  return best?.reading ?? null;
}
