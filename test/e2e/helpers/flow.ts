/**
 * Drives `<onboarding-flow>` as a person would, through its shadow DOM (Playwright locators
 * pierce open shadow roots): intro, consent, CPF, document type, three photos from the fake camera or
 * from a file, review, send, then waits for the outcome. Steps are found by the element's
 * `data-step` and `part` attributes, so the driver works in any locale; a screenshot is saved
 * at every step.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ONBOARDING_EVENTS } from '@onboarding-kit/element/event-names';

export type PhotoSource = 'camera' | 'files' | 'denied-camera-then-files';

export interface DriveOptions {
  /** Typed into the CPF field; when absent the field must already hold `expectCpf` (a shortcut prefilled it). */
  typeCpf?: string;
  expectCpf: string;
  source: PhotoSource;
  /** A real JPEG of the document for the file picker (sources with files). */
  jpeg?: string;
  /** A real selfie JPEG (writeFaceJpeg) for the selfie step's file picker (every source: the camera's card is no face). */
  faceJpeg?: string;
  shot(step: string): Promise<void>;
  /** Runs once the processing step shows (e.g. a reviewer's decision). */
  whileProcessing?: () => Promise<void>;
  /** A phone the session was handed to: consent, CPF and document type came with it, the flow opens at the first photo. */
  resumed?: boolean;
}

export interface FlowEvent {
  type: string;
  detail: Record<string, unknown> | null;
}

export interface Outcome {
  status: string;
  text: string;
  tokenOnboarding: string;
  events: FlowEvent[];
}

const CAPTURE_STEPS = ['document-front', 'document-back', 'selfie'] as const;

/** Records every `onboarding-*` event at the document (they bubble and are composed) in `window.__flowEvents`. */
export async function recordFlowEvents(page: Page): Promise<void> {
  await page.addInitScript(
    (types) => {
      const w = window as unknown as { __flowEvents: { type: string; detail: unknown }[] };
      w.__flowEvents = [];
      for (const type of types) {
        document.addEventListener(type, (e) =>
          w.__flowEvents.push({ type, detail: JSON.parse(JSON.stringify((e as CustomEvent).detail ?? null)) }),
        );
      }
    },
    [...ONBOARDING_EVENTS],
  );
}

export async function flowEvents(page: Page): Promise<FlowEvent[]> {
  return page.evaluate(() => (window as unknown as { __flowEvents: FlowEvent[] }).__flowEvents);
}

export function flowLocators(page: Page) {
  const flow = page.locator('onboarding-flow');
  return {
    flow,
    step: (name: string) => flow.locator(`section[data-step="${name}"]`),
    primary: flow.locator('[part~="button-primary"]'),
  };
}

async function waitForLiveCamera(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const view = document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('onboarding-capture-view[open]');
      const video = view?.shadowRoot?.querySelector('video');
      return !!video && video.readyState >= 2 && video.videoWidth > 0;
    },
    undefined,
    { timeout: 60_000 },
  );
}

/** The face check's refusals (no face, several, too small, off centre) in the demos' locales. */
const FACE_REFUSAL =
  /could not find a face|more than one face|face is too far|face is outside|face is too small|face is not in the middle|encontramos um rosto|mais de um rosto|rosto está|rosto não está|encontramos una cara|más de una cara|la cara está|la cara es demasiado|la cara no está/i;

/**
 * The selfie from Chromium's fake camera, which shows the card: the face check refuses it. Refused
 * a second time in a row it still cannot be kept ("use it anyway" is never offered for a selfie
 * without a face): the step shows tips and the file picker, which takes the real face instead.
 */
async function selfieRefusedTwiceThenFile(page: Page, shot: (step: string) => Promise<void>, faceJpeg: string | undefined): Promise<void> {
  const { flow, primary } = flowLocators(page);
  const error = flow.locator('#capture-error');
  const keep = flow.locator('[part~="keep-anyway"]');
  await error.waitFor({ timeout: 30_000 });
  assert.match((await error.textContent()) ?? '', FACE_REFUSAL, 'the card is refused as a selfie');
  assert.equal(await keep.count(), 0, 'no "use it anyway" after one refusal');
  await shot('selfie-camera-refused');
  // "Take another photo" reopens the camera, since the refused photo came from it.
  await primary.click();
  await waitForLiveCamera(page);
  await shot('selfie-camera-again');
  await flow.locator('[part~="shutter"]').click();
  await flow.locator('[part~="face-tips"]').waitFor({ timeout: 30_000 });
  assert.match((await error.textContent()) ?? '', FACE_REFUSAL, 'the card is refused as a selfie again');
  assert.equal(await keep.count(), 0, 'no "use it anyway" for a selfie without a face');
  await shot('selfie-camera-refused-twice');
  assert.ok(faceJpeg, 'a selfie JPEG for the file picker the refused selfie offers');
  await flow.locator('input[type=file]:not([capture])').setInputFiles(faceJpeg);
  // The refusal stays until the file is checked: the preview is what says it was.
  await flow.locator('img[part~="preview"]').waitFor({ timeout: 30_000 });
}

