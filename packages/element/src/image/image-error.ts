/** Why a picked or captured image was refused, in terms the element can explain to a person. */
export type ImageCheckCode =
  | 'not-an-image'
  | 'unsupported-type'
  | 'file-too-large'
  | 'too-small'
  | 'blurry'
  | 'too-dark'
  | 'too-bright'
  | 'no-face'
  | 'several-faces'
  | 'face-too-small'
  | 'face-off-center'
  | 'no-document'
  | 'compression-failed';

export class ImageCheckError extends Error {
  readonly code: ImageCheckCode;
  /** The measured values behind the verdict (e.g. `{ sharpness, threshold }`). */
  readonly detail?: Record<string, number>;
  /**
   * A camera frame (pixels, not a file) refused for what it shows: the frame as a JPEG, so the
   * element can show it and the person can keep it anyway. Files need none (they are their own).
   */
  image?: Blob;

  constructor(code: ImageCheckCode, message: string, detail?: Record<string, number>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageCheckError';
    this.code = code;
    if (detail) this.detail = detail;
  }
}
