/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * A computer without a camera (the no-camera group: the browser lists no video input): with the
 * hand-off on, "Continuar no celular" leads from the intro on, and the first capture step as its
 * main action, before the camera and the files, and opens the panel that says why.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import {
  chooseType,
  cleanupListeners,
  companionNamespace,
  heading,
  mount,
  passConsent,
  root,
  stepOf,
  waitFor,
  waitForStep,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

describe('<onboarding-flow handoff> on a computer without a camera', () => {
  it('leads the first capture step with "Continuar no celular", and the panel says why', async function () {
    this.timeout(60_000);
    const session = await executeServerCommand<{ clientSecret: string }, Record<string, unknown>>('stack-session', {
      reference: `nocam-${companionNamespace()}`,
      cpf: '52998224725',
    });
    const { el } = await mount({ companion: 'real', session: session.clientSecret });
    el.handoff = true;
    await passConsent(el);
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitForStep(el, 'document-type');
    await chooseType(el, 'CNH');
    const lead = () => root(el).querySelector<HTMLButtonElement>('[part~=actions] > button');
    await waitFor(() => lead()?.textContent!.trim() === 'Continuar no celular', `not first: ${lead()?.textContent}`);
    expect(lead()!.classList.contains('primary')).to.equal(true);
    expect(lead()!.getAttribute('part')).to.equal('button button-primary handoff-start');
    // No camera was found: opening one is not offered at all; the files are still there.
    expect(root(el).querySelector('[data-capture-start]')).to.equal(null);
    expect(root(el).querySelector('input[type=file]:not([data-camera-app])')).to.exist;
    expect(root(el).querySelectorAll('[part~=button-primary]')).to.have.length(1);
    await expect(el).to.be.accessible();
    expect(lead()!.textContent!.trim()).to.equal('Continuar no celular');
    if (currentEngine() !== 'webkit') {
      await setViewport({ width: 1366, height: 768 });
      console.log(`no camera: ${await executeServerCommand<string, { name: string }>('screenshot', { name: 'handoff-no-camera-1366' })}`);
    }

    lead()!.click();
    await waitFor(() => !!root(el).querySelector('onboarding-handoff-panel')?.shadowRoot?.querySelector('svg'), 'no QR code');
    expect(heading(el).textContent).to.equal('Continuar no celular');
    expect(root(el).querySelector('onboarding-handoff-panel')!.shadowRoot!.textContent).to.include(
      'Não encontramos uma câmera neste computador',
    );
  });

  it('offers the phone first on the intro, before anything is asked', async function () {
    this.timeout(60_000);
    const session = await executeServerCommand<{ clientSecret: string }, Record<string, unknown>>('stack-session', {
      reference: `nocam-intro-${companionNamespace()}`,
    });
    const { el } = await mount({ companion: 'real', session: session.clientSecret });
    el.handoff = true;
    const lead = () => root(el).querySelector<HTMLButtonElement>('[part~=actions] > button');
    await waitFor(() => lead()?.textContent!.trim() === 'Continuar no celular', `not first on the intro: ${lead()?.textContent}`);
    expect(stepOf(el)).to.equal('intro');
    expect(lead()!.getAttribute('part')).to.equal('button button-primary handoff-start');
    expect(root(el).querySelectorAll('[part~=button-primary]')).to.have.length(1);
    // Starting here is still possible, as the secondary action.
    const start = [...root(el).querySelectorAll<HTMLButtonElement>('[part~=actions] > button')].find(
      (b) => b.textContent!.trim() === 'Começar',
    )!;
    expect(start.classList.contains('primary')).to.equal(false);
    await expect(el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      for (const [name, width, height] of [
        ['390', 390, 844],
        ['1366', 1366, 768],
      ] as const) {
        await setViewport({ width, height });
        await el.updateComplete;
        console.log(
          `intro offer @ ${name}: ${await executeServerCommand<string, { name: string }>('screenshot', { name: `handoff-intro-offer-${name}` })}`,
        );
      }
    }
    lead()!.click();
    await waitFor(() => !!root(el).querySelector('onboarding-handoff-panel')?.shadowRoot?.querySelector('svg'), 'no QR code');
    expect(heading(el).textContent).to.equal('Continuar no celular');
    expect(root(el).querySelector('onboarding-handoff-panel')!.shadowRoot!.textContent).to.include(
      'Não encontramos uma câmera neste computador',
    );
  });
});
