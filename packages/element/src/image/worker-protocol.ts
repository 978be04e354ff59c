/** The messages between the pipeline and its image worker (image-worker.ts). */
import type { ImageCheckCode } from './image-error.js';
import type { PreparedImage, PrepareOptions } from './prepare.js';

export interface WorkerRequest {
  id: number;
  source: Blob;
  options: PrepareOptions;
}

/** An error as data: ImageCheckError's code and detail survive the trip; anything else keeps its name and message. */
export interface WorkerFailure {
  name: string;
  message: string;
  code?: ImageCheckCode;
  detail?: Record<string, number>;
}

export type WorkerResponse = { id: number; ok: true; image: PreparedImage } | { id: number; ok: false; error: WorkerFailure };
