/**
 * The liveness sequences turn and come closer the way a face-landmark model sees it: frames
 * read back from each sequence's Y4M file (what Chromium's fake camera plays) go through
 * @vladmandic/face-api's tiny face detector and 68-point landmarks (the version the challenge
 * ships, its own weights, on tfjs's WebAssembly backend). Yaw is the nose tip's horizontal offset
 * from the eyes' midpoint over their distance; "closer" is the face box's width growing.
 */
import test, { before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { closeSync, openSync, readSync } from 'node:fs';
import { LIVENESS_SEQUENCES, livenessSequence, renderLivenessFrame, sequencePoses } from '../src/liveness-sequences.mjs';
import type { LivenessSequenceName } from '../src/liveness-sequences.mjs';
import { writeLivenessY4m } from '../src/y4m.mjs';
import { astronautPortrait } from '../src/astronaut.mjs';
import { landmarkModels, type FaceReading } from './face-landmarks.js';

const WIDTH = 640;
const HEIGHT = 480;
const HEADER = `YUV4MPEG2 W${WIDTH} H${HEIGHT} F15:1 Ip A1:1 C420jpeg\n`;
const FRAME_BYTES = 'FRAME\n'.length + WIDTH * HEIGHT * 1.5;

let models: Awaited<ReturnType<typeof landmarkModels>>;
before(async () => {
  models = await landmarkModels(createRequire(import.meta.url).resolve('@vladmandic/face-api/model/tiny_face_detector_model.bin'));
});

/** Frame `i` of a Y4M file as RGB (BT.601 studio range back to full range). */
function readFrame(path: string, i: number): Uint8Array {
  const planes = new Uint8Array(WIDTH * HEIGHT * 1.5);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, planes, 0, planes.length, HEADER.length + i * FRAME_BYTES + 'FRAME\n'.length);
  } finally {
    closeSync(fd);
  }
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3);
  const u0 = WIDTH * HEIGHT;
  const v0 = u0 + (WIDTH / 2) * (HEIGHT / 2);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const c = (y >> 1) * (WIDTH / 2) + (x >> 1);
      const l = 1.164 * (planes[y * WIDTH + x]! - 16);
      const u = planes[u0 + c]! - 128;
      const v = planes[v0 + c]! - 128;
      const o = (y * WIDTH + x) * 3;
      rgb[o] = l + 1.596 * v;
      rgb[o + 1] = l - 0.392 * u - 0.813 * v;
      rgb[o + 2] = l + 2.017 * u;
    }
  }
  return rgb;
}

const written = new Map<LivenessSequenceName, ReturnType<typeof writeLivenessY4m>>();
function y4m(name: LivenessSequenceName) {
  if (!written.has(name)) written.set(name, writeLivenessY4m(name));
  return written.get(name)!;
}

/** Every `step`th frame's reading by the tiny landmark model (the one the challenge runs). */
async function curve(name: LivenessSequenceName, step = 3): Promise<FaceReading[]> {
  const { path, frames } = y4m(name);
  const readings: FaceReading[] = [];
  for (let i = 0; i < frames; i += step) readings.push(await models.read(readFrame(path, i), WIDTH, HEIGHT, 'tiny'));
  return readings;
}

const shown = (readings: FaceReading[]) => readings.map((r) => `${r.yaw.toFixed(2)}/${Math.round(r.width)}`).join(' ');

