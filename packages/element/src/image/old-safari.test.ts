/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { sniffBase64 } from '@onboarding-kit/contract';
import type { processImage as ProcessImage } from './pipeline.js';
import { degradedCard } from './test-helpers.js';

/**
 * Safari before 16.4 has no OffscreenCanvas at all. Simulated in a frame that deletes it before
 * the pipeline module is evaluated there (each document has its own module map, so the frame
 * gets its own copy of the pipeline): photos are prepared on the page with a plain canvas.
 */
async function pipelineWithoutOffscreenCanvas(): Promise<{ processImage: typeof ProcessImage; frame: HTMLIFrameElement; hasOffscreenCanvas: boolean }> {
  const frame = document.createElement('iframe');
  frame.srcdoc = `<!doctype html><html><head>
    <script>delete window.OffscreenCanvas;</script>
    <script type="module">
      import { processImage } from '/packages/element/src/image/pipeline.ts';
      window.pipelineReady = { processImage, hasOffscreenCanvas: typeof OffscreenCanvas !== 'undefined' };
    </script></head><body></body></html>`;
  document.body.append(frame);
  const win = frame.contentWindow as unknown as { pipelineReady?: { processImage: typeof ProcessImage; hasOffscreenCanvas: boolean } };
  const deadline = Date.now() + 20_000;
  while (!win.pipelineReady) {
    if (Date.now() > deadline) throw new Error('the pipeline never loaded in the frame');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ...win.pipelineReady, frame };
}

describe('processImage without OffscreenCanvas (Safari before 16.4)', () => {
  it('prepares photos on the main thread with a plain canvas, and accepts them', async function () {
    this.timeout(60_000);
    const { processImage, frame, hasOffscreenCanvas } = await pipelineWithoutOffscreenCanvas();
    try {
      expect(hasOffscreenCanvas).to.equal(false);
      const fits = await processImage(await canvasBlob(cardCanvas()), { role: 'documentFront' });
      URL.revokeObjectURL(fits.previewUrl);
      expect(fits.processedIn).to.equal('main-thread');
      expect(sniffBase64(fits.base64)).to.equal('image/jpeg');
      expect([fits.width, fits.height]).to.deep.equal([1280, 720]);
      const resized = await processImage(await canvasBlob(cardCanvas(2400, 1350)), { role: 'documentFront', maxBytes: 200 * 1024 });
      URL.revokeObjectURL(resized.previewUrl);
      expect(resized.processedIn).to.equal('main-thread');
      expect(Math.max(resized.width, resized.height)).to.be.at.most(2000);
      expect(resized.bytes).to.be.at.most(200 * 1024);
      // The checks still run: a blurred picture is still refused.
      const blurred = await processImage(await canvasBlob(degradedCard('blurry')), { role: 'documentFront' }).then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
      expect(blurred?.code).to.equal('blurry');
    } finally {
      frame.remove();
    }
  });
});
