/** The messages between the page's document reader (document-reader.ts) and its worker (reader-worker.ts). */
import type { SideReading } from '@onboarding-kit/contract';

/** A frame's grey levels, one byte a pixel, row by row. */
export interface LumaFrame {
  luma: Uint8Array;
  width: number;
  height: number;
}

/** A photo as the element holds it: its JPEG in base64 (decoded in the worker, not on the page). */
export interface Base64Photo {
  base64: string;
}

export interface ReadRequest {
  id: number;
  /** A camera frame (transferred), a picture file, a photo's JPEG, or grey levels already read. */
  source: VideoFrame | ImageBitmap | Blob | Base64Photo | LumaFrame;
  /**
   * A photo that was taken or picked: every retry the QR decoder has, however long. A live frame
   * gets the decoder's quick pass only, so that the next steady frame is not kept waiting.
   */
  thorough: boolean;
}

export type ReadResponse =
  | { id: number; ok: true; reading: SideReading /** The worker's time on it, ms. */; ms: number }
  | { id: number; ok: false; error: string };
