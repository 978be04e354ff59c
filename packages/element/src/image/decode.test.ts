/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { currentEngine } from '@onboarding-kit/testing/engine';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { decodeUpright, hasUprightImageDecoder } from './decode.js';

/** A JPEG of the card picture with an APP1 Exif segment holding only Orientation, right after SOI. */
async function cardWithOrientation(orientation: number): Promise<Blob> {
  const jpeg = new Uint8Array(await (await canvasBlob(cardCanvas(), 'image/jpeg', 0.9)).arrayBuffer());
  const tiff = [0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  return new Blob([jpeg.subarray(0, 2), new Uint8Array(app1), jpeg.subarray(2)], { type: 'image/jpeg' });
}

describe('decodeUpright', () => {
  it('takes ImageDecoder where it decodes upright (Firefox, whose createImageBitmap of a Blob blocks the page), createImageBitmap elsewhere', async () => {
    // Chromium's ImageDecoder leaves EXIF orientation to the caller; WebKit has none.
    expect(await hasUprightImageDecoder()).to.equal(currentEngine() === 'firefox');
  });

  it('turns an orientation-6 photo upright and keeps an unmarked one as it is, in every engine', async () => {
    const turned = await decodeUpright(await cardWithOrientation(6));
    expect([turned.width, turned.height]).to.deep.equal([720, 1280]);
    turned.close();
    const plain = await decodeUpright(await canvasBlob(cardCanvas()));
    expect([plain.width, plain.height]).to.deep.equal([1280, 720]);
    plain.close();
  });

  it('a picture that does not decode rejects', async () => {
    const broken = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])], { type: 'image/jpeg' });
    const error = await decodeUpright(broken).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
  });
});
