/**
 * The reading bench's page (bench/sections/reading.ts builds it with the element's reader worker
 * beside it): the element's real live reading (PhotoReadings.readFrame on each steady card the
 * real frame sampler reports, its guidance read in the real image worker) over a camera showing
 * the QR card, timed from the first steady frame to the code, with the page's main thread watched;
 * and the share of the test document pictures whose codes the reader reads from a photo.
 */
import { sampleGuidance } from '@onboarding-kit/element/internal/image-pipeline';
import { startFrameSampler } from '@onboarding-kit/element/internal/guidance';
import { PhotoReadings } from '@onboarding-kit/element/internal/photo-readings';
import type { SideReading } from '@onboarding-kit/contract';
import { DOCUMENT_PICTURES, documentPictureFile } from '@onboarding-kit/testing/document-pictures';
import { qrCardRgba } from '@onboarding-kit/testing/qr-card';
import { watchMainThread } from '../lib/main-thread-watch.js';

export interface LiveRun {
  /** 'fake camera' (Chromium's, looping the QR card) or 'canvas stream' (the card drawn on a canvas). */
  source: string;
  /** From the first steady card to the code read, ms; null when nothing was read within the wait. */
  steadyToCode: number | null;
  /** Longest task a `longtask` observer reported; null where the engine has none. */
  longestTask: number | null;
  /** Longest gap between two `setTimeout(0)` turns: a bound on any task, in every engine. */
  longestTimerGap: number;
  /** Longest gap between two animation frames: another bound (it counts the engine's frame scheduling too). */
  longestFrameGap: number;
}

const now = () => performance.now();

/** How long every live run watches the page from the first steady card (a reading run: at least until its code). */
const WATCHED_MS = 1_000;

/** The QR card as a video: the fake camera where there is one, else a canvas stream of the picture. */
async function cardVideo(useCamera: boolean): Promise<{ video: HTMLVideoElement; source: string; close(): void }> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  // Shown as the capture view shows its preview: within the window (800x600 in WebKit's driver), not at the frame's 1280 px.
  video.style.width = '640px';
  document.body.append(video);
  let stop = () => undefined as void;
  let source = 'fake camera';
  if (useCamera) {
    const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } } });
    video.srcObject = stream;
    stop = () => stream.getTracks().forEach((t) => t.stop());
  } else {
    source = 'canvas stream';
    const { width, height, rgba } = qrCardRgba();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    ctx.putImageData(new ImageData(rgba, width, height), 0, 0);
    video.srcObject = canvas.captureStream(30);
    // A canvas stream sends a frame only when drawn: one corner pixel in turn, as little page work as makes a frame.
    let dark = false;
    const redraw = setInterval(() => {
      dark = !dark;
      ctx.fillStyle = dark ? '#000' : '#fff';
      ctx.fillRect(0, 0, 1, 1);
    }, 33);
    stop = () => clearInterval(redraw);
  }
  await video.play();
  while (video.readyState < 2 || video.videoWidth === 0) await new Promise((r) => setTimeout(r, 20));
  return {
    video,
    source,
    close: () => {
      stop();
      video.remove();
    },
  };
}

/** A worker that, once told a duration (ms), keeps its core busy for that long: no allocation, no message. */
function spinningWorker(): Worker {
  const source =
    'onmessage = (e) => { const end = performance.now() + e.data; let x = 0; while (performance.now() < end) x += Math.sqrt(x + 1); postMessage(x); };';
  return new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
}

/**
 * What a live run does: `read`, the card read for a second from the first steady card (longer if
 * its code takes longer); `guidance`, the same camera and guidance with nothing read (the
 * baseline); `spin`, the same with a worker spinning on a plain loop instead of reading (what any
 * busy worker costs the page); `playback`, the camera alone (what the stand-in camera costs).
 */
export type LiveMode = 'read' | 'guidance' | 'playback' | 'spin';

