export type LivenessSequenceName = 'still' | 'turn-left' | 'turn-right' | 'come-closer' | 'challenge';
export declare const LIVENESS_SEQUENCES: readonly LivenessSequenceName[];
/** Frames a second of every sequence (the Y4M header says so too). */
export declare const SEQUENCE_FPS: number;
/** The frames' size unless a sequence asks for another: 640 x 480, a webcam's. */
export declare const FRAME_WIDTH: number;
export declare const FRAME_HEIGHT: number;
export interface RgbaPicture {
  width: number;
  height: number;
  /** 4 bytes a pixel, row-major. */
  rgba: Uint8Array | Uint8ClampedArray;
}
/**
 * A frame's pose: `turn` from -1 (a full turn to the person's right: the nose towards the
 * camera frame's left) to 1 (to the person's left: the nose towards the frame's right), `zoom`
 * from 1 (the baseline) to 1.4 (come closer).
 */
export interface LivenessPose {
  turn: number;
  zoom: number;
}
export interface FrameSize {
  /** Even; 640 by default. */
  width?: number;
  /** Even; 480 by default. The face keeps its place and its share of the height at any size. */
  height?: number;
}
export interface SequenceOptions extends FrameSize {
  /** Frames of `still` (30 by default); the other sequences have a fixed length. */
  frames?: number;
}
export declare function sequencePoses(name: LivenessSequenceName, options?: SequenceOptions): LivenessPose[];
/** One frame of the portrait in a pose (640 x 480 unless `size` says otherwise). */
export declare function renderLivenessFrame(
  portrait: RgbaPicture,
  pose: LivenessPose,
  size?: FrameSize,
): { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> };
export interface LivenessSequence {
  name: LivenessSequenceName;
  poses: LivenessPose[];
  length: number;
  width: number;
  height: number;
  /** Frame `i`, rendered on first use and kept (a loop's repeated poses render once). */
  frame(i: number): { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> };
}
export declare function livenessSequence(portrait: RgbaPicture, name: LivenessSequenceName, options?: SequenceOptions): LivenessSequence;
