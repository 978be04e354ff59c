/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, skipIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { CPF, cardJpeg, chooseType, cleanupListeners, mount, passConsent, passCpf, pickFile, preview } from './test-helpers.js';

afterEach(() => cleanupListeners());

interface NetworkLog {
  external: string[];
  all: string[];
}

describe('<onboarding-flow> first load', () => {
  skipIn(['webkit', 'firefox'], `${NOT_IN.networkRecord}; ${NOT_IN.cachedModules}`)('loads the image pipeline and its worker only when a photo is processed', async function () {
    this.timeout(60_000);
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    const before = await executeServerCommand<NetworkLog, { clear: boolean }>('network-log', { clear: true });
    expect(before.all.some((url) => url.includes('/camera/camera-controller'))).to.equal(true);
    expect(before.all.filter((url) => url.includes('image-worker') || url.includes('/image/pipeline'))).to.deep.equal([]);

    await pickFile(el, await cardJpeg());
    expect(preview(el)).to.exist;
    const after = await executeServerCommand<NetworkLog, { clear: boolean }>('network-log', { clear: true });
    expect(after.all.some((url) => url.includes('/image/pipeline'))).to.equal(true);
    expect(after.all.some((url) => url.includes('/image/onboarding-flow.image-worker.js'))).to.equal(true);
    expect([...before.external, ...after.external]).to.deep.equal([]);
  });
});
