/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { processImage } from './pipeline.js';

type NetworkLog = { external: string[]; all: string[] };

describe('browser-image-compression is not part of the first load', () => {
  it('is fetched only when an image needs it', async () => {
    const before = await executeServerCommand<NetworkLog, unknown>('network-log');
    expect(before.all.some((e) => e.includes('/src/image/pipeline.ts'))).to.equal(true);
    expect(before.all.filter((e) => e.includes('browser-image-compression'))).to.deep.equal([]);
    // Over the 2000 px long-edge cap, so the library resizes it (a picture that fits is encoded
    // directly and never loads the library at all).
    const result = await processImage(await canvasBlob(cardCanvas(2400, 1350)), { role: 'documentFront' });
    URL.revokeObjectURL(result.previewUrl);
    const after = await executeServerCommand<NetworkLog, unknown>('network-log');
    expect(after.all.some((e) => e.includes('browser-image-compression'))).to.equal(true);
    expect(after.external).to.deep.equal([]);
  });
});
