/**
 * The MRZ reader on every test picture (@onboarding-kit/testing/document-pictures): the backs of
 * a CIN and of a 2022 CNH, a passport page, their variants (plain monospace, rotation,
 * perspective, blur, low light, a damaged check digit) and two fronts without a zone. Each
 * reading must give the zone's lines and fields exactly, each check digit's verdict, and the kind
 * the zone points to; a front must give none. The share read is printed for the closing figures.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { DOCUMENT_PICTURES, documentPictureLuma } from '@onboarding-kit/testing/document-pictures';
import { readMrz } from '../src/reader/mrz/index.js';
import { documentKindOfMrz } from '../src/reader/document-kind.js';

const withZone = DOCUMENT_PICTURES.filter((p) => p.expected.lines);
let exact = 0;

for (const { id, expected } of DOCUMENT_PICTURES) {
  test(`${id}: ${expected.lines ? `reads the ${expected.format} zone` : 'finds no zone'}`, () => {
    const { width, height, gray } = documentPictureLuma(id);
    const started = performance.now();
    const reading = readMrz(gray, width, height);
    const ms = performance.now() - started;
    if (!expected.lines) {
      assert.equal(reading, null);
      return;
    }
    assert.ok(reading, 'a zone was found');
    assert.deepEqual(reading.lines, expected.lines);
    assert.equal(reading.format, expected.format);
    for (const [field, value] of Object.entries(expected.fields ?? {}))
      assert.equal(reading.fields[field as keyof typeof reading.fields], value, field);
    assert.equal(reading.fields.cpf, expected.fields?.cpf);
    assert.equal(reading.valid, expected.valid);
    assert.equal(documentKindOfMrz(reading), expected.kind);
    exact++;
    console.log(`# ${id}: read in ${ms.toFixed(0)} ms (Node, this machine's load)`);
  });
}

test('the checks name every check digit of the format, and only a damaged digit fails', () => {
  const td1 = readMrz(...luma('cin-back'));
  assert.deepEqual(
    td1?.checks.map((c) => c.field),
    ['documentNumber', 'birthDate', 'expirationDate', 'composite'],
  );
  const td3 = readMrz(...luma('passport'));
  assert.deepEqual(
    td3?.checks.map((c) => c.field),
    ['documentNumber', 'birthDate', 'expirationDate', 'personalNumber', 'composite'],
  );
  const damaged = readMrz(...luma('cin-back-damaged'));
  assert.deepEqual(
    damaged?.checks.filter((c) => !c.valid).map((c) => c.field),
    ['birthDate', 'composite'],
  );
});

test('a picture that is not a document gives no reading; a wrong size is refused', () => {
  const flat = new Uint8Array(640 * 400).fill(128);
  assert.equal(readMrz(flat, 640, 400), null);
  assert.throws(() => readMrz(flat, 640, 401), /readMrz: 256000 bytes for 640x401 pixels/);
});

test('share of test pictures read', () => {
  console.log(`# zones read exactly: ${exact} of ${withZone.length}`);
  assert.equal(exact, withZone.length);
});

function luma(id: string): [Uint8Array, number, number] {
  const { width, height, gray } = documentPictureLuma(id);
  return [gray, width, height];
}
