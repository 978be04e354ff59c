/**
 * The injection signals' rules (docs/page-api.md#injection-signals): one pure function per signal,
 * over what the browser reported, answering the raised signal or null. None of them judges: a
 * raised signal is a reason for the backend to look closer, and the flow never changes for it.
 */
import { CAPTURE_INTEGRITY_LIMITS, type ImageRoleName, type IntegritySignal } from '@onboarding-kit/contract';

/** Every threshold the rules use, each named once (the documentation quotes them). */
export const SIGNAL_THRESHOLDS = {
  /** Frame rates a phone or webcam sensor gives, inclusive. */
  minFrameRate: 10,
  maxFrameRate: 60,
  /** Sensors give widths and heights in multiples of this. */
  sizeMultiple: 8,
  /** A coefficient of variation of the frame intervals below this is too regular for a sensor. */
  regularTimingCv: 0.005,
  /** Frame times needed before the timing is judged at all. */
  minFrames: 30,
  /** Frame times sampled per camera opening. */
  framesSampled: 60,
} as const;

/**
 * Labels of known virtual cameras: streaming tools (OBS, XSplit, ManyCam, Snap Camera, CamTwist,
 * SplitCam, e2eSoft VCam), the Linux loopback driver (v4l2loopback, "Dummy video device") and the
 * browsers' own fake devices that automation uses (Chromium's `fake_device_0`, WebKit's mock device).
 */
const VIRTUAL_CAMERA =
  /\bobs\b|obs virtual|xsplit|manycam|snap camera|camtwist|splitcam|vcam|v4l2loopback|dummy video|virtual|fake_device|fake video|mock video/i;

/** The controls a real camera module tends to expose, in MediaTrackCapabilities' names. */
const CAMERA_CONTROLS = ['focusMode', 'focusDistance', 'zoom', 'torch'] as const;

const clip = (text: string): string => text.slice(0, CAPTURE_INTEGRITY_LIMITS.signalValueMaxChars);

function signal(name: IntegritySignal['name'], role: ImageRoleName | undefined, value?: IntegritySignal['value']): IntegritySignal {
  return { name, ...(role && { role }), ...(value !== undefined && { value: typeof value === 'string' ? clip(value) : value }) };
}

/** `virtual-camera-label`: the track's label names a known virtual camera. */
export function virtualCameraLabel(label: string, role?: ImageRoleName): IntegritySignal | null {
  return VIRTUAL_CAMERA.test(label) ? signal('virtual-camera-label', role, label) : null;
}

/**
 * `no-camera-controls`: the track's capabilities name none of focus, zoom or torch. Null
 * capabilities (an engine without `getCapabilities`) raise nothing: nothing was measured.
 */
export function noCameraControls(capabilities: object | null, role?: ImageRoleName): IntegritySignal | null {
  if (!capabilities) return null;
  return CAMERA_CONTROLS.some((control) => control in capabilities) ? null : signal('no-camera-controls', role);
}

/** `odd-video-format`: a frame rate outside what sensors give, or a size not a multiple of 8; `value` is `WxH@fps`. */
export function oddVideoFormat(
  settings: Pick<MediaTrackSettings, 'width' | 'height' | 'frameRate'>,
  role?: ImageRoleName,
): IntegritySignal | null {
  const { width, height, frameRate } = settings;
  const { minFrameRate, maxFrameRate, sizeMultiple } = SIGNAL_THRESHOLDS;
  const oddRate = frameRate !== undefined && (frameRate < minFrameRate || frameRate > maxFrameRate);
  const oddSize = [width, height].some((side) => side !== undefined && side % sizeMultiple !== 0);
  if (!oddRate && !oddSize) return null;
  const rate = frameRate === undefined ? '?' : String(Math.round(frameRate * 100) / 100);
  return signal('odd-video-format', role, `${width ?? '?'}x${height ?? '?'}@${rate}`);
}

/** The coefficient of variation of the intervals between successive frame times (ms), or null with too few. */
export function frameTimingVariation(times: readonly number[]): number | null {
  const intervals = times
    .slice(1)
    .map((time, i) => time - times[i]!)
    .filter((interval) => interval > 0);
  if (intervals.length + 1 < SIGNAL_THRESHOLDS.minFrames) return null;
  const mean = intervals.reduce((sum, x) => sum + x, 0) / intervals.length;
  const variance = intervals.reduce((sum, x) => sum + (x - mean) ** 2, 0) / intervals.length;
  return Math.sqrt(variance) / mean;
}

/** `regular-frame-timing`: frame intervals vary less than a sensor's; `value` is the coefficient of variation. */
export function regularFrameTiming(times: readonly number[], role?: ImageRoleName): IntegritySignal | null {
  const cv = frameTimingVariation(times);
  if (cv === null || cv >= SIGNAL_THRESHOLDS.regularTimingCv) return null;
  return signal('regular-frame-timing', role, Math.round(cv * 1e5) / 1e5);
}

/** `page-hidden`: the page was hidden while the step of `role` was open. */
export function pageHidden(visibility: DocumentVisibilityState, role?: ImageRoleName): IntegritySignal | null {
  return visibility === 'hidden' ? signal('page-hidden', role) : null;
}

/** `webdriver`: the browser says automation drives it. */
export function webdriver(flag: boolean | undefined): IntegritySignal | null {
  return flag === true ? signal('webdriver', undefined, true) : null;
}

/**
 * `file-despite-camera`: a photo was picked from a file on a step where a camera was available;
 * `value` says how it was known (`opened`: it went live on the step; `listed`: the device lists one).
 */
export function fileDespiteCamera(
  source: 'camera' | 'file',
  camera: 'opened' | 'listed' | 'none',
  role?: ImageRoleName,
): IntegritySignal | null {
  return source === 'file' && camera !== 'none' ? signal('file-despite-camera', role, camera) : null;
}
