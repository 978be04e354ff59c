/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { processImage } from './pipeline.js';

type NetworkLog = { external: string[]; all: string[] };

describe('the image worker is not part of the first load', () => {
  it('is fetched only when a photo is processed', async function () {
    const before = await executeServerCommand<NetworkLog | 'unsupported', unknown>('network-log');
    // The WebKit launcher cannot record requests; the worker itself is asserted in pipeline.test.ts.
    if (before === 'unsupported') this.skip();
    // The pipeline module is this file's own import: the page's Resource Timing sees it in every
    // engine, where Firefox's request record can miss a module served from its memory cache.
    expect(performance.getEntriesByType('resource').some((e) => e.name.includes('/src/image/pipeline.ts'))).to.equal(true);
    expect(before.all.filter((e) => e.includes('image-worker'))).to.deep.equal([]);
    const result = await processImage(await canvasBlob(cardCanvas(2400, 1350)), { role: 'documentFront' });
    URL.revokeObjectURL(result.previewUrl);
    expect(result.processedIn).to.equal('worker');
    const after = await executeServerCommand<NetworkLog, unknown>('network-log');
    expect(after.all.some((e) => e.includes('onboarding-flow.image-worker.js'))).to.equal(true);
    // The compression library is the worker's (fetched with it, from the page's origin), not the page's.
    for (const entry of after.all.filter((e) => e.includes('browser-image-compression'))) {
      expect(new URL(entry.split(' ')[1]!).origin).to.equal(location.origin);
    }
    expect(before.all.filter((e) => e.includes('browser-image-compression'))).to.deep.equal([]);
    expect(after.external).to.deep.equal([]);
  });
});
