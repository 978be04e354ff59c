/**
 * A liveness sequence (liveness-sequences.mjs) played into a canvas `captureStream()`, standing
 * in for the camera: Firefox's fake camera is a flat green frame and WebKit's mock device a grey
 * pattern, and Chromium loops only the one Y4M it was launched with. The frames are the ones the
 * Y4M files carry, bar the JPEG decoder's rounding (each engine decodes the portrait itself).
 */
import { livenessSequence, SEQUENCE_FPS } from './liveness-sequences.mjs';
import type { LivenessSequenceName, RgbaPicture, SequenceOptions } from './liveness-sequences.mjs';
import { decode } from './pixels.js';

const PORTRAIT_URL = new URL('../../element/test/fixtures/faces/astronaut.jpg', import.meta.url);

let portrait: Promise<RgbaPicture> | undefined;
/** The astronaut portrait as this engine decodes it, fetched once a page. */
function browserPortrait(): Promise<RgbaPicture> {
  portrait ??= fetch(PORTRAIT_URL)
    .then((response) => response.blob())
    .then(decode)
    .then(({ width, height, data }) => ({ width, height, rgba: data }));
  return portrait;
}

export interface SequenceCamera {
  /** The canvas's stream: hand it out where getUserMedia would give the camera's. */
  stream: MediaStream;
  /** Frames in the loop. */
  length: number;
  /** The frame on show now (0 to length - 1). */
  frameIndex(): number;
  /** Frame `i` as painted. */
  frame(i: number): ImageData;
  /** Stops painting and ends the stream's tracks. */
  stop(): void;
}

/**
 * Renders every frame of the sequence first (so that it plays at its 15 fps, not at the speed
 * of rendering; a loop of 60 frames has about 20 distinct ones), then loops it in time.
 */
export async function livenessCamera(name: LivenessSequenceName, options?: SequenceOptions): Promise<SequenceCamera> {
  const sequence = livenessSequence(await browserPortrait(), name, options);
  const frames: ImageData[] = [];
  const distinct = new Map<unknown, ImageData>();
  for (let i = 0; i < sequence.length; i++) {
    const frame = sequence.frame(i);
    if (!distinct.has(frame)) {
      distinct.set(frame, new ImageData(frame.rgba, frame.width, frame.height));
      // Lets the page breathe between renders (each is tens of milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    frames.push(distinct.get(frame)!);
  }
  const canvas = document.createElement('canvas');
  canvas.width = frames[0]!.width;
  canvas.height = frames[0]!.height;
  const ctx = canvas.getContext('2d')!;
  const started = performance.now();
  const frameIndex = () => Math.floor(((performance.now() - started) * SEQUENCE_FPS) / 1000) % frames.length;
  const paint = () => ctx.putImageData(frames[frameIndex()]!, 0, 0);
  paint();
  const stream = canvas.captureStream(SEQUENCE_FPS);
  const painter = setInterval(paint, 1000 / SEQUENCE_FPS);
  return {
    stream,
    length: frames.length,
    frameIndex,
    frame: (i) => frames[i]!,
    stop() {
      clearInterval(painter);
      for (const track of stream.getTracks()) track.stop();
    },
  };
}

/**
 * Makes `navigator.mediaDevices.getUserMedia` answer with the sequence's stream (a fresh clone
 * each call, as a camera gives a fresh track); the returned function puts the real one back.
 */
export function standInForCamera(camera: SequenceCamera): () => void {
  const md = navigator.mediaDevices;
  const real = md.getUserMedia;
  md.getUserMedia = async () => camera.stream.clone();
  return () => {
    md.getUserMedia = real;
  };
}
