/**
 * Camera failures, named by what the person can do about them rather than by the browser's
 * DOMException names (which differ between browsers and versions).
 */

export type CameraErrorCode =
  | 'denied'
  | 'no-camera'
  | 'in-use'
  | 'constraints'
  | 'insecure-context'
  | 'unsupported'
  | 'aborted'
  | 'unknown';

export class CameraError extends Error {
  readonly code: CameraErrorCode;
  declare readonly cause?: unknown;

  constructor(code: CameraErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CameraError';
    this.code = code;
  }
}

/** DOMException names (current and legacy Chrome/Firefox/Safari spellings) -> code. */
const CODE_BY_NAME: Readonly<Record<string, CameraErrorCode>> = {
  NotAllowedError: 'denied',
  PermissionDeniedError: 'denied',
  SecurityError: 'denied',
  NotFoundError: 'no-camera',
  DevicesNotFoundError: 'no-camera',
  NotReadableError: 'in-use',
  TrackStartError: 'in-use',
  AbortError: 'in-use',
  OverconstrainedError: 'constraints',
  ConstraintNotSatisfiedError: 'constraints',
  NotSupportedError: 'unsupported',
};

const MESSAGES: Readonly<Record<CameraErrorCode, string>> = {
  denied: 'Camera permission was denied',
  'no-camera': 'No camera was found',
  'in-use': 'The camera could not be started (it may be in use by another application)',
  constraints: 'No camera satisfies the requested settings',
  'insecure-context': 'The camera needs a secure (https) page',
  unsupported: 'This browser cannot use the camera',
  aborted: 'The camera stopped',
  unknown: 'The camera failed',
};

function errorName(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'name' in error && typeof error.name === 'string') return error.name;
  return undefined;
}

export function cameraError(code: CameraErrorCode, cause?: unknown): CameraError {
  return new CameraError(code, MESSAGES[code], cause === undefined ? undefined : { cause });
}

/**
 * Maps whatever getUserMedia (or its absence) threw to a {@link CameraError}. A TypeError or a
 * missing `navigator.mediaDevices` means no camera API: on an insecure page that is the reason
 * (browsers hide mediaDevices there), elsewhere the browser lacks it.
 */
export function mapCameraError(error: unknown): CameraError {
  if (error instanceof CameraError) return error;
  const name = errorName(error);
  const code = name === undefined ? undefined : CODE_BY_NAME[name];
  if (code) return cameraError(code, error);
  const noApi = typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia;
  if (name === 'TypeError' || noApi) {
    return cameraError(globalThis.isSecureContext === false ? 'insecure-context' : 'unsupported', error);
  }
  return cameraError('unknown', error);
}
