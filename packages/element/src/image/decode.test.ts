/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { currentEngine } from '@onboarding-kit/testing/engine';
import { COLOURS, PICTURE_HEIGHT, PROBES } from '@onboarding-kit/testing/card-picture';
import { canvasBlob, cardCanvas, meanAt } from '@onboarding-kit/testing/pixels';
import { decodeFitting, decodeUpright, hasUprightImageDecoder } from './decode.js';
import { jpegOrientation } from './jpeg-size.js';

function pixelsOf(bitmap: ImageBitmap): { width: number; height: number; data: Uint8ClampedArray } {
  const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  return { width: bitmap.width, height: bitmap.height, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
}

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
    const broken = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])], {
      type: 'image/jpeg',
    });
    const error = await decodeUpright(broken).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error);
  });

  it('reads the EXIF orientation from the header (both byte orders), 1 without one', async () => {
    expect(jpegOrientation(new Uint8Array(await (await cardWithOrientation(6)).arrayBuffer()))).to.equal(6);
    expect(jpegOrientation(new Uint8Array(await (await cardWithOrientation(8)).arrayBuffer()))).to.equal(8);
    expect(jpegOrientation(new Uint8Array(await (await canvasBlob(cardCanvas(), 'image/jpeg')).arrayBuffer()))).to.equal(1);
    const little = new Uint8Array(await (await cardWithOrientation(3)).arrayBuffer());
    // The same segment little-endian: "II", 42, IFD at 8, one entry, Orientation SHORT 3.
    little.set([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 3, 0], 12);
    expect(jpegOrientation(little)).to.equal(3);
  });
});

describe("decodeFitting: straight to the upload's size", () => {
  it("a photo over the long edge decodes at the fitted size, upright, with the picture's own size beside it", async () => {
    const { bitmap, upright } = await decodeFitting(await cardWithOrientation(6), 640);
    expect(upright).to.deep.equal({ width: 720, height: 1280 });
    // Decoded at 360x640: the engine resized as it decoded (no full-size bitmap was made to draw from).
    expect([bitmap.width, bitmap.height]).to.deep.equal([360, 640]);
    const image = pixelsOf(bitmap);
    bitmap.close();
    // Orientation 6 = rotate 90 degrees clockwise: (x, y) lands at (H - 1 - y, x), then halved.
    for (const probe of PROBES) {
      const actual = meanAt(image, Math.round((PICTURE_HEIGHT - 1 - probe.y) / 2), Math.round(probe.x / 2), 1);
      const diff = Math.max(...actual.map((v, i) => Math.abs(v - COLOURS[probe.colour][i]!)));
      expect(diff, `${probe.name}: ${actual.join(',')}`).to.be.at.most(16);
    }
  });

  it('a photo within the long edge, and a PNG, decode at their own size', async () => {
    const fits = await decodeFitting(await canvasBlob(cardCanvas(), 'image/jpeg'), 2000);
    expect([fits.bitmap.width, fits.bitmap.height, fits.upright.width, fits.upright.height]).to.deep.equal([1280, 720, 1280, 720]);
    fits.bitmap.close();
    const png = await decodeFitting(await canvasBlob(cardCanvas()), 640);
    expect(png.upright).to.deep.equal({ width: 1280, height: 720 });
    // ImageDecoder (Firefox) resizes any type as it makes the bitmap; elsewhere a PNG's header is not read.
    expect([png.bitmap.width, png.bitmap.height]).to.deep.equal(currentEngine() === 'firefox' ? [640, 360] : [1280, 720]);
    png.bitmap.close();
  });
});
