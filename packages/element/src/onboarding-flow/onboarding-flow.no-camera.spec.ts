/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import {
  CPF,
  chooseType,
  cleanupListeners,
  click,
  errorText,
  mount,
  passConsent,
  passCpf,
  pickFile,
  preview,
  waitFor,
  photoFor,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

describe('<onboarding-flow> on a device without a camera', () => {
  it('says there is no camera and the file fallback carries on', async function () {
    this.timeout(60_000);
    const { el, events } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    await click(el, 'Abrir câmera');
    await waitFor(() => errorText(el) !== '', 'no camera error');
    expect(errorText(el)).to.contain('Nenhuma câmera foi encontrada');
    expect(events.find((e) => e.type === 'onboarding-error')!.detail.code).to.equal('camera_no-camera');
    await expect(el).to.be.accessible();
    await pickFile(el, await photoFor(el));
    expect(preview(el)).to.exist;
  });
});
