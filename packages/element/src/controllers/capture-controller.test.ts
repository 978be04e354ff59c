/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, skipIn } from '@onboarding-kit/testing/engine';
import { base64ToBytes } from '@onboarding-kit/contract';
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { html, nothing } from 'lit';
import type { CaptureRole, FramePixels, PipelineOptions, ProcessedImage, processImage } from '../image/pipeline.js';
import { faceTips, imageErrors } from '../messages/image-errors.js';
import { cameraErrorTexts } from '../capture-view/camera-error-texts.js';
import { en } from '../messages/index.js';
import { CaptureController } from './capture-controller.js';
import { deferred, isRevoked, jpeg, mountHost, processedImage, recordEvents, settle, testContext, type Deferred } from './test-helpers.js';

interface PipelineCall {
  source: Blob | FramePixels;
  options: PipelineOptions;
  result: Deferred<ProcessedImage>;
}

async function setup() {
  const host = await mountHost();
  const state: { role: CaptureRole | null } = { role: 'documentFront' };
  const announced: string[] = [];
  const calls: PipelineCall[] = [];
  const fakeProcessImage = ((source: Blob | FramePixels, options: PipelineOptions) => {
    const result = deferred<ProcessedImage>();
    calls.push({ source, options, result });
    return result.promise;
  }) as typeof processImage;
  const capture = new CaptureController(host, {
    activeRole: () => state.role,
    limits: () => ({ maxBytes: 500_000 }),
    context: testContext(),
    announce: (text) => announced.push(text),
    loadPipeline: async () => ({ processImage: fakeProcessImage, imageErrors, faceTips }),
  });
  const input = document.createElement('input');
  input.type = 'file';
  input.addEventListener('change', (e) => capture.pickFile(e));
  host.view = () => (state.role ? html`<video></video>` : nothing);
  host.requestUpdate();
  await host.updateComplete;
  return { host, capture, state, announced, calls, input, events: recordEvents(host) };
}

async function pick(input: HTMLInputElement, blob: Blob, name = 'photo.jpg'): Promise<void> {
  const transfer = new DataTransfer();
  transfer.items.add(new File([blob], name, { type: blob.type }));
  input.files = transfer.files;
  input.dispatchEvent(new Event('change'));
  await settle();
}

/**
 * Waits until the pipeline has been called `count` times: by the clock, not by turns of the event
 * loop (a camera's next frame can take a while on a loaded machine, WebKit's especially).
 */
