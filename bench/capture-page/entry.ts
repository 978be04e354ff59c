/**
 * Browser side of the capture benchmark (built by Vite into a temp dir with the element's image
 * worker beside it, so the real worker path is taken). Exposes `window.__bench`:
 * the element's real capture (`captureFramePixels`, the frame as pixels, as the capture
 * controller takes it) + image pipeline (`processImage`) against a bare floor (draw,
 * `canvas.toBlob('image/jpeg')`, FileReader base64) on the same input.
 */
import { captureFramePixels } from '@onboarding-kit/element/internal/capture-frame';
import { processImage } from '@onboarding-kit/element/internal/image-pipeline';
import { startFrameSampler } from '@onboarding-kit/element/internal/guidance';
import { renderCardPictureRgba } from '@onboarding-kit/testing/card-picture';
import { watchMainThread } from '../lib/main-thread-watch.js';

export interface PipelineRun {
  total: number;
  /** Camera frame to pixels (captureFramePixels: a VideoFrame, or an ImageBitmap); 0 for a file. */
  capture: number;
  decode: number;
  checks: number;
  compress: number;
  encode: number;
  bytes: number;
  base64Length: number;
  width: number;
  height: number;
  processedIn: string;
  /** 'library' (browser-image-compression in the worker) or 'own' (the element's canvas encode). */
  processedBy: string;
}

/** The page's main thread while one photo is processed. */
/** What the main thread is watched during: a photo processed (a camera frame, a 12 MP file), or a baseline (nothing; the camera playing alone). */
export type MainThreadInput = 'frame' | 'photo' | 'idle' | 'camera-idle';

export interface MainThreadRun {
  processedIn: string;
  processedBy: string;
  total: number;
  /** Longest task a `longtask` PerformanceObserver reported; null where the engine has none. */
  longestTask: number | null;
  /** Longest gap between animation frames: a block of the main thread shows as a gap. */
  longestFrameGap: number;
  frames: number;
  /**
   * Longest gap in a chain of zero-delay timers (each run schedules the next; an engine clamps
   * nested ones to about 4 ms): how long the page's task queue was held, whatever the rendering
   * cadence, so a slow video frame rate does not show here the way it shows in frame gaps.
   */
  longestTimerGap: number;
}

export interface FloorRun {
  total: number;
  bytes: number;
  base64Length: number;
  width: number;
  height: number;
}

/** The live guidance's per-sample main-thread time against one full-frame read, each on a fresh frame. */
export interface GuidanceRun {
  source: string;
  width: number;
  height: number;
  /** Per sample: region copy, analysis, steadiness and the auto-capture decision (the sampler's own timing). */
  samples: number[];
  /** Per fresh frame: one drawImage of the whole frame into a readable canvas (willReadFrequently). */
  baseline: number[];
  /** Samples whose card check said 'fits' (the card picture should, every time). */
  fits: number;
}

export interface Fixture {
  role: 'documentFront' | 'documentBack' | 'selfie';
  base64: string;
  width: number;
  height: number;
  quality: number;
}

const now = () => performance.now();

function toBlob(canvas: HTMLCanvasElement, type: string, quality?: number): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), type, quality));
}

/** The shortest way a page gets pure base64 of a blob. */
function blobToBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

let camera: { stream: MediaStream; video: HTMLVideoElement } | undefined;

async function openCamera(): Promise<{ stream: MediaStream; video: HTMLVideoElement }> {
  if (camera) return camera;
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  document.body.append(video);
  await video.play();
  while (video.readyState < 2 || video.videoWidth === 0) await new Promise((r) => setTimeout(r, 20));
  camera = { stream, video };
  return camera;
}

async function pipelineOnCamera(): Promise<PipelineRun> {
  const { stream, video } = await openCamera();
  // A new camera frame for every run, as for every photo: no run reads a frame the one before already converted.
  await freshFrame(video);
  const t0 = now();
  const frame = await captureFramePixels(stream, video);
  const t1 = now();
  const out = await processImage(frame, { role: 'documentFront' });
  const total = now() - t0;
  URL.revokeObjectURL(out.previewUrl);
  return {
    total,
    capture: t1 - t0,
    ...out.timings,
    bytes: out.bytes,
    base64Length: out.base64.length,
    width: out.width,
    height: out.height,
    processedIn: out.processedIn,
    processedBy: out.processedBy,
  };
}

async function floorOnCamera(): Promise<FloorRun> {
  return floorOnFrame(null);
}

let keptFloorCanvas: HTMLCanvasElement | undefined;

