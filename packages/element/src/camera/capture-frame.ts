/**
 * Grabs one frame of a camera stream, at the stream's own resolution and never mirrored (neither
 * drawImage() nor createImageBitmap() sees the CSS transform that mirrors a selfie preview):
 * as pixels (`captureFramePixels`, a VideoFrame or an ImageBitmap the image pipeline takes as it
 * is, so the frame is JPEG-encoded once, at the end) or as an image blob (`captureFrame`).
 */
import { setFrameRegion } from './frame-region.js';

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

/**
 * The frame `video` presents, as pixels a worker can take: a VideoFrame where the engine has them
 * (made without a copy on the page), else a bitmap. The caller owns it.
 */
export async function presentedFrame(video: HTMLVideoElement): Promise<FramePixels> {
  if (typeof VideoFrame === 'function') {
    try {
      return new VideoFrame(video);
    } catch {
      // An engine whose VideoFrame cannot take a video element: a bitmap below.
    }
  }
  return createImageBitmap(video);
}

/**
 * The current frame of `stream` as pixels: no encode, no decode, no copy on the page where the
 * engine has WebCodecs. The whole frame is a `VideoFrame`, region or not; a region is recorded
 * beside it (`frameRegionOf`) and cut out by the image pipeline, in its worker. Where a
 * VideoFrame cannot be made, the region is drawn on a canvas into an `ImageBitmap`. The caller
 * owns it (the image pipeline takes it over and closes it).
 */
export function captureFramePixels(
  stream: MediaStream,
  preview: HTMLVideoElement | null,
  options: Omit<CaptureOptions, 'type' | 'quality'> = {},
): Promise<FramePixels> {
  return withFrame(stream, preview, options.timeoutMs ?? 5000, async (video) => {
    const region = regionOf(video, options);
    const whole = region.x === 0 && region.y === 0 && region.width === video.videoWidth && region.height === video.videoHeight;
    if (typeof VideoFrame === 'function') {
      try {
        // The whole frame, region or not: no copy on the page (cutting the region here blocked
        // WebKit's page for 23-51 ms, and posting the cut bitmap to the worker another 15-22).
        // A region is cut by the pipeline, in its worker, with drawImage's source rectangle.
        const frame = new VideoFrame(video, { timestamp: Math.round(video.currentTime * 1e6) });
        if (!whole) setFrameRegion(frame, region);
        return frame;
      } catch {
        // An engine whose VideoFrame cannot take this video: a bitmap below.
      }
    }
    if (typeof OffscreenCanvas === 'function') {
      // One copy of the region, handed over without another (transferToImageBitmap).
      const { x, y, width, height } = region;
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (ctx) {
        ctx.drawImage(video, x, y, width, height, 0, 0, width, height);
        return canvas.transferToImageBitmap();
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
