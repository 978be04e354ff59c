/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { RegionReader } from './region-reader.js';
import { frameDifference, isSteady, STEADY_DIFFERENCE } from './steadiness.js';
import { cardScene, guideFor } from './test-helpers.js';

/** The document guide's copy of `scene` moved by (dx, dy) px, as the sampler reads it. */
function read(scene: OffscreenCanvas, dx = 0, dy = 0) {
  const g = guideFor('documentFront', scene.width, scene.height);
  return new RegionReader().read(scene, scene.width, scene.height, { ...g, x: g.x + dx, y: g.y + dy }, 0.06);
}

/** The scene with a luma-neutral noise of ±amplitude (a still camera's grain). */
function noisy(scene: OffscreenCanvas, amplitude: number, seed: number): OffscreenCanvas {
  const canvas = new OffscreenCanvas(scene.width, scene.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(scene, 0, 0);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let s = seed;
  for (let i = 0; i < image.data.length; i += 4) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const n = ((s / 2147483648) * 2 - 1) * amplitude;
    for (let c = 0; c < 3; c++) image.data[i + c] = image.data[i + c]! + n;
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

describe('steadiness', () => {
  it('the same view twice is steady, the first frame is not yet', () => {
    const scene = cardScene();
    expect(frameDifference(read(scene), read(scene))).to.equal(0);
    expect(isSteady(read(scene), read(scene))).to.equal(true);
    expect(isSteady(null, read(scene))).to.equal(false);
  });

  it('sensor grain on a still view stays steady', () => {
    const scene = cardScene();
    const d = frameDifference(read(noisy(scene, 12, 1)), read(noisy(scene, 12, 2)));
    console.log(`grain ±12: difference ${d.toFixed(4)}`);
    expect(d).to.be.below(STEADY_DIFFERENCE);
  });

  it('the card moved by 1 % of the frame is not steady', () => {
    const scene = cardScene();
    const d = frameDifference(read(scene), read(scene, 13, 7));
    console.log(`moved 13x7 px: difference ${d.toFixed(4)}`);
    expect(isSteady(read(scene), read(scene, 13, 7))).to.equal(false);
  });

  it('copies of different sizes are not the same view', () => {
    const scene = cardScene();
    const small = new RegionReader(128).read(scene, 1280, 720, guideFor('documentFront', 1280, 720), 0.06);
    expect(frameDifference(read(scene), small)).to.equal(1);
  });
});
