/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { sniffBase64 } from '@onboarding-kit/contract';
import type { processImage as ProcessImage } from './pipeline.js';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  CPF,
  chooseType,
  companionNamespace,
  passConsent,
  passCpf,
  pickFile,
  preview,
  root,
  waitFor,
  photoFor,
} from '../onboarding-flow/test-helpers.js';
import { degradedCard } from './test-helpers.js';

/**
 * Safari before 16.4 has no OffscreenCanvas at all. Simulated in a frame that deletes it before
 * the pipeline module is evaluated there (each document has its own module map, so the frame
 * gets its own copy of the pipeline): photos are prepared on the page with a plain canvas.
 */
async function pipelineWithoutOffscreenCanvas(): Promise<{
  processImage: typeof ProcessImage;
  frame: HTMLIFrameElement;
  hasOffscreenCanvas: boolean;
}> {
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
      // The compression library is the worker's only: on the page the own canvas encode runs.
      expect(fits.processedBy).to.equal('own');
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

describe('<onboarding-flow> without OffscreenCanvas (Safari before 16.4)', () => {
  it('accepts a picked photo, prepared on the main thread, and says so in onboarding-capture', async function () {
    this.timeout(90_000);
    const frame = document.createElement('iframe');
    frame.style.width = '800px';
    frame.style.height = '900px';
    frame.srcdoc = `<!doctype html><html lang="en"><head>
      <script>delete window.OffscreenCanvas;</script>
      <script type="module" src="/packages/element/src/index.ts"></script>
      </head><body></body></html>`;
    document.body.append(frame);
    try {
      const win = frame.contentWindow! as Window & typeof globalThis;
      await waitFor(() => !!win.customElements?.get('onboarding-flow'), 'the element never loaded in the frame');
      expect('OffscreenCanvas' in win).to.equal(false);
      const el = win.document.createElement('onboarding-flow') as OnboardingFlow;
      el.endpoint = `/test-companion/${companionNamespace()}`;
      el.setAttribute('locale', 'en');
      win.document.body.append(el);
      await el.updateComplete;
      const captures: { processedIn?: string }[] = [];
      el.addEventListener('onboarding-capture', (e) => captures.push((e as CustomEvent).detail));
      await passConsent(el);
      await passCpf(el, CPF.approved);
      await chooseType(el, 'CNH');
      await pickFile(el, await photoFor(el));
      expect(preview(el), root(el).textContent!).to.exist;
      expect(captures.map((c) => c.processedIn)).to.deep.equal(['main-thread']);
    } finally {
      frame.remove();
    }
  });
});
