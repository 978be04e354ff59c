/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { livenessCamera, standInForCamera } from '@onboarding-kit/testing/liveness-camera';
import { sequencePoses } from '@onboarding-kit/testing/liveness-sequences';

/** Mean absolute difference of two 640x480 pictures over the face's box (x 230-420, y 90-330). */
function faceDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let sum = 0;
  let n = 0;
  for (let y = 90; y < 330; y += 2) {
    for (let x = 230; x < 420; x += 2) {
      const o = (y * 640 + x) * 4;
      sum += Math.abs(a[o]! - b[o]!) + Math.abs(a[o + 1]! - b[o + 1]!) + Math.abs(a[o + 2]! - b[o + 2]!);
      n += 3;
    }
  }
  return sum / n;
}

describe('the liveness sequences as a stand-in camera', () => {
  it('getUserMedia gives a live 640x480 stream that turns the head and comes back, in a loop', async function () {
    this.timeout(120_000);
    const camera = await livenessCamera('turn-left');
    const restore = standInForCamera(camera);
    const video = document.createElement('video');
    video.muted = true;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true });
      video.srcObject = stream;
      document.body.append(video);
      await video.play();
      while (video.videoWidth === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect([video.videoWidth, video.videoHeight]).to.deep.equal([640, 480]);
      const baseline = camera.frame(0).data;
      const held = camera.frame(sequencePoses('turn-left').findIndex((pose) => pose.turn === 1)).data;
      expect(faceDifference(baseline, held)).to.be.above(8);
      const canvas = new OffscreenCanvas(640, 480);
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      // One loop and a bit, a sample every 150 ms: which of the two poses each is nearer to.
      const nearer: string[] = [];
      for (const end = performance.now() + (camera.length / 15) * 1000 + 600; performance.now() < end; ) {
        ctx.drawImage(video, 0, 0);
        const seen = ctx.getImageData(0, 0, 640, 480).data;
        const toBaseline = faceDifference(seen, baseline);
        const toHeld = faceDifference(seen, held);
        nearer.push(toHeld < toBaseline / 3 ? 'turned' : toBaseline < toHeld / 3 ? 'frontal' : 'between');
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(nearer, nearer.join(' ')).to.include('turned');
      expect(nearer.indexOf('frontal'), nearer.join(' ')).to.be.at.least(0);
      expect(nearer.lastIndexOf('frontal'), nearer.join(' ')).to.be.above(nearer.indexOf('turned'));
    } finally {
      restore();
      camera.stop();
      (video.srcObject as MediaStream | null)?.getTracks().forEach((track) => track.stop());
      video.remove();
    }
  });
});
