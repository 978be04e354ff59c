/** The messages between the page's liveness client (liveness-client.ts) and its worker (liveness-worker.ts). */
import type { SelfieJudgement } from '../face/face-detector.js';

/** What the model made of one camera frame: what the challenge rules read (challenge-rules.ts). */
export interface FaceAnalysis {
  /** Faces the detector found. */
  faces: number;
  /**
   * The largest face's outline (the box around its 68 landmarks: brows to chin, jaw side to jaw
   * side), as shares of the frame's width and height; absent without a face.
   */
  box?: { x: number; y: number; width: number; height: number };
  /**
   * The nose tip's offset from the eyes' midpoint along the eyes' line, over the distance between
   * the eyes, in camera space (unmirrored): about 0 for a frontal face, positive when the nose is
   * towards the frame's right, which is the person's left.
   */
  yaw?: number;
}

/**
 * Where a frame's face was looked for (face-track.ts): the whole frame, the square around the face
 * followed, or that square with the whole frame's faces counted too.
 */
export type FaceLook = 'whole' | 'square' | 'square+count';

export type LivenessRequest =
  /** Loads the model (idempotent): the answer says whether it is ready. */
  | { id: number; kind: 'load' /** TensorFlow.js's backend (default cpu; the bench compares them). */; backend?: string }
  /**
   * One camera frame (transferred) for the challenge. `video`: an id shared by the successive
   * frames of one video, whose face the worker then follows (face-track.ts).
   */
  | { id: number; kind: 'analyse'; frame: ImageBitmap; video?: number }
  /** A selfie, judged as the face check judges it (face/face-detector.ts), whether or not the model loaded. */
  | { id: number; kind: 'judge'; source: ImageBitmap | Blob };

export type LivenessResponse =
  | { id: number; ok: true; kind: 'load' }
  | {
      id: number;
      ok: true;
      kind: 'analyse';
      analysis: FaceAnalysis;
      /** The worker's time on it, ms. */
      ms: number;
      /** Where the face was looked for (FaceLook). */
      look: FaceLook;
    }
  | { id: number; ok: true; kind: 'judge'; judgement: SelfieJudgement; ms: number }
  /** `model`: the model could not be loaded (the face check still works). */
  | { id: number; ok: false; error: string; model?: true };
