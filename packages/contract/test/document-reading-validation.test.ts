/**
 * A creation's `documentReading` and `proofOfAddress`: the contract keeps a reading only when
 * every member is what it says, and names the member at fault when one is not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DOCUMENT_READING_LIMITS, validateCreateOnboarding, validateCreateOnboardingBytes } from '@onboarding-kit/contract';

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString('base64');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj\n', 'latin1').toString('base64');
const gif = Buffer.from('GIF89a....', 'latin1').toString('base64');
const creation = { cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: jpeg } };

const td1 = ['I<BRA123456789<5<<<<<<<<<<<<<<', '9001011M3001012BRA<<<<<<<<<<<8', 'SILVA<<MARIA<<<<<<<<<<<<<<<<<<'];
const mrz = {
  format: 'TD1',
  lines: td1,
  fields: {
    documentCode: 'I',
    issuingState: 'BRA',
    documentNumber: '123456789',
    lastName: 'SILVA',
    firstName: 'MARIA',
    cpf: '52998224725',
  },
  checks: [
    { field: 'documentNumber', valid: true },
    { field: 'composite', valid: false },
  ],
  valid: false,
};
const reading = {
  documentFront: { qr: { payloadBase64: Buffer.from('hello').toString('base64') }, documentKind: 'CNH' },
  documentBack: { mrz, documentKind: 'CIN' },
};

function refusal(documentReading: unknown) {
  const v = validateCreateOnboarding({ ...creation, documentReading });
  assert.equal(v.ok, false, `accepted ${JSON.stringify(documentReading)?.slice(0, 160)}`);
  if (v.ok) throw new Error('unreachable');
  assert.equal(v.status, 400);
  assert.equal(v.error.code, 'invalid_field');
  return v.error;
}

const withMrz = (change: Record<string, unknown>) => ({ documentBack: { mrz: { ...mrz, ...change } } });

test('a reading of both sides is kept as sent, by the string and the bytes checks alike', () => {
  const v = validateCreateOnboarding({ ...creation, documentReading: reading });
  assert.ok(v.ok);
  assert.deepEqual(v.value.documentReading, reading);
  const b = validateCreateOnboardingBytes({
    ...creation,
    images: { documentFront: Buffer.from(jpeg), selfie: Buffer.from(jpeg) },
    documentReading: reading,
  });
  assert.ok(b.ok);
  assert.deepEqual(b.value.documentReading, reading);
});

test('a reading of nothing is no reading; an absent one is absent', () => {
  for (const documentReading of [undefined, {}, { documentFront: undefined }]) {
    const v = validateCreateOnboarding({ ...creation, documentReading });
    assert.ok(v.ok);
    assert.equal(v.value.documentReading, undefined);
  }
  const empty = validateCreateOnboarding({ ...creation, documentReading: { documentFront: {} } });
  assert.ok(empty.ok);
  assert.deepEqual(empty.value.documentReading, { documentFront: {} });
});

test('unknown members are refused, naming the member', () => {
  assert.equal(refusal({ selfie: {} }).field, 'documentReading.selfie');
  assert.equal(refusal({ documentFront: { face: 1 } }).field, 'documentReading.documentFront.face');
  assert.equal(refusal({ documentFront: { qr: { payloadBase64: 'aGk=', text: 'hi' } } }).field, 'documentReading.documentFront.qr.text');
  assert.equal(refusal(withMrz({ raw: 'x' })).field, 'documentReading.documentBack.mrz.raw');
  assert.equal(refusal(withMrz({ fields: { address: 'RUA' } })).field, 'documentReading.documentBack.mrz.fields.address');
  assert.equal(
    refusal(withMrz({ checks: [{ field: 'composite', valid: true, why: 'x' }] })).field,
    'documentReading.documentBack.mrz.checks.0.why',
  );
  for (const bad of [null, [], 'x', 1]) assert.equal(refusal(bad).field, 'documentReading');
});

test('the QR payload is pure base64 within its limit', () => {
  const field = 'documentReading.documentFront.qr.payloadBase64';
  const max = DOCUMENT_READING_LIMITS.qrPayloadMaxBytes;
  const at = (payloadBase64: unknown) => refusal({ documentFront: { qr: { payloadBase64 } } });
  for (const bad of ['', 'data:text/plain;base64,aGk=', 'aGk', 'a b=', 42, Buffer.alloc(max + 1).toString('base64')]) {
    const e = at(bad);
    assert.equal(e.field, field, String(bad).slice(0, 30));
    assert.match(e.message, new RegExp(`1 to ${max} bytes`));
  }
  const v = validateCreateOnboarding({
    ...creation,
    documentReading: { documentFront: { qr: { payloadBase64: Buffer.alloc(max).toString('base64') } } },
  });
  assert.ok(v.ok);
});

test('the MRZ has a known format with its own count and length of lines, in the MRZ alphabet', () => {
  assert.equal(refusal(withMrz({ format: 'TD4' })).field, 'documentReading.documentBack.mrz.format');
  const lines = 'documentReading.documentBack.mrz.lines';
  assert.equal(refusal(withMrz({ lines: td1.slice(0, 2) })).field, lines);
  assert.equal(refusal(withMrz({ format: 'TD3' })).field, lines);
  assert.equal(refusal(withMrz({ lines: [td1[0], td1[1], 'silva<<maria<<<<<<<<<<<<<<<<<<'] })).field, lines);
  assert.equal(refusal(withMrz({ lines: [td1[0], td1[1], `${td1[2]}<`] })).field, lines);
  assert.match(refusal(withMrz({ format: 'TD2' })).message, /2 lines of 36 characters/);
  const td3 = validateCreateOnboarding({
    ...creation,
    documentReading: withMrz({ format: 'TD3', lines: ['P'.padEnd(44, '<'), '1'.padEnd(44, '<')] }),
  });
  assert.ok(td3.ok);
});

test('parsed fields are bounded text, the CPF a valid one, checks of known fields with a boolean', () => {
  const fields = 'documentReading.documentBack.mrz.fields';
  assert.equal(refusal(withMrz({ fields: { lastName: 'X'.repeat(45) } })).field, `${fields}.lastName`);
  assert.equal(refusal(withMrz({ fields: { lastName: '' } })).field, `${fields}.lastName`);
  assert.equal(refusal(withMrz({ fields: { sex: 1 } })).field, `${fields}.sex`);
  assert.equal(refusal(withMrz({ fields: { lastName: 'A\u0000B' } })).field, `${fields}.lastName`);
  assert.equal(refusal(withMrz({ fields: { cpf: '52998224724' } })).field, `${fields}.cpf`);
  assert.equal(refusal(withMrz({ fields: { cpf: '529.982.247-25' } })).field, `${fields}.cpf`);
  assert.equal(refusal(withMrz({ fields: null })).field, fields);
  const checks = 'documentReading.documentBack.mrz.checks';
  assert.equal(refusal(withMrz({ checks: [{ field: 'name', valid: true }] })).field, `${checks}.0.field`);
  assert.equal(refusal(withMrz({ checks: [{ field: 'composite', valid: 'yes' }] })).field, `${checks}.0.valid`);
  assert.equal(
    refusal(
      withMrz({
        checks: [
          { field: 'composite', valid: true },
          { field: 'composite', valid: true },
        ],
      }),
    ).field,
    `${checks}.1.field`,
  );
  assert.equal(refusal(withMrz({ checks: 'all' })).field, checks);
  assert.equal(refusal(withMrz({ valid: 'true' })).field, 'documentReading.documentBack.mrz.valid');
});

test('the document kind is one the reading can recognise', () => {
  const e = refusal({ documentFront: { documentKind: 'RG' } });
  assert.equal(e.field, 'documentReading.documentFront.documentKind');
  assert.match(e.message, /CNH, CIN, PASSPORT/);
});

test('a proof of address is a JPEG, PNG or PDF in pure base64, within the image limit', () => {
  for (const [proof, mime] of [
    [jpeg, 'image/jpeg'],
    [png, 'image/png'],
    [pdf, 'application/pdf'],
  ] as const) {
    const v = validateCreateOnboarding({ ...creation, proofOfAddress: proof });
    assert.ok(v.ok, mime);
    assert.equal(v.value.proofOfAddress?.mime, mime);
    const b = validateCreateOnboardingBytes({
      ...creation,
      images: { documentFront: Buffer.from(jpeg), selfie: Buffer.from(jpeg) },
      proofOfAddress: Buffer.from(proof),
    });
    assert.ok(b.ok, mime);
    assert.equal(b.value.proofOfAddress?.mime, mime);
  }
  for (const bad of [gif, '', `data:application/pdf;base64,${pdf}`, 7]) {
    const v = validateCreateOnboarding({ ...creation, proofOfAddress: bad });
    assert.ok(!v.ok);
    assert.equal(v.error.code, 'invalid_image');
    assert.equal(v.error.field, 'proofOfAddress');
  }
  const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5000)]).toString('base64');
  const v = validateCreateOnboarding({ ...creation, proofOfAddress: big }, 4096);
  assert.ok(!v.ok);
  assert.equal(v.status, 413);
  assert.equal(v.error.code, 'image_too_large');
  assert.equal(v.error.field, 'proofOfAddress');
});