test('each sequence is a 640x480 Y4M at 15 fps with one frame per pose', () => {
  for (const name of LIVENESS_SEQUENCES) {
    const { path, frames, bytes } = y4m(name);
    const fd = openSync(path, 'r');
    const head = Buffer.alloc(HEADER.length);
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    assert.equal(head.toString('latin1'), HEADER, name);
    assert.equal(frames, sequencePoses(name).length, name);
    assert.equal(bytes, HEADER.length + frames * FRAME_BYTES, name);
  }
  assert.throws(() => sequencePoses('nod' as LivenessSequenceName), /no liveness sequence named "nod" \(there are: still, turn-left/);
});

test('still: the face stays frontal and the same size', async (t) => {
  const readings = await curve('still', 5);
  t.diagnostic(`yaw/width: ${shown(readings)}`);
  for (const r of readings) assert.ok(Math.abs(r.yaw) <= 0.05, `yaw ${r.yaw}`);
  assert.ok(Math.max(...readings.map((r) => r.width)) / Math.min(...readings.map((r) => r.width)) < 1.02);
});

for (const [name, sign] of [
  ['turn-left', 1],
  ['turn-right', -1],
] as const) {
  test(`${name}: the yaw crosses ${sign * 0.15} and comes back, with either landmark model`, async (t) => {
    const readings = await curve(name);
    t.diagnostic(`yaw/width: ${shown(readings)}`);
    const peak = Math.max(...readings.map((r) => sign * r.yaw));
    assert.ok(peak >= 0.15, `peak ${sign * peak}`);
    assert.ok(Math.min(...readings.map((r) => sign * r.yaw)) > -0.05, 'never turns the other way');
    for (const r of [readings[0]!, readings.at(-1)!]) assert.ok(Math.abs(r.yaw) <= 0.05, `starts and ends frontal: ${r.yaw}`);
    // The full 68-point model reads the held turn too.
    const held = sequencePoses(name).findIndex((pose) => Math.abs(pose.turn) === 1);
    const full = await models.read(readFrame(y4m(name).path, held), WIDTH, HEIGHT, 'full');
    t.diagnostic(`full model at the held turn: ${full.yaw.toFixed(3)}`);
    assert.ok(sign * full.yaw >= 0.15, `full model: ${full.yaw}`);
  });
}

test('come-closer: the face box grows by a quarter or more and the face stays frontal', async (t) => {
  const readings = await curve('come-closer');
  t.diagnostic(`yaw/width: ${shown(readings)}`);
  const first = readings[0]!.width;
  assert.ok(Math.max(...readings.map((r) => r.width)) >= 1.25 * first);
  assert.ok(readings.at(-1)!.width < 1.05 * first, 'comes back');
  for (const r of readings) assert.ok(Math.abs(r.yaw) <= 0.05, `yaw ${r.yaw}`);
});

test('at 1280x720 (the least the selfie step keeps) the face has its place and the turn its yaw', async () => {
  const sequence = livenessSequence(astronautPortrait(), 'turn-left', { width: 1280, height: 720 });
  const rgb = (i: number) => {
    const { rgba } = sequence.frame(i);
    return Uint8Array.from({ length: 1280 * 720 * 3 }, (_, j) => rgba[Math.floor(j / 3) * 4 + (j % 3)]!);
  };
  const frontal = await models.read(rgb(0), 1280, 720, 'tiny');
  const turned = await models.read(rgb(sequence.poses.findIndex((pose) => pose.turn === 1)), 1280, 720, 'tiny');
  assert.ok(Math.abs(frontal.yaw) <= 0.05 && turned.yaw >= 0.15, `yaw ${frontal.yaw} then ${turned.yaw}`);
  // The face keeps its share of the height: 1.5 times its width at 480 px high.
  const small = await models.read(readFrame(y4m('turn-left').path, 0), WIDTH, HEIGHT, 'tiny');
  assert.ok(Math.abs(frontal.width / small.width - 1.5) < 0.1, `${frontal.width} against ${small.width}`);
  assert.throws(
    () => renderLivenessFrame(astronautPortrait(), { turn: 0, zoom: 1 }, { width: 641, height: 480 }),
    /even width and height, not 641x480/,
  );
});

test('challenge: one loop turns left, comes closer and turns right', async (t) => {
  const readings = await curve('challenge');
  t.diagnostic(`yaw/width: ${shown(readings)}`);
  const yaws = readings.map((r) => r.yaw);
  const widths = readings.map((r) => r.width);
  const left = yaws.findIndex((y) => y >= 0.15);
  const closer = widths.findIndex((w) => w >= 1.25 * widths[0]!);
  const right = yaws.findIndex((y) => y <= -0.15);
  assert.ok(left > 0 && closer > left && right > closer, `left at ${left}, closer at ${closer}, right at ${right}`);
  assert.ok(Math.abs(yaws.at(-1)!) <= 0.05 && widths.at(-1)! < 1.05 * widths[0]!, 'ends where it starts, so it loops');
});
