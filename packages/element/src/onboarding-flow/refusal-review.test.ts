/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * A refused photo at 200% text: its reason and the retake are on screen without scrolling past
 * them. The review shows the selfie in portrait, and flags a photo kept anyway with its reason.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect, nextFrame } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import {
  CPF,
  blurryJpeg,
  chooseType,
  cleanupListeners,
  click,
  mount,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  root,
  waitFor,
  waitForStep,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  document.documentElement.style.fontSize = '';
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

async function shot(name: string): Promise<void> {
  console.log(`${name}: ${await executeServerCommand<string, { name: string }>('screenshot', { name })}`);
}

describe('<onboarding-flow> a refused photo and the review', () => {
  it('at 200% on a phone, the refusal reason and the retake are both on screen', async function () {
    if (currentEngine() === 'webkit') this.skip(); // its driver cannot resize the page
    this.timeout(90_000);
    await setViewport({ width: 390, height: 844 });
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    document.documentElement.style.fontSize = '200%';
    await el.updateComplete;
    await pickFile(el, await blurryJpeg());
    await nextFrame();
    await nextFrame();
    const reason = root(el).querySelector('#capture-error')!;
    const retake = root(el).querySelector('[part~=button-primary]')!;
    expect(retake.textContent!.trim()).to.equal('Tirar outra foto');
    const r = reason.getBoundingClientRect();
    const b = retake.getBoundingClientRect();
    expect(r.top, 'reason above the screen').to.be.at.least(0);
    expect(b.bottom, `retake below the screen (${b.bottom} > ${innerHeight})`).to.be.at.most(innerHeight + 1);
    // The reason comes before the picture it explains.
    expect(reason.compareDocumentPosition(root(el).querySelector('img[part~=preview]')!) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(
      0,
    );
    await shot('refusal-200-390');
  });

  it('the review shows the selfie in portrait and flags the photo kept anyway, with its reason', async function () {
    this.timeout(120_000);
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    await pickFile(el, await blurryJpeg());
    await click(el, 'Tirar outra foto');
    await pickFile(el, await blurryJpeg());
    const reasonText = root(el).querySelector('#capture-error')!.textContent!.trim();
    await click(el, 'Usar mesmo assim');
    await waitFor(() => !!preview(el) && !root(el).querySelector('#capture-error'), 'kept');
    await click(el, 'Usar esta foto');
    for (const step of ['document-back', 'selfie']) {
      await waitForStep(el, step);
      await pickFile(el, await photoFor(el));
      await click(el, 'Usar esta foto');
    }
    await waitForStep(el, 'review');
    const selfie = root(el).querySelector<HTMLImageElement>('img.thumbnail.portrait')!;
    await selfie.decode().catch(() => undefined);
    const box = selfie.getBoundingClientRect();
    expect(box.height / box.width, `selfie ${box.width}x${box.height}`).to.be.above(1.2);
    await waitFor(() => !!root(el).querySelector('[part~=kept-flag]')?.textContent?.includes('Mantida mesmo assim'), 'the kept flag');
    const flag = root(el).querySelector('[part~=kept-flag]')!;
    expect(flag.textContent).to.include(reasonText.split('.')[0]);
    const front = root(el).querySelector<HTMLImageElement>('img[part~=thumbnail]')!;
    expect(front.alt).to.include('Mantida mesmo assim');
    await expect(el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      await setViewport({ width: 390, height: 844 });
      await shot('review-kept-portrait-390');
      await setViewport({ width: 1366, height: 768 });
      await shot('review-kept-portrait-1366');
    }
  });
});