/** The floor with its canvas kept from run to run, as the pipeline keeps its own: for comparison, not the target's floor. */
async function floorOnCameraKept(): Promise<FloorRun> {
  keptFloorCanvas ??= document.createElement('canvas');
  return floorOnFrame(keptFloorCanvas);
}

async function floorOnFrame(kept: HTMLCanvasElement | null): Promise<FloorRun> {
  const { video } = await openCamera();
  await freshFrame(video);
  const t0 = now();
  const canvas = kept ?? document.createElement('canvas');
  if (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight) {
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
  }
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  const blob = await toBlob(canvas, 'image/jpeg');
  const base64 = await blobToBase64(blob);
  return { total: now() - t0, bytes: blob.size, base64Length: base64.length, width: canvas.width, height: canvas.height };
}

let photo: File | undefined;

/** A 12 MP (4000x3000) JPEG, like a phone's photo: the card picture scaled up with sensor-like grain. */
async function makePhoto(): Promise<{ bytes: number; width: number; height: number }> {
  if (!photo) {
    const { width, height, rgba } = renderCardPictureRgba();
    const source = new OffscreenCanvas(width, height);
    source.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
    const canvas = document.createElement('canvas');
    canvas.width = 4000;
    canvas.height = 3000;
    const ctx = canvas.getContext('2d')!;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(source, 0, 0, 4000, 3000);
    addGrain(ctx, 4000, 3000, 28, 1);
    const blob = await toBlob(canvas, 'image/jpeg', 0.92);
    photo = new File([blob], 'photo.jpg', { type: 'image/jpeg' });
    canvas.width = 0;
  }
  return { bytes: photo.size, width: 4000, height: 3000 };
}

/** Adds deterministic noise of +-amplitude/2 per channel (camera grain makes JPEGs realistic in size). */
function addGrain(ctx: CanvasRenderingContext2D, width: number, height: number, amplitude: number, seed: number): void {
  let s = seed >>> 0 || 1;
  const band = 500;
  for (let y0 = 0; y0 < height; y0 += band) {
    const h = Math.min(band, height - y0);
    const img = ctx.getImageData(0, y0, width, h);
    const d = img.data;
    for (let i = 0; i < d.length; i += 4) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const n = ((s >>> 0) / 4294967296 - 0.5) * amplitude;
      d[i] = d[i]! + n;
      d[i + 1] = d[i + 1]! + n;
      d[i + 2] = d[i + 2]! + n;
    }
    ctx.putImageData(img, 0, y0);
  }
}

async function pipelineOnPhoto(): Promise<PipelineRun> {
  await makePhoto();
  const t0 = now();
  const out = await processImage(photo!, { role: 'documentFront' });
  const total = now() - t0;
  URL.revokeObjectURL(out.previewUrl);
  return {
    total,
    capture: 0,
    ...out.timings,
    bytes: out.bytes,
    base64Length: out.base64.length,
    width: out.width,
    height: out.height,
    processedIn: out.processedIn,
    processedBy: out.processedBy,
  };
}

