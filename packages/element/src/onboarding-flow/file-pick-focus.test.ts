/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * After a file is picked, keyboard users carry on from "Usar esta foto" (the picker they used is
 * disabled while the photo is checked, so focus would otherwise fall to the page); the review
 * shows the selfie in portrait and says which photo was kept anyway, and why.
 */
import { NOT_IN, skipIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { CPF, chooseType, cleanupListeners, mount, passConsent, passCpf, photoFor, pickFile, preview, root } from './test-helpers.js';

afterEach(() => cleanupListeners());

describe('<onboarding-flow> a picked file', () => {
  skipIn(['webkit'], NOT_IN.keyboard)('moves focus to "Usar esta foto" once checked', async function () {
    this.timeout(60_000);
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    const input = root(el).querySelector<HTMLInputElement>('input[type=file]:not([data-camera-app])')!;
    input.focus();
    expect(root(el).activeElement).to.equal(input);
    await pickFile(el, await photoFor(el));
    expect(preview(el)).to.exist;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const focused = root(el).activeElement;
    expect(focused?.textContent?.trim(), `focus on ${document.activeElement?.tagName}`).to.equal('Usar esta foto');
    await executeServerCommand('screenshot', { name: 'file-pick-focus-1366' });
  });
});
