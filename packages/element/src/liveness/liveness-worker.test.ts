/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { FaceModelUnavailableError, livenessWorker } from './liveness-client.js';

/** NASA's portrait of Eileen Collins (public domain): see test/fixtures/faces/README.md. */
const ASTRONAUT_URL = new URL('../../test/fixtures/faces/astronaut.jpg', import.meta.url).href;

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
    const mirrored = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = mirrored.getContext('2d')!;
    ctx.scale(-1, 1);
    ctx.drawImage(bitmap, -bitmap.width, 0);
    const [straight, flipped] = [await worker.analyse(bitmap), await worker.analyse(mirrored.transferToImageBitmap())];
    expect(flipped.analysis.yaw!).to.be.closeTo(-straight.analysis.yaw!, 0.05);
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
});
