/**
 * A liveness sequence (liveness-sequences.mjs) played into a canvas `captureStream()`, standing
 * in for the camera: Firefox's fake camera is a flat green frame and WebKit's mock device a grey
 * pattern, and Chromium loops only the one Y4M it was launched with. The frames are the ones the
 * Y4M files carry, bar the JPEG decoder's rounding (each engine decodes the portrait itself).
 */
import { livenessSequence, SEQUENCE_FPS, sequencePoses } from './liveness-sequences.mjs';
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
  /**
   * Plays another of the sequences it was made with, from its first frame; `holdMs`: out to its
   * furthest pose, held there that long, then back at rest (its first frame) for good, as a person
   * following a prompt does.
   */
  play(name: LivenessSequenceName, holdMs?: number): void;
  /** Stops painting and ends the stream's tracks. */
  stop(): void;
}

/** Every frame of a sequence, rendered first (a loop of 60 frames has about 20 distinct ones). */
async function renderedFrames(name: LivenessSequenceName, options?: SequenceOptions): Promise<ImageData[]> {
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
  return frames;
}

/**
 * Plays `name` in a loop at its 15 fps (rendered first, so that it plays in time, not at the speed
 * of rendering). `also`: other sequences `play` may switch to.
 */
export async function livenessCamera(
  name: LivenessSequenceName,
  options?: SequenceOptions,
  also: readonly LivenessSequenceName[] = [],
): Promise<SequenceCamera> {
  const sequences = new Map<LivenessSequenceName, ImageData[]>();
  for (const each of [name, ...also]) sequences.set(each, await renderedFrames(each, options));
  let frames = sequences.get(name)!;
  /** A held play: the frame it holds, and for how long (null: the loop plays on). */
  let held: { peak: number; holdMs: number } | null = null;
  const canvas = document.createElement('canvas');
  canvas.width = frames[0]!.width;
  canvas.height = frames[0]!.height;
  const ctx = canvas.getContext('2d')!;
  let started = performance.now();
  const frameIndex = () => {
    const ms = performance.now() - started;
    const elapsed = Math.floor((ms * SEQUENCE_FPS) / 1000);
    if (!held) return elapsed % frames.length;
    if (elapsed < held.peak) return elapsed;
    return ms < (held.peak * 1000) / SEQUENCE_FPS + held.holdMs ? held.peak : 0;
  };
  const paint = () => ctx.putImageData(frames[frameIndex()]!, 0, 0);
  paint();
  const stream = canvas.captureStream(SEQUENCE_FPS);
  const painter = setInterval(paint, 1000 / SEQUENCE_FPS);
  return {
    stream,
    get length() {
      return frames.length;
    },
    frameIndex,
    frame: (i) => frames[i]!,
    play(next, holdMs) {
      const chosen = sequences.get(next);
      if (!chosen) throw new Error(`this camera was not made with "${next}" (it has ${[...sequences.keys()].join(', ')})`);
      const reach = sequencePoses(next, options).map((pose) => Math.abs(pose.turn) + Math.abs(pose.zoom - 1));
      held = holdMs === undefined ? null : { peak: reach.indexOf(Math.max(...reach)), holdMs };
      frames = chosen;
      started = performance.now();
    },
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