/** One live run (LiveMode), its code read within `waitMs` at most. */
async function readLive(useCamera: boolean, mode: LiveMode = 'read', waitMs = 10_000): Promise<LiveRun> {
  const read = mode === 'read';
  const { video, source, close } = await cardVideo(useCamera);
  if (mode === 'playback') {
    const stopPlayback = watchMainThread();
    await new Promise((resolve) => setTimeout(resolve, WATCHED_MS + 200));
    const main = await stopPlayback();
    close();
    return { source, steadyToCode: null, ...main };
  }
  const spinner = mode === 'spin' ? spinningWorker() : null;
  const stopWatch = watchMainThread();
  let firstSteady: number | null = null;
  let found: number | null = null;
  let codeRead = () => undefined as void;
  // Read or not, the page is watched for as long from the first steady card; a reading run also until its code.
  let windowOver = false;
  const finish = () => {
    if (windowOver && (!read || found !== null)) codeRead();
  };
  const shown = new Promise<void>((resolve) => {
    codeRead = resolve;
    setTimeout(resolve, waitMs);
  });
  const readings = new PhotoReadings({
    setReading: () => undefined,
    liveReading: (_role, reading) => {
      if (!reading.qr || found !== null) return;
      found = now();
      finish();
    },
  });
  const { videoWidth: w, videoHeight: h } = video;
  // The capture view's document guide: the largest ID-1 rectangle within 88 % x 76 % of the frame, centred.
  const gw = Math.min(w * 0.88, h * 0.76 * (85.6 / 53.98));
  const gh = gw / (85.6 / 53.98);
  const sampler = startFrameSampler(video, {
    role: 'documentFront',
    guide: { x: (w - gw) / 2 / w, y: (h - gh) / 2 / h, width: gw / w, height: gh / h },
    autoCapture: false,
    remote: (frame, request) => sampleGuidance(frame, request),
    onUpdate: ({ steady, analysis }) => {
      // As the capture view does (guidance-run.ts): a steady card is a moment to read.
      if (!steady || !analysis.card || analysis.card === 'none') return;
      if (firstSteady === null)
        setTimeout(() => {
          windowOver = true;
          finish();
        }, WATCHED_MS);
      if (firstSteady === null) spinner?.postMessage(WATCHED_MS + 500);
      firstSteady ??= now();
      if (read) readings.readFrame('documentFront', video);
    },
    onAutoCapture: () => undefined,
  });
  await shown;
  sampler.stop();
  const main = await stopWatch();
  spinner?.terminate();
  close();
  const steady = firstSteady as number | null;
  const code = found as number | null;
  return {
    source,
    steadyToCode: code !== null && steady !== null ? code - steady : null,
    ...main,
  };
}

/** What one test picture gave against what it holds: each code read right, missed, or absent from the picture. */
export interface PictureRun {
  id: string;
  qr: 'read' | 'missed' | 'none';
  mrz: 'read' | 'missed' | 'none';
  ms: number;
}

function outcome(expected: unknown, got: unknown): PictureRun['qr'] {
  if (expected === undefined) return 'none';
  return JSON.stringify(expected) === JSON.stringify(got) ? 'read' : 'missed';
}

/** Each test document picture (@onboarding-kit/testing/document-pictures) as a JPEG photo, read as an accepted photo is. */
async function readPictures(): Promise<PictureRun[]> {
  const results: PictureRun[] = [];
  for (const { id, expected } of DOCUMENT_PICTURES) {
    const jpeg = await documentPictureFile(id, 'image/jpeg', 0.9);
    const base64 = btoa(Array.from(new Uint8Array(await jpeg.arrayBuffer()), (b) => String.fromCharCode(b)).join(''));
    const t0 = now();
    const reading = await new Promise<SideReading>((resolve) => {
      const readings = new PhotoReadings<{ base64: string }>({ setReading: (_role, _photo, r) => resolve(r) });
      readings.readPhoto(expected.side, { base64 }, false);
    });
    const qrText = reading.qr
      ? new TextDecoder().decode(Uint8Array.from(atob(reading.qr.payloadBase64), (c) => c.charCodeAt(0)))
      : undefined;
    results.push({
      id,
      qr: outcome(expected.qr, qrText),
      mrz: outcome(expected.lines && [...expected.lines], reading.mrz?.lines),
      ms: now() - t0,
    });
  }
  return results;
}

declare global {
  interface Window {
    __readerBench: { readLive: typeof readLive; readPictures: typeof readPictures };
  }
}

window.__readerBench = { readLive, readPictures };
