/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * A desktop without a camera (the no-camera group): once the camera is found missing, picking a
 * file is the step's main action, opening the camera is no longer offered (asking again cannot
 * find one) and the camera app, which only phones have, is never offered.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import {
  CPF,
  chooseType,
  cleanupListeners,
  click,
  errorText,
  mount,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  root,
  waitFor,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

async function shot(name: string): Promise<void> {
  console.log(`${name}: ${await executeServerCommand<string, { name: string }>('screenshot', { name })}`);
}

describe('<onboarding-flow> on a desktop without a camera', () => {
  it('makes "Escolher uma foto dos arquivos" the main action, drops the camera and never offers the camera app', async function () {
    this.timeout(60_000);
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    await click(el, 'Abrir câmera');
    await waitFor(() => errorText(el) !== '', 'no camera error');
    const primary = [...root(el).querySelectorAll('[part~=button-primary]')];
    expect(primary).to.have.length(1);
    expect(primary[0]!.textContent!.trim()).to.equal('Escolher uma foto dos arquivos');
    expect(primary[0]!.classList.contains('primary')).to.equal(true);
    expect(root(el).querySelector('[data-capture-start]'), 'the camera offered again').to.equal(null);
    expect(root(el).querySelector('[data-camera-app]'), 'the camera app on a desktop').to.equal(null);
    expect(root(el).textContent).to.not.include('Usar o app da câmera');
    await expect(el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      await setViewport({ width: 390, height: 844 });
      await shot('no-camera-files-first-390');
      await setViewport({ width: 1366, height: 768 });
      await shot('no-camera-files-first-1366');
    }
    await pickFile(el, await photoFor(el));
    expect(preview(el)).to.exist;
  });
});