/** The steps before the photos: intro, consent, CPF and the document type (CNH). */
async function answerFormSteps(page: Page, options: DriveOptions): Promise<void> {
  const { flow, step, primary } = flowLocators(page);
  // The intro's list shows once the session is read (until then the step says it is preparing).
  await flow.locator('[part~="intro-needs"]').waitFor();
  await options.shot('intro');
  await primary.click();

  await step('consent').waitFor();
  await options.shot('consent');
  await flow.locator('#consent').check();
  await primary.click();

  await step('cpf').waitFor();
  if (options.typeCpf !== undefined) await flow.locator('#cpf').fill(options.typeCpf);
  assert.equal(await flow.locator('#cpf').inputValue(), options.expectCpf, 'the CPF field shows the formatted CPF');
  await options.shot('cpf');
  await primary.click();

  await step('document-type').waitFor();
  await flow.locator('#doctype-CNH').check();
  await options.shot('document-type');
  await primary.click();
}

export async function driveFlow(page: Page, options: DriveOptions): Promise<Outcome> {
  const { flow, step, primary } = flowLocators(page);

  if (!options.resumed) await answerFormSteps(page, options);

  for (const name of CAPTURE_STEPS) {
    await step(name).waitFor();
    if (options.source === 'camera') {
      await flow.locator('[data-capture-start]').click();
      await waitForLiveCamera(page);
      await options.shot(`${name}-camera`);
      // The document steps usually take their photo by themselves (the fake camera's card passes the live checks).
      await flow
        .locator('[part~="shutter"]')
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      if (name === 'selfie') await selfieRefusedTwiceThenFile(page, options.shot, options.faceJpeg);
    } else {
      if (options.source === 'denied-camera-then-files') {
        await flow.locator('[data-capture-start]').click();
        await flow.locator('#camera-error').waitFor();
        await options.shot(`${name}-camera-denied`);
      }
      const file = name === 'selfie' ? options.faceJpeg : options.jpeg;
      assert.ok(file, `a JPEG for the ${name} file picker`);
      // The gallery picker: where the camera is refused, a second one (with `capture`) opens the camera app.
      await flow.locator('input[type=file]:not([capture])').setInputFiles(file);
    }
    await flow.locator('img[part~="preview"], #capture-error').first().waitFor({ timeout: 30_000 });
    const refused = await flow.locator('#capture-error').count();
    assert.equal(refused, 0, `the ${name} photo was refused: ${refused ? await flow.locator('#capture-error').textContent() : ''}`);
    await options.shot(`${name}-photo`);
    await primary.click();
  }

  await step('review').waitFor();
  assert.equal(await flow.locator('img[part~="thumbnail"]').count(), 3, 'three photos to review');
  await options.shot('review');
  await primary.click();

  // The sandbox takes SANDBOX_PROCESSING_MS to decide: long enough to see the processing step.
  await step('processing').waitFor({ timeout: 30_000 });
  await options.shot('processing');
  await options.whileProcessing?.();
  const outcome = flow.locator('[data-status]');
  await outcome.waitFor({ timeout: 45_000 });
  await options.shot('outcome');
  const events = await flowEvents(page);
  const submitted = events.find((e) => e.type === 'onboarding-submitted');
  assert.ok(submitted?.detail, 'onboarding-submitted was dispatched');
  const selfie = events.find((e) => e.type === 'onboarding-capture' && e.detail?.role === 'selfie');
  assert.ok(selfie, 'the selfie was captured');
  // The camera's card is no face: never kept anyway, the file's face passed instead.
  assert.equal(selfie.detail?.keptAnyway, undefined, 'the selfie was not kept anyway');
  return {
    status: (await outcome.getAttribute('data-status')) ?? '',
    text: ((await step('outcome').textContent()) ?? '').replace(/\s+/g, ' '),
    tokenOnboarding: String(submitted.detail.tokenOnboarding),
    events,
  };
}
