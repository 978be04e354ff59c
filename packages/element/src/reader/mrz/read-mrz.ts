/**
 * Reads the machine-readable zone of a document picture (8-bit luma, row-major): finds its rows
 * among the picture's text, reads each character against the OCR-B and plain monospace
 * templates, and parses the lines with their check digits. Null when no zone is found. Pure and
 * synchronous: the reader's worker calls it on each frame it keeps.
 */
import type { MrzReading } from '@onboarding-kit/contract';
import { blobs, inkMask } from './components.js';
import { readCharacters } from './glyphs.js';
import { parseZone } from './parse-zone.js';
import { characterLike, textLines } from './text-lines.js';
import { zoneCandidates, zoneCells } from './zone.js';

/** Fewest blobs a zone row can show (TD1 rows hold 30 characters, some of them merged or faint). */
const MIN_ROW_BLOBS = 12;

export function readMrz(gray: Uint8Array, width: number, height: number): MrzReading | null {
  if (gray.length !== width * height) throw new RangeError(`readMrz: ${gray.length} bytes for ${width}x${height} pixels`);
  const radius = Math.max(8, Math.round(Math.max(width, height) / 80));
  const mask = inkMask(gray, width, height, radius);
  const lines = textLines(characterLike(blobs(mask, width, height), height), MIN_ROW_BLOBS);
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
