/**
 * The reader's one door to the MRZ engine (mrz/, document-kind.ts): the zone read from a frame's
 * grey levels, and the document kind a zone points to.
 */
import type { MrzReading, ReadDocumentKind } from '@onboarding-kit/contract';
import { documentKindOfMrz } from './document-kind.js';
import { readMrz } from './mrz/index.js';

export function readZone(grey: Uint8Array, width: number, height: number): MrzReading | undefined {
  return readMrz(grey, width, height) ?? undefined;
}

export function zoneKind(mrz: MrzReading): ReadDocumentKind | undefined {
  return documentKindOfMrz(mrz);
}