async function calledTimes(calls: PipelineCall[], count: number, withinMs = 20_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (calls.length < count && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(calls).to.have.length(count);
}

afterEach(async () => {
  await executeServerCommand('camera-permission', { grant: true });
});

describe('CaptureController', () => {
  it('checks a picked file and keeps the accepted photo, telling the page without the image', async () => {
    const { capture, announced, calls, input, events } = await setup();
    await pick(input, await jpeg());
    await calledTimes(calls, 1);
    expect(input.value).to.equal('');
    expect(capture.checking).to.equal(true);
    expect(calls[0]!.options).to.include({ role: 'documentFront', maxBytes: 500_000 });
    expect(calls[0]!.options.signal!.aborted).to.equal(false);
    const image = await processedImage('documentFront');
    calls[0]!.result.resolve(image);
    await settle();
    expect(capture.photo('documentFront')).to.equal(image);
    expect(capture.checking).to.equal(false);
    expect(announced).to.deep.equal([en.capture.checking, en.capture.accepted]);
    expect(events.map((e) => [e.type, e.detail])).to.deep.equal([
      [
        'onboarding-capture',
        { role: 'documentFront', bytes: image.bytes, width: 64, height: 48, processedIn: 'worker', processedBy: 'library' },
      ],
    ]);
  });

  it('revokes the object URL of a photo that is replaced, removed or cleared', async () => {
    const { capture, calls, input } = await setup();
    const first = await processedImage('documentFront');
    await pick(input, await jpeg());
    await calledTimes(calls, 1);
    calls[0]!.result.resolve(first);
    await settle();
    const second = await processedImage('documentFront', '#a36');
    await pick(input, await jpeg());
    await calledTimes(calls, 2);
    calls[1]!.result.resolve(second);
    await settle();
    expect(await isRevoked(first.previewUrl)).to.equal(true);
    expect(await isRevoked(second.previewUrl)).to.equal(false);
    capture.remove('documentFront');
    expect(capture.photo('documentFront')).to.equal(undefined);
    expect(await isRevoked(second.previewUrl)).to.equal(true);

    const third = await processedImage('documentFront');
    await pick(input, await jpeg());
    await calledTimes(calls, 3);
    calls[2]!.result.resolve(third);
    await settle();
    capture.clear();
    expect(capture.photos).to.deep.equal({});
    expect(await isRevoked(third.previewUrl)).to.equal(true);
  });

  it('a result that arrives after the step was left is discarded and its URL revoked', async () => {
    const { capture, calls, input, events } = await setup();
    await pick(input, await jpeg());
    await calledTimes(calls, 1);
    capture.leaveStep();
    expect(calls[0]!.options.signal!.aborted).to.equal(true);
    expect(capture.checking).to.equal(false);
    const late = await processedImage('documentFront');
    calls[0]!.result.resolve(late);
    await settle();
    expect(capture.photo('documentFront')).to.equal(undefined);
    expect(await isRevoked(late.previewUrl)).to.equal(true);
    expect(events).to.have.length(0);
  });

  it('the newest photo wins: an older check that ends later changes nothing', async () => {
    const { capture, calls, input } = await setup();
    await pick(input, await jpeg(), 'a.jpg');
    await calledTimes(calls, 1);
    await pick(input, await jpeg('#a36'), 'b.jpg');
    await calledTimes(calls, 2);
    expect(calls[0]!.options.signal!.aborted).to.equal(true);
    const older = await processedImage('documentFront');
    calls[0]!.result.resolve(older);
    await settle();
    // Still checking the newer one.
    expect(capture.checking).to.equal(true);
    expect(capture.photo('documentFront')).to.equal(undefined);
    const newer = await processedImage('documentFront', '#a36');
    calls[1]!.result.resolve(newer);
    await settle();
    expect(capture.photo('documentFront')).to.equal(newer);
    expect(capture.checking).to.equal(false);
    expect(await isRevoked(older.previewUrl)).to.equal(true);
  });

  it('a refused photo is kept with its reason (and shown when it is an image) until retaken', async () => {
    const { capture, calls, input, events } = await setup();
    await pick(input, await jpeg());
    await calledTimes(calls, 1);
    calls[0]!.result.reject(Object.assign(new Error('blurry'), { code: 'blurry' }));
    await settle();
    const rejected = capture.rejectedFor('documentFront')!;
    expect(rejected.code).to.equal('blurry');
    expect(await isRevoked(rejected.previewUrl!)).to.equal(false);
    expect(capture.rejectedFor('selfie')).to.equal(null);
    expect(capture.checking).to.equal(false);
    expect(events).to.have.length(0);
    capture.retake();
    expect(capture.rejectedFor('documentFront')).to.equal(null);
    expect(await isRevoked(rejected.previewUrl!)).to.equal(true);

    // Not an image: nothing to show. An error without a known code: the compression failed.
    await pick(input, new Blob(['%PDF-1.4'], { type: 'image/jpeg' }));
    await calledTimes(calls, 2);
    calls[1]!.result.reject(Object.assign(new Error('no'), { code: 'not-an-image' }));
    await settle();
    expect(capture.rejectedFor('documentFront')).to.deep.equal({
      role: 'documentFront',
      code: 'not-an-image',
      previewUrl: null,
      canKeep: false,
      stuck: false,
    });
    await pick(input, await jpeg());
    await calledTimes(calls, 3);
    calls[2]!.result.reject(new TypeError('worker died'));
    await settle();
    expect(capture.rejectedFor('documentFront')!.code).to.equal('compression-failed');
  });

  it('revokes every URL when the host leaves the document and shows the same photos when it returns', async () => {
    const { host, capture, calls, input, state } = await setup();
    await pick(input, await jpeg());
    await calledTimes(calls, 1);
    const image = await processedImage('documentFront');
    calls[0]!.result.resolve(image);
    await settle();
    state.role = 'selfie';
    await pick(input, await jpeg('#a36'));
    await calledTimes(calls, 2);
    calls[1]!.result.reject(Object.assign(new Error('dark'), { code: 'too-dark' }));
    await settle();
    const rejectedUrl = capture.rejectedFor('selfie')!.previewUrl!;

    const parent = host.parentElement!;
    host.remove();
    expect(await isRevoked(image.previewUrl)).to.equal(true);
    expect(await isRevoked(rejectedUrl)).to.equal(true);
    parent.append(host);
    const restored = capture.photo('documentFront')!;
    expect(restored.previewUrl).to.not.equal(image.previewUrl);
    const bytes = new Uint8Array(await (await fetch(restored.previewUrl)).arrayBuffer());
    expect([...bytes]).to.deep.equal([...base64ToBytes(image.base64)]);
    expect(restored.base64).to.equal(image.base64);
    const rejectedAgain = capture.rejectedFor('selfie')!;
    expect(rejectedAgain.code).to.equal('too-dark');
    expect(await isRevoked(rejectedAgain.previewUrl!)).to.equal(false);
  });

  it('off the capture steps it does nothing', async () => {
    const { capture, calls, input, state } = await setup();
    state.role = null;
    await pick(input, await jpeg());
    await capture.takePhoto();
    await capture.openCamera();
    await settle();
    expect(calls).to.have.length(0);
    expect(capture.camera.state).to.equal('idle');
  });

  it('opens the camera with the capture view loaded (the view announces itself); a start that ends after the step was left says nothing', async function () {
    this.timeout(30_000);
    const { capture, announced } = await setup();
    await capture.openCamera();
    expect(capture.camera.state).to.equal('live');
    expect(capture.view.open).to.equal(true);
    expect(customElements.get('onboarding-capture-view')).to.be.a('function');
    expect(announced).to.deep.equal([]);
    capture.leaveStep();
    expect(capture.camera.state).to.equal('idle');

    announced.length = 0;
    const opening = capture.openCamera();
    capture.leaveStep();
    await opening;
    expect(capture.camera.state).to.equal('idle');
    expect(announced).to.deep.equal([]);
  });

  it('a photo from the camera goes to the pipeline as pixels, not as a JPEG; a refused frame is shown from the JPEG the pipeline made of it, and kept anyway from it', async function () {
    this.timeout(30_000);
    const { capture, calls } = await setup();
    const refusedJpegs = [await jpeg('#333'), await jpeg('#444')];
    for (const [i, refused] of refusedJpegs.entries()) {
      await capture.openCamera();
      expect(capture.camera.state).to.equal('live');
      // Resolves once the pipeline answers: not awaited here, the test answers for it below.
      const taking = capture.takePhoto();
      await calledTimes(calls, i + 1);
      const source = calls[i]!.source;
      // Pixels (the guide's region: an ImageBitmap; a whole frame would be a VideoFrame), never an encoded image.
      expect(source).to.not.be.instanceOf(Blob);
      expect(source instanceof ImageBitmap || (typeof VideoFrame === 'function' && source instanceof VideoFrame), String(source)).to.equal(
        true,
      );
      expect(capture.camera.state).to.equal('idle');
      calls[i]!.result.reject(Object.assign(new Error('blurry'), { code: 'blurry', image: refused }));
      await taking;
      (source as FramePixels).close();
      const rejected = capture.rejectedFor('documentFront')!;
      expect(rejected.code).to.equal('blurry');
      expect(rejected.canKeep).to.equal(i === 1);
      const shown = new Uint8Array(await (await fetch(rejected.previewUrl!)).arrayBuffer());
      expect([...shown]).to.deep.equal([...new Uint8Array(await refused.arrayBuffer())]);
    }
    capture.keepAnyway();
    await calledTimes(calls, 3);
    expect(calls[2]!.source).to.equal(refusedJpegs[1]);
    expect(calls[2]!.options.keepAnyway).to.equal(true);
    // Kept with the check it failed, which the creation reports to the backend.
    calls[2]!.result.resolve(await processedImage('documentFront'));
    for (let i = 0; i < 50 && !capture.photos.documentFront; i++) await settle();
    expect(capture.photos.documentFront?.keptAnyway).to.equal(true);
    expect(capture.photos.documentFront?.keptCheck).to.equal('blurry');
  });

  it('a camera selfie refused by the face check (no face) is shown from the JPEG that was checked; refused twice it can never be kept: tips, announced, instead', async function () {
    this.timeout(30_000);
    const { capture, calls, state, announced } = await setup();
    state.role = 'selfie';
    for (let i = 0; i < 2; i++) {
      await capture.openCamera();
      const taking = capture.takePhoto();
      await calledTimes(calls, i + 1);
      expect(calls[i]!.source).to.not.be.instanceOf(Blob);
      // The pipeline passes the frame (a plain grey JPEG): the face check finds no face in it.
      const image = await processedImage('selfie', '#888');
      calls[i]!.result.resolve(image);
      await taking;
      (calls[i]!.source as FramePixels).close();
      const rejected = capture.rejectedFor('selfie')!;
      expect(rejected.code).to.equal('no-face');
      expect(rejected.canKeep, `refusal ${i + 1}`).to.equal(false);
      expect(rejected.stuck, `refusal ${i + 1}`).to.equal(i === 1);
      expect(announced.filter((t) => t === faceTips.en).length).to.equal(i);
      const shown = new Uint8Array(await (await fetch(rejected.previewUrl!)).arrayBuffer());
      expect([...shown]).to.deep.equal([...base64ToBytes(image.base64)]);
    }
    // Nothing keeps it, not even a call the page makes itself.
    capture.keepAnyway();
    for (let i = 0; i < 5; i++) await settle();
    expect(calls.length).to.equal(2);
    expect(capture.photos.selfie).to.equal(undefined);
  });

  it('a selfie kept anyway for its blur is still checked for a face: without one it is refused again, not kept', async function () {
    this.timeout(30_000);
    const { capture, calls, state, events } = await setup();
    state.role = 'selfie';
    for (let i = 0; i < 2; i++) {
      await capture.openCamera();
      const taking = capture.takePhoto();
      await calledTimes(calls, i + 1);
      calls[i]!.result.reject(Object.assign(new Error('blurry'), { code: 'blurry', image: await jpeg('#888') }));
      await taking;
      (calls[i]!.source as FramePixels).close();
      expect(capture.rejectedFor('selfie')!.canKeep).to.equal(i === 1);
    }
    capture.keepAnyway();
    await calledTimes(calls, 3);
    expect(calls[2]!.options.keepAnyway).to.equal(true);
    calls[2]!.result.resolve(await processedImage('selfie', '#888'));
    for (let i = 0; i < 50 && !capture.rejectedFor('selfie')?.stuck; i++) await settle();
    const rejected = capture.rejectedFor('selfie')!;
    expect([rejected.code, rejected.canKeep, rejected.stuck]).to.deep.equal(['no-face', false, true]);
    expect(capture.photos.selfie).to.equal(undefined);
    expect(events.some((e) => e.type === 'onboarding-capture')).to.equal(false);
  });

  skipIn(['webkit'], NOT_IN.cameraDenial)('a camera that cannot open fires onboarding-error with a localised message', async function () {
    this.timeout(30_000);
    await executeServerCommand('camera-permission', { grant: false });
    const { capture, events } = await setup();
    await capture.openCamera();
    expect(capture.camera.state).to.equal('error');
    expect(events.map((e) => [e.type, e.detail])).to.deep.equal([
      ['onboarding-error', { code: 'camera_denied', message: cameraErrorTexts.en.denied }],
    ]);
  });
});
