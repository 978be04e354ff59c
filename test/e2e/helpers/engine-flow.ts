/**
 * Drives `<onboarding-flow>` on the demo page through the engine-neutral Driver
 * (@onboarding-kit/testing/driver), so the same steps run in Chromium, Firefox and WebKit: intro, consent,
 * CPF, document type, three photos (camera, files, or a denied camera then files), review, send,
 * outcome. Targets are the element's ids, `data-step` and `part` attributes inside its shadow
 * root, so the walk works in any locale. `shot(step)` runs at every step.
 */
import { maskTaxIdForPage } from '@onboarding-kit/contract';
import assert from 'node:assert/strict';
import type { Driver, Target } from '@onboarding-kit/testing/driver';

export type EngineSource = 'camera' | 'files' | 'denied-camera-then-files';

const inFlow = (css: string): Target => ({ css, within: 'onboarding-flow' });
const step = (name: string) => inFlow(`section[data-step="${name}"]`);
const primary = inFlow('[part~="button-primary"]');

/** In-page: true once the capture view's preview video plays real frames. */
function cameraIsLive(): boolean {
  const view = document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('onboarding-capture-view[open]');
  const video = view?.shadowRoot?.querySelector('video');
  return !!video && video.readyState >= 2 && video.videoWidth > 0;
}

/** In-page: true while the capture view still offers its shutter (an automatic photo may already have closed it). */
function shutterShown(): boolean {
  const view = document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('onboarding-capture-view[open]');
  return !!view?.shadowRoot?.querySelector('[part~="shutter"]');
}

async function until(d: Driver, what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${d.engine}: ${what} did not happen in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface EngineOutcome {
  status: string;
  text: string;
}

/** In-page: the refusal shown for the current photo ('' when it was accepted). */
function refusalText(): string {
  return document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('#capture-error')?.textContent?.trim() ?? '';
}

export interface EngineFlowOptions {
  cpf: string;
  source: EngineSource;
  /** A real JPEG of the document for the file picker. */
  jpeg: string;
  /** A real selfie JPEG (writeFaceJpeg) for the selfie step's file picker: its face check refuses the card. */
  faceJpeg: string;
  shot(step: string): Promise<void>;
  /**
   * Camera photos this engine's fake camera cannot make acceptable, by step, with the refusal
   * expected (e.g. WebKit's user-facing mock camera is black in the oval): the refusal must show, then
   * a photo from a file replaces it.
   */
  cameraRefusals?: Readonly<Record<string, RegExp>>;
}

export async function driveEngineFlow(d: Driver, options: EngineFlowOptions): Promise<EngineOutcome> {
  const { shot } = options;
  // The intro's list shows once the session is read (until then the step says it is preparing).
  await d.waitFor(inFlow('[part~="intro-needs"]'));
  await shot('intro');
  await d.click(primary);

  await d.waitFor(step('consent'));
  await shot('consent');
  await d.click(inFlow('#consent'));
  await d.click(primary);

  await d.waitFor(step('cpf'));
  const cpf = await d.evaluate(
    () => (document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('#cpf') as HTMLInputElement | null)?.value ?? '',
  );
  // The page is shown the session's CPF masked; the companion sends the whole one.
  assert.equal(cpf, maskTaxIdForPage(options.cpf), `${d.engine}: the shortcut prefilled the CPF, masked`);
  await shot('cpf');
  await d.click(primary);

  await d.waitFor(step('document-type'));
  await d.click(inFlow('#doctype-CNH'));
  await shot('document-type');
  await d.click(primary);

  for (const name of ['document-front', 'document-back', 'selfie']) {
    const file = name === 'selfie' ? options.faceJpeg : options.jpeg;
    await d.waitFor(step(name));
    if (options.source === 'camera') {
      await d.click(inFlow('[data-capture-start]'));
      await until(d, 'the live camera', () => d.evaluate(cameraIsLive));
      await shot(`${name}-camera`);
      if (await d.evaluate(shutterShown)) await d.click(inFlow('[part~="shutter"]')).catch(() => undefined);
    } else {
      if (options.source === 'denied-camera-then-files') {
        await d.click(inFlow('[data-capture-start]'));
        await d.waitFor(inFlow('#camera-error'));
        await shot(`${name}-camera-denied`);
      }
      await d.setFiles(inFlow('input[type=file]:not([capture])'), file);
    }
    await d.waitFor(inFlow('img[part~="preview"], #capture-error'));
    const expected = options.source === 'camera' ? options.cameraRefusals?.[name] : undefined;
    if (expected) {
      assert.match(await d.evaluate(refusalText), expected, `${d.engine}: the ${name} camera photo is refused`);
      const keepOffered = await d.evaluate(
        () => !!document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('[part~="keep-anyway"]'),
      );
      assert.equal(keepOffered, false, `${d.engine}: no "use it anyway" after one refusal of the ${name}`);
      await shot(`${name}-camera-refused`);
      // "Take another photo" leads back to the step's start, where the file picker is (the camera
      // reopens in its view: closed first, so the page behind is no longer inert).
      await d.click(primary);
      await until(d, 'the camera view after a retake', () => d.evaluate(shutterShown), 30_000).catch(() => undefined);
      if (await d.evaluate(shutterShown)) await d.click(inFlow('[part~="capture-close"]'));
      await d.setFiles(inFlow('input[type=file]:not([capture])'), file);
      await until(
        d,
        `the ${name} photo from a file`,
        async () =>
          (await d.evaluate(refusalText)) === '' &&
          (await d.evaluate(() => !!document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('img[part~="preview"]'))),
      );
    }
    assert.equal(await d.evaluate(refusalText), '', `${d.engine}: the ${name} photo was refused`);
    await shot(`${name}-photo`);
    await d.click(primary);
  }

  await d.waitFor(step('review'));
  const thumbnails = await d.evaluate(
    () => document.querySelector('onboarding-flow')?.shadowRoot?.querySelectorAll('img[part~="thumbnail"]').length ?? 0,
  );
  assert.equal(thumbnails, 3, `${d.engine}: three photos to review`);
  await shot('review');
  await d.click(primary);

  await d.waitFor(step('processing'));
  await shot('processing');
  await d.waitFor(inFlow('[data-status]'), 60_000);
  await shot('outcome');
  return d.evaluate(() => {
    const root = document.querySelector('onboarding-flow')?.shadowRoot;
    return {
      status: root?.querySelector('[data-status]')?.getAttribute('data-status') ?? '',
      text: (root?.querySelector('section[data-step="outcome"]')?.textContent ?? '').replace(/\s+/g, ' '),
    };
  });
}
