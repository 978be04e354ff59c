/**
 * Grabs one frame of a camera stream, at the stream's own resolution and never mirrored (neither
 * drawImage() nor createImageBitmap() sees the CSS transform that mirrors a selfie preview):
 * as pixels (`captureFrameBitmap`, an ImageBitmap the image pipeline takes as it is, so the
 * frame is JPEG-encoded once, at the end) or as an image blob (`captureFrame`).
 */

export interface CaptureOptions {
  /** Default 'image/jpeg' (fast to encode; the pipeline re-encodes it anyway). */
  type?: 'image/jpeg' | 'image/png';
  /** JPEG quality, default 0.95. */
  quality?: number;
  /** How long to wait for a first frame, default 5000 ms. */
  timeoutMs?: number;
  /** The part of the frame to keep, from the frame's size (default: all of it). */
  region?: (width: number, height: number) => { x: number; y: number; width: number; height: number };
  /** The preview showing the stream, to draw from at once (CameraController: default the attached one). */
  preview?: HTMLVideoElement | null;
}

const HAVE_CURRENT_DATA = 2;

function hasFrame(video: HTMLVideoElement, stream: MediaStream): boolean {
  return video.srcObject === stream && video.readyState >= HAVE_CURRENT_DATA && video.videoWidth > 0;
}

/** Resolves once `video` has a frame to draw, rejects after `timeoutMs`. */
function frameReady(video: HTMLVideoElement, stream: MediaStream, timeoutMs: number): Promise<void> {
  if (hasFrame(video, stream)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      video.removeEventListener('loadeddata', check);
      video.removeEventListener('resize', check);
    };
    const check = (): void => {
      if (hasFrame(video, stream)) {
        done();
        resolve();
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new DOMException('No camera frame arrived in time', 'TimeoutError'));
    }, timeoutMs);
    video.addEventListener('loadeddata', check);
    video.addEventListener('resize', check);
  });
}

function canvasToBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Canvas encoding failed'))), type, quality);
  });
}

/**
 * Runs `grab` on a video showing `stream` once it has a frame: the preview `video` when it shows
 * this stream, else a private detached video element (so capture works before or without a preview).
 */
async function withFrame<T>(
  stream: MediaStream,
  preview: HTMLVideoElement | null,
  timeoutMs: number,
  grab: (video: HTMLVideoElement) => Promise<T>,
): Promise<T> {
  let video = preview && preview.srcObject === stream ? preview : null;
  let ownVideo: HTMLVideoElement | null = null;
  if (!video) {
    ownVideo = document.createElement('video');
    ownVideo.muted = true;
    ownVideo.playsInline = true;
    ownVideo.srcObject = stream;
    video = ownVideo;
    await ownVideo.play().catch(() => undefined);
  }
  try {
    await frameReady(video, stream, timeoutMs);
    return await grab(video);
  } finally {
    if (ownVideo) {
      ownVideo.pause();
      ownVideo.srcObject = null;
    }
  }
}

function regionOf(video: HTMLVideoElement, options: CaptureOptions): { x: number; y: number; width: number; height: number } {
  const frame = { x: 0, y: 0, width: video.videoWidth, height: video.videoHeight };
  return options.region?.(frame.width, frame.height) ?? frame;
}

function drawRegion(video: HTMLVideoElement, region: { x: number; y: number; width: number; height: number }): HTMLCanvasElement {
  const { x, y, width, height } = region;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('2D canvas is unavailable');
  ctx.drawImage(video, x, y, width, height, 0, 0, width, height);
  return canvas;
}

/** The current frame of `stream` (its region, if given) encoded as an image blob. */
export function captureFrame(stream: MediaStream, preview: HTMLVideoElement | null, options: CaptureOptions = {}): Promise<Blob> {
  const { type = 'image/jpeg', quality = 0.95, timeoutMs = 5000 } = options;
  return withFrame(stream, preview, timeoutMs, async (video) => {
    const canvas = drawRegion(video, regionOf(video, options));
    const blob = await canvasToBlob(canvas, type, quality);
    canvas.width = 0;
    canvas.height = 0;
    return blob;
  });
}

/** A camera frame as pixels: a `VideoFrame` where the engine has WebCodecs, else an `ImageBitmap`. */
export type FramePixels = VideoFrame | ImageBitmap;

/** The region on the even pixel grid (a camera frame's chroma is often shared by 2x2 pixels), within the frame. */
function evenRegion(region: { x: number; y: number; width: number; height: number }, frameWidth: number, frameHeight: number): DOMRectInit {
  const x = Math.max(0, Math.floor(region.x / 2) * 2);
  const y = Math.max(0, Math.floor(region.y / 2) * 2);
  const width = Math.max(2, Math.floor(Math.min(region.width, frameWidth - x) / 2) * 2);
  const height = Math.max(2, Math.floor(Math.min(region.height, frameHeight - y) / 2) * 2);
  return { x, y, width, height };
}

/**
 * The current frame of `stream` (its region, if given) as pixels: no encode, no decode, and no
 * copy on the page where the engine has WebCodecs (a `VideoFrame` of the video, cropped to the
 * region on the even pixel grid; the image worker converts it). Elsewhere an `ImageBitmap` of the
 * region, drawn through a canvas. The caller owns it (the image pipeline takes it over and closes it).
 */
export function captureFramePixels(stream: MediaStream, preview: HTMLVideoElement | null, options: Omit<CaptureOptions, 'type' | 'quality'> = {}): Promise<FramePixels> {
  return withFrame(stream, preview, options.timeoutMs ?? 5000, async (video) => {
    const region = regionOf(video, options);
    if (typeof VideoFrame === 'function') {
      try {
        return new VideoFrame(video, { timestamp: Math.round(video.currentTime * 1e6), visibleRect: evenRegion(region, video.videoWidth, video.videoHeight) });
      } catch {
        // An engine whose VideoFrame cannot take this video: the canvas below.
      }
    }
    const canvas = drawRegion(video, region);
    try {
      return await createImageBitmap(canvas);
    } finally {
      canvas.width = 0;
      canvas.height = 0;
    }
  });
}
