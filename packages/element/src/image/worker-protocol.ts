/** The messages between the pipeline and its image worker (image-worker.ts). */
import type { ImageCheckCode } from './image-error.js';
import type { FramePixels, PreparedImage, PrepareOptions } from './prepare.js';

export interface WorkerRequest {
  id: number;
  /** A picked file, or a camera frame's pixels (a VideoFrame shares the camera's buffer; a bitmap is transferred, or copied while the worker is new). */
  source: Blob | FramePixels;
  options: PrepareOptions;
}

/** An error as data: ImageCheckError's code and detail survive the trip; anything else keeps its name and message. */
export interface WorkerFailure {
  name: string;
  message: string;
  code?: ImageCheckCode;
  detail?: Record<string, number>;
  /** A refused camera frame's JPEG (ImageCheckError.image). */
  image?: Blob;
  /** A transferred frame, handed back when the failure is the worker's (the page then does the work). */
  frame?: FramePixels;
}

export type WorkerResponse = { id: number; ok: true; image: PreparedImage } | { id: number; ok: false; error: WorkerFailure };
