/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { html } from 'lit';
import { imageErrors } from '../messages/image-errors.js';
import { CaptureController, type CaptureOptions, type PipelineLimits } from './capture-controller.js';
import { mountHost, recordEvents, settle, testContext } from './test-helpers.js';

/** The controller with the real, lazily loaded pipeline (capture-controller.test.ts fakes it). */
async function setup(limits: PipelineLimits = {}, loadPipeline?: CaptureOptions['loadPipeline']) {
  const host = await mountHost();
  const capture = new CaptureController(host, {
    activeRole: () => 'documentFront',
    limits: () => limits,
    context: testContext(),
    announce: () => {},
    ...(loadPipeline ? { loadPipeline } : {}),
  });
  host.view = () => html`<video></video>`;
  host.requestUpdate();
  await host.updateComplete;
  const input = document.createElement('input');
  input.type = 'file';
  input.addEventListener('change', (e) => capture.pickFile(e));
  return { host, capture, input, events: recordEvents(host) };
}

async function pickAndWait(input: HTMLInputElement, capture: CaptureController, blob: Blob): Promise<void> {
  const transfer = new DataTransfer();
  transfer.items.add(new File([blob], 'photo.png', { type: blob.type }));
  input.files = transfer.files;
  input.dispatchEvent(new Event('change'));
  await settle();
  const deadline = Date.now() + 20_000;
  while (capture.checking) {
    if (Date.now() > deadline) throw new Error('the photo was never done');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('CaptureController with the real image pipeline', () => {
  it('onboarding-capture says the photo was processed in the worker', async () => {
    const { capture, input, events } = await setup();
    await pickAndWait(input, capture, await canvasBlob(cardCanvas()));
    const captured = events.filter((e) => e.type === 'onboarding-capture');
    // Its first JPEG is within the byte cap: the own encode, once (the library is for a JPEG over the cap).
    expect(captured.map((e) => e.detail)).to.deep.equal([
      {
        role: 'documentFront',
        bytes: capture.photo('documentFront')!.bytes,
        width: 1280,
        height: 720,
        processedIn: 'worker',
        processedBy: 'own',
      },
    ]);
    capture.reset();
  });

  it('a photo that cannot be prepared: onboarding-error says why, and the step shows the refusal', async () => {
    const { capture, input, events } = await setup({ maxBytes: 100 });
    await pickAndWait(input, capture, await canvasBlob(cardCanvas()));
    expect(capture.rejectedFor('documentFront')?.code).to.equal('compression-failed');
    const errors = events.filter((e) => e.type === 'onboarding-error').map((e) => e.detail);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ code: 'image_compression-failed', message: imageErrors.en['compression-failed'] });
    expect(errors[0].reason).to.contain('could not be made small enough');
    capture.reset();
  });

  it("a pipeline module that does not load: onboarding-error carries the loader's reason", async () => {
    const { capture, input, events } = await setup({}, () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: pipeline.js')),
    );
    await pickAndWait(input, capture, await canvasBlob(cardCanvas()));
    const errors = events.filter((e) => e.type === 'onboarding-error').map((e) => e.detail);
    expect(errors).to.have.length(1);
    expect(errors[0].reason).to.equal('TypeError: Failed to fetch dynamically imported module: pipeline.js');
    capture.reset();
  });
});
