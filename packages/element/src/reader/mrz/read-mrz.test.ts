/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The MRZ reader in the browser, on the test pictures as a person's files give them: each picture
 * drawn on a canvas, saved as PNG and as JPEG, decoded back (createImageBitmap) and read from its
 * luma. The zone's lines must come back exactly; fronts give no zone. Prints the time each read
 * takes in this engine.
 */
import { expect } from '@open-wc/testing';
import { DOCUMENT_PICTURES, documentPictureFile } from '@onboarding-kit/testing/document-pictures';
import { readMrz } from './index.js';

async function lumaOf(file: File): Promise<{ gray: Uint8Array; width: number; height: number }> {
  const bitmap = await createImageBitmap(file);
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const gray = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < gray.length; i++, p += 4) gray[i] = Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!);
  return { gray, width, height };
}

describe('readMrz on the document pictures, from PNG and JPEG files', () => {
  const times: string[] = [];
  const engine = navigator.userAgent.match(/(Firefox|Chrome|Version)\/[\d.]+/)?.[0];
  after(async () => {
    console.log(`readMrz times (${engine}): ${times.join(', ')}`);
    // Steadier figures for the report: the median of seven reads of each 1280 x 800 back.
    for (const id of ['cin-back', 'cnh-back', 'passport']) {
      const { gray, width, height } = await lumaOf(await documentPictureFile(id));
      const runs = Array.from({ length: 7 }, () => {
        const started = performance.now();
        readMrz(gray, width, height);
        return performance.now() - started;
      }).sort((a, b) => a - b);
      console.log(`readMrz median (${engine}) ${id}: ${runs[3]!.toFixed(1)} ms`);
    }
  });

  for (const { id, expected } of DOCUMENT_PICTURES) {
    for (const type of ['image/png', 'image/jpeg'] as const) {
      it(`${id} (${type})`, async () => {
        const { gray, width, height } = await lumaOf(await documentPictureFile(id, type));
        const started = performance.now();
        const reading = readMrz(gray, width, height);
        times.push(`${id} ${type.slice(6)} ${(performance.now() - started).toFixed(0)} ms`);
        if (!expected.lines) {
          expect(reading).to.equal(null);
          return;
        }
        expect(reading?.lines).to.deep.equal(expected.lines);
        expect(reading?.valid).to.equal(expected.valid);
        expect(reading?.fields.cpf).to.equal(expected.fields?.cpf);
      });
    }
  }
});
