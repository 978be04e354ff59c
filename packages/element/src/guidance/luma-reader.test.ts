/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, onlyIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { analyzeFrame, ANALYSIS_LONG_EDGE } from './frame-analysis.js';
import { hasLumaPlane, readLuma } from './luma-reader.js';
import { RegionReader } from './region-reader.js';
import { guideFor } from './test-helpers.js';

const hasVideoFrame = typeof VideoFrame === 'function';

/** An I420 frame whose luma is `luma(x, y)` (limited range), chroma neutral. */
function i420(width: number, height: number, luma: (x: number, y: number) => number): VideoFrame {
  const data = new Uint8Array(width * height * 1.5).fill(128);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = luma(x, y);
  return new VideoFrame(data, { format: 'I420', codedWidth: width, codedHeight: height, timestamp: 0 });
}

describe('readLuma: the grey copy from a frame’s luma plane', () => {
  before(function () {
    if (!hasVideoFrame) this.skip();
  });

  it('stretches limited-range luma to 0..255, averages each copy pixel, and is mid grey outside the frame', async () => {
    // Black (16) up to x = 33, white (235) after; the region is the whole frame, with a 25 %
    // margin: a sixth of the copy on each side lies outside the frame (2 frame pixels a copy pixel).
    const frame = i420(64, 32, (x) => (x < 33 ? 16 : 235));
    try {
      expect(hasLumaPlane(frame)).to.equal(true);
      const copy = await readLuma(frame, { x: 0, y: 0, width: 64, height: 32 }, 0.25, 48);
      expect([copy.width, copy.height]).to.deep.equal([48, 24]);
      const at = (x: number, y: number) => copy.grey[y * copy.width + x]!;
      expect(at(0, 12)).to.equal(128); // left of the frame
      expect(at(47, 12)).to.equal(128); // right of it
      expect(at(24, 0)).to.equal(128); // above it
      expect(at(12, 12)).to.equal(0); // the black half
      expect(at(36, 12)).to.equal(255); // the white half
      // The copy pixel across the edge (frame x 32 and 33) is the mean of the two sides.
      expect(at(24, 12)).to.be.closeTo(127.5, 1);
    } finally {
      frame.close();
    }
  });

  it('an RGB frame is left to the canvas reader', () => {
    const canvas = new OffscreenCanvas(16, 16);
    canvas.getContext('2d')!.fillRect(0, 0, 16, 16);
    const frame = new VideoFrame(canvas, { timestamp: 0 });
    try {
      expect(hasLumaPlane(frame)).to.equal(frame.format !== null && /^(I4|NV12)/.test(frame.format));
    } finally {
      frame.close();
    }
  });

  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'on the fake camera’s card, the luma copy reads what the canvas copy reads: the same fit, exposure and (within 15 %) focus',
    async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 } });
      const video = document.createElement('video');
      video.muted = true;
      video.srcObject = stream;
      document.body.append(video);
      try {
        await video.play();
        await new Promise<void>((r) =>
          (video as HTMLVideoElement & { requestVideoFrameCallback(cb: () => void): number }).requestVideoFrameCallback(() => r()),
        );
        const frame = new VideoFrame(video);
        try {
          expect(hasLumaPlane(frame), `format ${frame.format}`).to.equal(true);
          const g = guideFor('documentFront', frame.displayWidth, frame.displayHeight);
          const luma = await readLuma(frame, g, 0.06, ANALYSIS_LONG_EDGE);
          const canvas = new RegionReader().read(frame, frame.displayWidth, frame.displayHeight, g, 0.06);
          expect([luma.width, luma.height]).to.deep.equal([canvas.width, canvas.height]);
          const a = analyzeFrame(luma, { role: 'documentFront', margin: 0.06 });
          const b = analyzeFrame(canvas, { role: 'documentFront', margin: 0.06 });
          console.log(
            `luma copy: brightness ${a.brightness.toFixed(1)} sharpness ${a.sharpness.toFixed(0)} ${a.card}; canvas copy: ${b.brightness.toFixed(1)} ${b.sharpness.toFixed(0)} ${b.card}`,
          );
          expect(a.card).to.equal(b.card);
          expect(a.hint).to.equal(b.hint);
          expect(a.brightness).to.be.closeTo(b.brightness, 4);
          expect(a.sharpness / b.sharpness).to.be.within(0.85, 1.15);
        } finally {
          frame.close();
        }
      } finally {
        stream.getTracks().forEach((t) => t.stop());
        video.remove();
      }
    },
  );
});
