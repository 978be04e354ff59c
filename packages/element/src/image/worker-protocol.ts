/** The messages between the pipeline and its image worker (image-worker.ts). */
import type { FrameAnalysis } from '../guidance/frame-analysis.js';
import type { FrameFractions } from '../guidance/frame-sampler.js';
import type { ImageCheckCode } from './image-error.js';
import type { CaptureRole, FramePixels, PreparedImage, PrepareOptions } from './prepare.js';
import type { GreyImage } from './quality.js';

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

/**
 * One live-guidance sample: a preview frame (the worker closes it), the guide as fractions of the
 * frame and the margin read around it. The answer is the region's grey copy and its analysis.
 */
export interface GuidanceRequest {
  id: number;
  kind: 'guidance';
  frame: FramePixels;
  guide: FrameFractions;
  margin: number;
  role: CaptureRole;
}

export interface GuidanceSample {
  grey: GreyImage;
  analysis: FrameAnalysis;
  /** The worker's time on it (the frame's read and the checks), ms. */
  ms: number;
}

export type GuidanceResponse = { id: number; ok: true; guidance: GuidanceSample } | { id: number; ok: false; error: WorkerFailure };