/** Decode, scale to the pipeline's 2000 px long edge (an upload must fit), toBlob, base64. */
async function floorOnPhoto(): Promise<FloorRun> {
  await makePhoto();
  const t0 = now();
  const bitmap = await createImageBitmap(photo!);
  const scale = Math.min(1, 2000 / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await toBlob(canvas, 'image/jpeg');
  const base64 = await blobToBase64(blob);
  return { total: now() - t0, bytes: blob.size, base64Length: base64.length, width: canvas.width, height: canvas.height };
}

/**
 * Three upload-ready JPEGs for the companion benchmark, made from the card picture with grain
 * and a JPEG quality searched so each lands in [minBytes, maxBytes].
 */
async function fixtures(minBytes: number, maxBytes: number): Promise<Fixture[]> {
  const { width, height, rgba } = renderCardPictureRgba();
  const source = new OffscreenCanvas(width, height);
  source.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
  const specs = [
    { role: 'documentFront', w: 2000, h: 1125, seed: 11, mirror: false },
    { role: 'documentBack', w: 2000, h: 1125, seed: 23, mirror: true },
    { role: 'selfie', w: 1280, h: 720, seed: 37, mirror: false },
  ] as const;
  const out: Fixture[] = [];
  for (const spec of specs) {
    const canvas = document.createElement('canvas');
    canvas.width = spec.w;
    canvas.height = spec.h;
    const ctx = canvas.getContext('2d')!;
    if (spec.mirror) {
      ctx.translate(spec.w, 0);
      ctx.scale(-1, 1);
    }
    ctx.drawImage(source, 0, 0, spec.w, spec.h);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    addGrain(ctx, spec.w, spec.h, 12, spec.seed);
    const target = (minBytes + maxBytes) / 2;
    let lo = 0.3;
    let hi = 0.98;
    let best: { blob: Blob; q: number } | undefined;
    for (let i = 0; i < 8; i++) {
      const q = (lo + hi) / 2;
      const blob = await toBlob(canvas, 'image/jpeg', q);
      if (!best || Math.abs(blob.size - target) < Math.abs(best.blob.size - target)) best = { blob, q };
      if (blob.size >= minBytes && blob.size <= maxBytes) break;
      if (blob.size > maxBytes) hi = q;
      else lo = q;
    }
    out.push({ role: spec.role, base64: await blobToBase64(best!.blob), width: spec.w, height: spec.h, quality: best!.q });
  }
  return out;
}

/** A region of the frame, as the capture controller asks for the guide's (a VideoFrame of the whole frame marked with the region, cut in the worker; an ImageBitmap of the region where the engine has no VideoFrame). */
const guideRegion = (width: number, height: number) => ({
  x: Math.round(width * 0.04),
  y: Math.round(height * 0.04),
  width: Math.round(width * 0.92),
  height: Math.round(height * 0.92),
});

/**
 * As the capture controller does: the guide's region of the frame as pixels, then the pipeline. The video is paused
 * meanwhile (the controller stops the camera; stopping a canvas stream's tracks is WebKit's own
 * ~50 ms on the page, the camera's cost and not the pipeline's, so the tracks stop after the watch).
 */
async function processFrame(video: { video: HTMLVideoElement; close(): void; hold(): void }) {
  const pixels = await captureFramePixels(video.video.srcObject as MediaStream, video.video, { region: guideRegion });
  // As the element does after a photo (it leaves the capture view, and the camera stops).
  video.video.pause();
  video.hold();
  return processImage(pixels, { role: 'documentFront' });
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/**
 * Processes one photo while watching the main thread: a `longtask` PerformanceObserver where the
 * engine has one (Chromium), and in every engine the gaps between animation frames (what a person
 * sees as a freeze). The input is made before the watch starts, so only the pipeline is watched.
 */
async function mainThreadWhile(input: MainThreadInput): Promise<MainThreadRun> {
  if (input === 'photo') await makePhoto();
  // A frame: the capture from a playing video (the fake camera, else a canvas stream of the card) is watched too.
  // 'camera-idle': the same video playing and nothing else, the baseline of what playback alone costs the page.
  const video = input === 'frame' || input === 'camera-idle' ? await cardVideo() : null;
  const source = input === 'photo' ? photo! : null;
  const stopWatch = watchMainThread();
  const t0 = now();
  // 'idle': the same watch over 300 ms with nothing to do, the engine's own baseline of frame gaps.
  const out =
    video && input === 'frame'
      ? await processFrame(video)
      : source
        ? await processImage(source, { role: 'documentFront' })
        : await new Promise<null>((resolve) => setTimeout(() => resolve(null), 300));
  const total = now() - t0;
  // Two more frames: a block right at the end shows as a gap too.
  await nextFrame();
  await nextFrame();
  const main = await stopWatch();
  if (out) URL.revokeObjectURL(out.previewUrl);
  video?.close();
  return {
    processedIn: out?.processedIn ?? '-',
    processedBy: out?.processedBy ?? '-',
    total,
    ...main,
  };
}

/**
 * What a page pays once (the pipeline keeps its worker for the next photos): start the image
 * worker from beside the module and get its first answer (a 1x1 PNG, which it refuses as too small).
 */
async function workerStartup(): Promise<number> {
  const canvas = new OffscreenCanvas(1, 1);
  canvas.getContext('2d')!.fillRect(0, 0, 1, 1);
  const png = await canvas.convertToBlob({ type: 'image/png' });
  const t0 = now();
  // Through a variable: Vite would bundle a literal `new Worker(new URL(...))` as its own worker.
  const url = new URL('./onboarding-flow.image-worker.js', import.meta.url).href;
  const worker = new Worker(url, { type: 'module' });
  try {
    const answer = await new Promise<{ ok?: boolean; error?: { code?: string } }>((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message || 'the image worker did not load'));
      worker.postMessage({ id: 1, source: png, options: { role: 'documentFront' } });
    });
    if (answer.error?.code !== 'too-small') throw new Error(`unexpected first answer from the worker: ${JSON.stringify(answer)}`);
    return now() - t0;
  } finally {
    worker.terminate();
  }
}

