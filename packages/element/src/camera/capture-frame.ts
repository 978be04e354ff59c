/**
 * Grabs one frame of a camera stream as an image blob, at the stream's own resolution and never
 * mirrored: drawImage() ignores the CSS transform that mirrors a selfie preview.
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
 * Draws the current frame of `stream`. Uses the preview `video` when it shows this stream, else a
 * private detached video element (so capture works before or without a preview).
 */
export async function captureFrame(
  stream: MediaStream,
  preview: HTMLVideoElement | null,
  options: CaptureOptions = {},
): Promise<Blob> {
  const { type = 'image/jpeg', quality = 0.95, timeoutMs = 5000 } = options;
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
    const frame = { x: 0, y: 0, width: video.videoWidth, height: video.videoHeight };
    const { x, y, width, height } = options.region?.(frame.width, frame.height) ?? frame;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('2D canvas is unavailable');
    ctx.drawImage(video, x, y, width, height, 0, 0, width, height);
    const blob = await canvasToBlob(canvas, type, quality);
    canvas.width = 0;
    canvas.height = 0;
    return blob;
  } finally {
    if (ownVideo) {
      ownVideo.pause();
      ownVideo.srcObject = null;
    }
  }
}
