/**
 * The document pictures carry real codes: every QR code decodes (with the `qr` package's
 * decoder, on the picture as drawn and on the fake camera's Y4M luma) to the text its expected
 * reading names, and a front has no code at all.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import decodeQR from 'qr/decode.js';
import { DOCUMENT_PICTURES, renderDocumentPicture } from '../src/document-pictures.mjs';
import { writeDocumentY4m } from '../src/y4m.mjs';

for (const { id, expected } of DOCUMENT_PICTURES) {
  test(`${id}: ${expected.qr ? 'its QR code decodes to the expected text' : 'no QR code'}`, () => {
    const picture = renderDocumentPicture(id);
    const decode = () =>
      decodeQR({ width: picture.width, height: picture.height, data: picture.rgb }, { format: 'RGB', effort: 3, timeLimit: 5000 });
    if (expected.qr) assert.equal(decode(), expected.qr);
    else assert.throws(decode);
  });
}

test('the fake camera file of a picture holds its frame at full size, and its code still decodes', () => {
  const bytes = readFileSync(writeDocumentY4m('cnh-back'));
  const header = 'YUV4MPEG2 W1280 H800 F25:1 Ip A1:1 C420jpeg\nFRAME\n';
  assert.equal(bytes.subarray(0, header.length).toString('latin1'), header);
  const luma = bytes.subarray(header.length, header.length + 1280 * 800);
  const expected = DOCUMENT_PICTURES.find((p) => p.id === 'cnh-back')!.expected.qr;
  assert.equal(decodeQR({ width: 1280, height: 800, data: luma }, { format: 'I420', effort: 3, timeLimit: 5000 }), expected);
});