/** A playing video of the card picture: the fake camera where there is one (Chromium), else a canvas stream of the picture. */
async function cardVideo(): Promise<{ video: HTMLVideoElement; source: string; close(): void; hold(): void }> {
  try {
    const { video } = await openCamera();
    // The camera stays open for the other measurements: playing again (a watch pauses it).
    return { video, source: 'fake camera', close: () => void video.play(), hold: () => undefined };
  } catch {
    const { width, height, rgba } = renderCardPictureRgba();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    const image = new ImageData(rgba, width, height);
    ctx.putImageData(image, 0, 0);
    const stream = canvas.captureStream(30);
    // A canvas stream sends a frame only when the canvas is drawn. A camera's frames cost the
    // page's main thread nothing, so the stand-in draws as little as makes a new frame: one
    // corner pixel, black and white in turn (redrawing the whole picture each time, WebKit's main
    // thread was held 40-90 ms by the stand-in alone).
    let dark = false;
    const redraw = setInterval(() => {
      dark = !dark;
      ctx.fillStyle = dark ? '#000' : '#fff';
      ctx.fillRect(0, 0, 1, 1);
    }, 33);
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    document.body.append(video);
    await video.play();
    while (video.readyState < 2 || video.videoWidth === 0) await new Promise((r) => setTimeout(r, 20));
    return {
      video,
      source: 'canvas stream',
      // No new frames (the stand-in's draws are the page's work, a camera's are not).
      hold: () => clearInterval(redraw),
      close: () => {
        clearInterval(redraw);
        stream.getTracks().forEach((t) => t.stop());
        video.remove();
      },
    };
  }
}

type FrameVideo = HTMLVideoElement & { requestVideoFrameCallback?: (cb: () => void) => number };

/** Resolves on the video's next new frame (or after 50 ms where the engine cannot say). */
const freshFrame = (video: FrameVideo) =>
  new Promise<void>((resolve) =>
    video.requestVideoFrameCallback ? video.requestVideoFrameCallback(() => resolve()) : setTimeout(resolve, 50),
  );

/**
 * `count` guidance samples after two of warm-up, through the element's real sampler on the card
 * picture, then `count` baseline reads, each on a fresh frame (the first read of a new video frame
 * pays for its conversion, whoever reads it).
 */
async function guidanceSamples(count: number): Promise<GuidanceRun> {
  const { video, source, close } = await cardVideo();
  try {
    const { videoWidth: w, videoHeight: h } = video;
    // The capture view's document guide: the largest ID-1 rectangle within 88 % x 76 % of the frame, centred.
    const gw = Math.min(w * 0.88, h * 0.76 * (85.6 / 53.98));
    const gh = gw / (85.6 / 53.98);
    const guide = { x: (w - gw) / 2 / w, y: (h - gh) / 2 / h, width: gw / w, height: gh / h };
    const samples: number[] = [];
    let fits = 0;
    await new Promise<void>((resolve) => {
      let seen = 0;
      const sampler = startFrameSampler(video, {
        role: 'documentFront',
        guide,
        autoCapture: false,
        intervalMs: 60,
        onUpdate: (u) => {
          if (++seen <= 2) return;
          samples.push(sampler.timing.lastMs);
          if (u.analysis.card === 'fits') fits++;
          if (samples.length >= count) {
            sampler.stop();
            resolve();
          }
        },
        onAutoCapture: () => undefined,
      });
    });
    const canvas = new OffscreenCanvas(w, h);
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    const baseline: number[] = [];
    for (let i = 0; i < count; i++) {
      await freshFrame(video);
      const t0 = now();
      ctx.drawImage(video, 0, 0);
      ctx.getImageData(0, 0, 1, 1);
      baseline.push(now() - t0);
    }
    return { source, width: w, height: h, samples, baseline, fits };
  } finally {
    close();
  }
}

declare global {
  interface Window {
    __bench: {
      pipelineOnCamera: typeof pipelineOnCamera;
      floorOnCamera: typeof floorOnCamera;
      floorOnCameraKept: typeof floorOnCameraKept;
      makePhoto: typeof makePhoto;
      pipelineOnPhoto: typeof pipelineOnPhoto;
      floorOnPhoto: typeof floorOnPhoto;
      fixtures: typeof fixtures;
      workerStartup: typeof workerStartup;
      mainThreadWhile: typeof mainThreadWhile;
      guidanceSamples: typeof guidanceSamples;
      openCamera: () => Promise<{ width: number; height: number }>;
    };
  }
}

window.__bench = {
  pipelineOnCamera,
  floorOnCamera,
  floorOnCameraKept,
  makePhoto,
  pipelineOnPhoto,
  floorOnPhoto,
  fixtures,
  workerStartup,
  mainThreadWhile,
  guidanceSamples,
  openCamera: async () => {
    const { video } = await openCamera();
    return { width: video.videoWidth, height: video.videoHeight };
  },
};
