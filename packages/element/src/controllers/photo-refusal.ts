/**
 * Reading a pipeline failure without importing the pipeline: which check refused the photo, the
 * refused camera frame's JPEG, and the chain of causes the page is told. Everything is duck-typed
 * so that ImageCheckError (and the pipeline module with its compression library) stays lazy.
 */
import { KEPT_CHECKS } from '@onboarding-kit/contract';
import type { FramePixels } from '../camera/capture-frame.js';
import type { CaptureRole, ImageCheckCode } from '../image/pipeline.js';
import type { imageErrors } from '../messages/image-errors.js';

/** Refusals a person may overrule: about what the picture shows, not about the file (the checks a creation may declare kept). */
export const KEEPABLE: ReadonlySet<ImageCheckCode> = new Set<ImageCheckCode>(KEPT_CHECKS);

/**
 * Selfie refusals nobody may overrule: with no face, or more than one, a reviewer has no face of
 * this person to match against the document, which is what a selfie is for. Blur, exposure, a
 * face too small or off the oval still show one face, which a reviewer can judge (and is told
 * the photo was kept anyway).
 */
export const SELFIE_NEVER_KEPT = new Set<ImageCheckCode>(['no-face', 'several-faces']);

/** Whether the person may keep a photo of `role` refused for `code`, once refused twice in a row. */
export function mayKeep(role: CaptureRole, code: ImageCheckCode): boolean {
  return KEEPABLE.has(code) && !(role === 'selfie' && SELFIE_NEVER_KEPT.has(code));
}

/** The error's message and its cause's, e.g. "The image could not be prepared (TypeError: ...)". */
export function failureReason(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, message } = e as { name?: unknown; message?: unknown };
    const part = typeof message === 'string' ? `${typeof name === 'string' ? `${name}: ` : ''}${message}` : String(e);
    // The pipeline already quotes its cause in its message; say it once.
    if (!parts.some((p) => p.includes(part))) parts.push(part);
  }
  return parts.join(' <- ');
}

/** A picked file rather than a frame's pixels (duck-typed like the pipeline's isBlob, which is not imported eagerly). */
export function isBlobSource(source: Blob | FramePixels): source is Blob {
  return typeof (source as Blob).slice === 'function';
}

/** The JPEG of a refused camera frame, duck-typed like the code (ImageCheckError is not imported eagerly). */
export function refusedFrame(error: unknown): Blob | null {
  const image = (error as { image?: unknown } | null)?.image;
  return image instanceof Blob ? image : null;
}

export function imageCheckCode(error: unknown, texts: typeof imageErrors | null): ImageCheckCode {
  const code = (error as { code?: unknown } | null)?.code;
  // Duck-typed so that ImageCheckError (and the pipeline module) is not imported eagerly.
  return typeof code === 'string' && texts && code in texts.en ? (code as ImageCheckCode) : 'compression-failed';
}
