/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The challenge as a person meets it on the selfie step: the camera (a stand-in playing a sequence
 * made from the astronaut portrait, at a webcam's 1280x720) shows a face, the prompts appear on the
 * preview and in the live region, and what the challenge found travels in the creation's
 * `integrity`. A face that turns and comes closer passes; a still photo held to the camera fails,
 * and the person still gets a selfie.
 */
import { expect } from '@open-wc/testing';
import type { CaptureIntegrityClaim } from '@onboarding-kit/contract';
import { livenessCamera, standInForCamera } from '@onboarding-kit/testing/liveness-camera';
import type { LivenessSequenceName } from '@onboarding-kit/testing/liveness-sequences';
import { executeServerCommand } from '@web/test-runner-commands';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  CPF,
  captureView,
  chooseType,
  cleanupListeners,
  click,
  doubleState,
  errorText,
  mount,
  openCamera,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  waitFor,
  waitForStep,
} from '../onboarding-flow/test-helpers.js';

afterEach(cleanupListeners);

const prompt = (el: OnboardingFlow): HTMLElement | null =>
  captureView(el)?.shadowRoot?.querySelector<HTMLElement>('[part~=liveness-prompt]:not([hidden])') ?? null;

/**
 * A passport's flow up to the selfie, the camera opened on `sequence`; ends once the selfie is
 * accepted, and sends it. `follow`: the face does as each open prompt asks and holds it until the
 * next, then looks at the camera again once the challenge has no more (a person). `prompts`: those
 * shown on the preview.
 */
async function selfieFrom(
  sequence: LivenessSequenceName,
  follow: boolean,
  shotName?: string,
): Promise<{ claim: CaptureIntegrityClaim; prompts: string[] }> {
  const { el, ns } = await mount({ documentTypes: 'CNH,PASSPORT' });
  await passConsent(el);
  await passCpf(el, CPF.approved);
  await chooseType(el, 'PASSPORT');
  await waitForStep(el, 'document-front');
  await pickFile(el, await photoFor(el));
  await click(el, 'Usar esta foto');
  await waitForStep(el, 'selfie');
  const moves = ['turn-left', 'turn-right', 'come-closer'] as const;
  const camera = await livenessCamera(sequence, { width: 1280, height: 720 }, follow ? [...moves, 'still'] : []);
  const restore = standInForCamera(camera);
  const prompts: string[] = [];
  try {
    await openCamera(el);
    let asked: string | null = null;
    let rested = false;
    const seen = () => {
      const shown = prompt(el)?.getAttribute('data-prompt');
      if (shown && prompts.at(-1) !== shown) prompts.push(shown);
      // What the challenge asks now (the view's own state: a face hint may cover the prompt's text).
      const open = captureView(el)?.prompt ?? null;
      if (follow && open && open !== asked) camera.play(open, Infinity);
      if (follow && !open && asked && !rested) {
        rested = true;
        camera.play('still');
      }
      asked = open ?? asked;
      return !!preview(el) || errorText(el) !== '';
    };
    await waitFor(() => seen() || prompts.length > 0, 'no prompt was ever shown', 30_000);
    if (shotName) await executeServerCommand('screenshot', { name: shotName }).catch(() => undefined);
    // The selfie is taken by itself once the challenge is done, met or not.
    await waitFor(seen, `the selfie was never taken (prompts ${prompts.join(', ')})`, 60_000);
    expect(errorText(el), 'the selfie').to.equal('');
  } finally {
    restore();
    camera.stop();
  }
  await click(el, 'Usar esta foto');
  await waitForStep(el, 'review');
  await click(el, 'Enviar');
  const body = await waitForUpload(ns);
  return { claim: body.integrity ?? {}, prompts };
}

async function waitForUpload(ns: string): Promise<{ integrity?: CaptureIntegrityClaim }> {
  let body: { integrity?: CaptureIntegrityClaim } | undefined;
  for (let i = 0; i < 100 && !body; i++) {
    body = (await doubleState(ns)).uploads[0]?.body as { integrity?: CaptureIntegrityClaim } | undefined;
    if (!body) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!body) throw new Error('the creation was never sent');
  return body;
}

describe('the liveness challenge on the selfie step', () => {
  it('a face that does as each prompt asks passes, with its keyframes', async function () {
    this.timeout(150_000);
    const { claim, prompts } = await selfieFrom('still', true, 'liveness-challenge');
    expect(claim.liveness?.result, JSON.stringify(claim.liveness)).to.equal('passed');
    expect(claim.liveness!.prompts.map((p) => p.prompt)).to.include('come-closer');
    expect(prompts, 'each prompt shown').to.have.length(2);
    expect(claim.keyframes?.length).to.be.within(2, 3);
  });

  it('a still photo of a face fails the challenge, and the person still has a selfie', async function () {
    this.timeout(150_000);
    const { claim } = await selfieFrom('still', false);
    expect(claim.liveness?.result, JSON.stringify(claim.liveness)).to.equal('failed');
    expect(claim.liveness!.prompts.some((p) => !p.met)).to.equal(true);
  });
});
