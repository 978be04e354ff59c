/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import type { LivenessPrompt } from '@onboarding-kit/contract';
import { CHALLENGE_RULES, challengeReport, startChallenge, stepChallenge } from './challenge-rules.js';
import { FaceModelUnavailableError, livenessWorker } from './liveness-client.js';
import { TRACK } from './face-track.js';
import type { FaceAnalysis } from './liveness-protocol.js';
import { ASTRONAUT_URL, closerFace, mirrored, turnedFace } from './test-helpers.js';

let astronaut: Blob;
before(async () => {
  astronaut = await (await fetch(ASTRONAUT_URL)).blob();
});

describe('the liveness worker', function () {
  this.timeout(60_000);

  it('finds the astronaut’s one face, its box and a frontal yaw', async () => {
    const worker = livenessWorker();
    await worker.loadModel();
    const { analysis, ms } = await worker.analyse(await createImageBitmap(astronaut));
    expect(analysis.faces).to.equal(1);
    const box = analysis.box!;
    // Her face sits in the upper middle of the 512 px portrait.
    expect(box.x).to.be.within(0.25, 0.5);
    expect(box.width).to.be.within(0.15, 0.4);
    expect(box.y).to.be.within(0.02, 0.3);
    expect(Math.abs(analysis.yaw!)).to.be.below(0.2);
    expect(ms).to.be.above(0);
  });

  it('reads the nose moving to the frame’s right as a positive yaw, the frame mirrored as a negative one', async () => {
    const worker = livenessWorker();
    const bitmap = await createImageBitmap(astronaut);
    const flippedFrame = mirrored(bitmap);
    const [straight, flipped] = [await worker.analyse(bitmap), await worker.analyse(flippedFrame)];
    expect(flipped.analysis.yaw!).to.be.closeTo(-straight.analysis.yaw!, 0.05);
  });

  it('follows one video’s face in a square around it, finding the same outline and yaw as a look at the whole frame', async () => {
    const worker = livenessWorker();
    const portrait = await createImageBitmap(astronaut);
    // The selfie's part of the portrait, as the challenge sends it: 240x320, her face in the middle.
    const selfie = new OffscreenCanvas(240, 320);
    selfie.getContext('2d')!.drawImage(portrait, 75, 0, 360, 480, 0, 0, 240, 320);
    const whole = await worker.analyse(await createImageBitmap(selfie));
    expect(whole.look).to.equal('whole');
    const looks: string[] = [];
    for (let i = 0; i < 2 * TRACK.wholeEvery; i++) {
      const { analysis, look } = await worker.analyse(await createImageBitmap(selfie), 4242);
      looks.push(look);
      expect(analysis.faces, `frame ${i}`).to.equal(1);
      expect(analysis.box!.width, `frame ${i}: the outline's width`).to.be.closeTo(
        whole.analysis.box!.width,
        0.1 * whole.analysis.box!.width,
      );
      expect(analysis.box!.x + analysis.box!.width / 2, `frame ${i}: the outline's centre`).to.be.closeTo(
        whole.analysis.box!.x + whole.analysis.box!.width / 2,
        0.03,
      );
      expect(analysis.yaw!, `frame ${i}: the yaw`).to.be.closeTo(whole.analysis.yaw!, 0.06);
    }
    // The first frame of the video finds the face whole; then the square, the whole frame's faces counted one frame in four.
    const cycle = [...Array(TRACK.wholeEvery - 1).fill('square'), 'square+count'];
    expect(looks).to.deep.equal(['whole', ...cycle, ...cycle].slice(0, looks.length));
  });

  it('counts a second face coming in while one is followed, within TRACK.wholeEvery frames', async () => {
    const worker = livenessWorker();
    const portrait = await createImageBitmap(astronaut);
    const scene = (second: boolean) => {
      const canvas = new OffscreenCanvas(480, 320);
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = 'rgb(128, 128, 128)';
      ctx.fillRect(0, 0, 480, 320);
      // Her face filling each half, as large in the frame as two people side by side at a laptop.
      ctx.drawImage(portrait, 135, 5, 180, 240, 0, 0, 240, 320);
      if (second) ctx.drawImage(mirrored(portrait), 197, 5, 180, 240, 240, 0, 240, 320);
      return canvas;
    };
    const alone = scene(false);
    const two = scene(true);
    expect((await worker.analyse(await createImageBitmap(two))).analysis.faces, 'two faces, looked at whole').to.equal(2);
    for (let i = 0; i < 2; i++) expect((await worker.analyse(await createImageBitmap(alone), 5151)).analysis.faces).to.equal(1);
    const counts: number[] = [];
    for (let i = 0; i < TRACK.wholeEvery; i++) counts.push((await worker.analyse(await createImageBitmap(two), 5151)).analysis.faces);
    expect(counts, 'the faces counted while the first is followed').to.include(2);
  });

  it('judges a selfie as the face check does, with codes unchanged', async () => {
    const worker = livenessWorker();
    const judgement = await worker.judge(astronaut);
    expect(judgement.faces).to.have.length(1);
    const empty = new OffscreenCanvas(300, 400);
    const ctx = empty.getContext('2d')!;
    ctx.fillStyle = 'rgb(128, 128, 128)';
    ctx.fillRect(0, 0, 300, 400);
    expect((await worker.judge(empty.transferToImageBitmap())).verdict).to.equal('no-face');
  });

  it('a worker whose script answers 404 rejects the model and the face check, and never hangs', async () => {
    const broken = livenessWorker(new URL('./missing-liveness-worker.js', location.href).href);
    const error = await broken.loadModel().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(FaceModelUnavailableError);
    expect(await broken.judge(astronaut).catch((e: unknown) => e)).to.be.instanceOf(Error);
  });

  it('a model that answers 404 is unavailable while the face check in the same worker goes on', async () => {
    const withoutModel = livenessWorker(new URL('/liveness-without-model/onboarding-flow.liveness-worker.js', location.href).href);
    const error = await withoutModel.loadModel().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(FaceModelUnavailableError);
    expect(await withoutModel.analyse(await createImageBitmap(astronaut)).catch((e: unknown) => e)).to.be.instanceOf(
      FaceModelUnavailableError,
    );
    expect((await withoutModel.judge(astronaut)).faces).to.have.length(1);
  });

  describe('with the challenge’s rules, on frames made from the portrait', () => {
    /** The worker's analysis of each distinct frame, made once: a loop replays them. */
    let frames: Record<'front' | 'left' | 'right' | 'closer', FaceAnalysis>;
    before(async function () {
      this.timeout(90_000);
      const portrait = await createImageBitmap(astronaut);
      const worker = livenessWorker();
      const analyse = async (bitmap: ImageBitmap) => (await worker.analyse(bitmap)).analysis;
      frames = {
        front: await analyse(await createImageBitmap(portrait)),
        left: await analyse(turnedFace(portrait, 35)),
        // The same turn, mirrored: the nose towards the frame's left.
        right: await analyse(mirrored(turnedFace(portrait, 35))),
        closer: await analyse(closerFace(portrait, 1.45)),
      };
    });

    /** Plays `loop` over and over, one frame every `gapMs`, until the challenge ends or `count` frames. */
    function play(prompts: LivenessPrompt[], loop: FaceAnalysis[], count: number, gapMs: number) {
      let state = startChallenge(prompts);
      for (let i = 0; i < count; i++) state = stepChallenge(state, { ...loop[i % loop.length]!, at: i * gapMs }).state;
      return challengeReport(state);
    }

    it('a looped head-turn and come-closer sequence passes, whatever the prompts and their order', () => {
      const { front, left, right, closer } = frames;
      const loop = [front, front, front, left, left, left, front, right, right, right, front, closer, closer, closer];
      for (const prompts of [
        ['turn-left', 'come-closer'],
        ['come-closer', 'turn-left'],
        ['turn-right', 'come-closer'],
        ['come-closer', 'turn-right'],
      ] as LivenessPrompt[][]) {
        expect(play(prompts, loop, 3 * loop.length, 200), prompts.join()).to.deep.equal({
          result: 'passed',
          prompts: prompts.map((prompt) => ({ prompt, met: true })),
        });
      }
    });

    it('a still photo fails: it meets no turn before the time runs out', () => {
      const frameCount = 3 + Math.ceil((2 * CHALLENGE_RULES.promptMs) / 500) + 2;
      for (const prompts of [
        ['turn-left', 'come-closer'],
        ['come-closer', 'turn-right'],
      ] as LivenessPrompt[][]) {
        const report = play(prompts, [frames.front], frameCount, 500);
        expect(report.result).to.equal('failed');
        expect(report.prompts.find((p) => p.prompt.startsWith('turn'))).to.deep.include({ met: false });
      }
    });
  });
});
