import type { LivenessSequenceName, SequenceOptions } from './liveness-sequences.mjs';

export type RgbPicture = { width: number; height: number } & ({ rgb: Uint8Array } | { rgba: Uint8Array | Uint8ClampedArray });
export declare function rgbToI420(picture: RgbPicture): Uint8Array;
export declare function encodeY4m(picture: RgbPicture, frames?: number): Uint8Array;
/** Absolute path of a fresh .y4m of the card picture (removed at process exit). */
export declare function writeCardY4m(): string;
/** Absolute path of a fresh .y4m of one document picture, by its id (removed at process exit). */
export declare function writeDocumentY4m(id: string): string;
/**
 * A fresh .y4m of one liveness sequence at its 15 fps (removed at process exit): its path, its
 * frame count and its size in bytes.
 */
export declare function writeLivenessY4m(
  name: LivenessSequenceName,
  options?: SequenceOptions,
): { path: string; frames: number; bytes: number };
