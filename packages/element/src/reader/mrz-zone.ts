/**
 * The reader's one door to the MRZ engine (mrz/, document-kind.ts): the zone read from a frame's
 * grey levels, and the document kind a zone points to. Until the engine is part of the element,
 * nothing is read and nothing is claimed.
 */
import type { MrzReading, ReadDocumentKind } from '@onboarding-kit/contract';

export function readZone(_grey: Uint8Array, _width: number, _height: number): MrzReading | undefined {
  return undefined;
}

export function zoneKind(_mrz: MrzReading): ReadDocumentKind | undefined {
  return undefined;
}
