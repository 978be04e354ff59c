/**
 * The edges of a creation's validation: where each limit falls, what counts as absent, what is
 * trimmed, and that every refusal says in words what is wrong (the page shows the message).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_PREFIX, isApiErrorBody, maxCreateBodyBytes, validateCreateOnboarding } from '@onboarding-kit/contract';

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString('base64');
const images = { documentFront: jpeg, selfie: jpeg };
const CPF = '529.982.247-25';

function refusal(body: unknown, imageMaxBytes?: number) {
  const v = validateCreateOnboarding(body, imageMaxBytes);
  assert.equal(v.ok, false, `accepted ${JSON.stringify(body)?.slice(0, 120)}`);
  if (v.ok) throw new Error('unreachable');
  return { status: v.status, ...v.error };
}

test('the routes live under /v1', () => {
  assert.equal(API_PREFIX, '/v1');
});

test('the body limit is exactly three base64 images and a proof of address at the limit, three keyframes at theirs, plus 64 KiB for the rest', () => {
  const keyframes = 3 * Math.ceil((256 * 1024) / 3) * 4;
  assert.equal(maxCreateBodyBytes(3000), 4 * 4000 + keyframes + 64 * 1024);
  assert.equal(maxCreateBodyBytes(1), 4 * 4 + keyframes + 64 * 1024);
});

test('only an object is a body: strings, numbers and arrays are invalid_request, said in words', () => {
  for (const body of ['cpf', 42, true, [], null, undefined]) {
    const r = refusal(body);
    assert.equal(r.code, 'invalid_request', String(body));
    assert.match(r.message, /JSON object/);
  }
});

test('each tax-id refusal names its problem', () => {
  assert.match(refusal({ cpf: CPF, cnpj: '11.222.333/0001-81', images }).message, /either cpf or cnpj/);
  assert.match(refusal({ cpf: '529.982.247-24', images }).message, /CPF is not valid/);
  assert.match(refusal({ cnpj: '11.222.333/0001-82', images }).message, /CNPJ is not valid/);
  assert.match(refusal({ images }).message, /cpf or a cnpj is required/);
  const notString = refusal({ cnpj: 11222333000181, images });
  assert.deepEqual([notString.code, notString.field], ['invalid_cnpj', 'cnpj']);
});

test('name and documentType: optional, plain text up to 200 characters, trimmed, blank means absent', () => {
  const bare = validateCreateOnboarding({ cpf: CPF, images });
  assert.ok(bare.ok);
  assert.equal('name' in bare.value, false);
  assert.equal('documentType' in bare.value, false);

  const padded = validateCreateOnboarding({ cpf: CPF, name: '  Maria Silva  ', documentType: ' CNH ', images });
  assert.ok(padded.ok);
  assert.equal(padded.value.name, 'Maria Silva');
  assert.equal(padded.value.documentType, 'CNH');

  const blank = validateCreateOnboarding({ cpf: CPF, name: '   ', documentType: '  ', images });
  assert.ok(blank.ok);
  assert.equal('name' in blank.value, false);
  assert.equal('documentType' in blank.value, false);

  assert.ok(validateCreateOnboarding({ cpf: CPF, name: 'a'.repeat(200), images }).ok, '200 characters fit');
  for (const field of ['name', 'documentType']) {
    for (const value of ['a'.repeat(201), 42, ['Maria'], '<b>']) {
      const r = refusal({ cpf: CPF, [field]: value, images });
      assert.deepEqual([r.code, r.field], ['invalid_field', field], `${field}: ${JSON.stringify(value)}`);
      assert.match(r.message, new RegExp(`^${field} must be plain text of at most 200 characters`));
    }
  }
});

test('images must be an object of known roles; an unknown role is echoed at most 40 characters', () => {
  for (const value of [jpeg, 42, [jpeg, jpeg], null]) {
    const r = refusal({ cpf: CPF, images: value });
    assert.deepEqual([r.code, r.field], ['missing_image', 'images'], JSON.stringify(value)?.slice(0, 40));
    assert.match(r.message, /documentFront and images\.selfie are required/);
  }
  const long = `x${'y'.repeat(100)}`;
  const r = refusal({ cpf: CPF, images: { ...images, [long]: jpeg } });
  assert.equal(r.code, 'invalid_field');
  assert.equal(r.field, `images.${long.slice(0, 40)}`);
  assert.equal(r.message, `Unknown image role "${long.slice(0, 40)}".`);
});

test('an image exactly at the size limit fits; one byte over is 413 naming the image and the limit', () => {
  const bytes = Buffer.from(jpeg, 'base64').length;
  assert.ok(validateCreateOnboarding({ cpf: CPF, images }, bytes).ok);
  const r = refusal({ cpf: CPF, images }, bytes - 1);
  assert.deepEqual([r.status, r.code, r.field], [413, 'image_too_large', 'images.documentFront']);
  assert.equal(r.message, `images.documentFront is larger than ${bytes - 1} bytes.`);
});

test('an optional image may be absent, null or empty; a required one so given is missing_image', () => {
  for (const documentBack of [undefined, null, '']) {
    const v = validateCreateOnboarding({ cpf: CPF, images: { ...images, documentBack } });
    assert.ok(v.ok, JSON.stringify(documentBack));
    assert.equal('documentBack' in v.value.images, false);
  }
  for (const selfie of [null, '']) {
    const r = refusal({ cpf: CPF, images: { documentFront: jpeg, selfie } });
    assert.deepEqual([r.code, r.field], ['missing_image', 'images.selfie'], JSON.stringify(selfie));
    assert.equal(r.message, 'images.selfie is required.');
  }
});

test('a data URI or a non-string is refused as not pure base64; base64 of another type as not an image', () => {
  for (const selfie of [`data:image/jpeg;base64,${jpeg}`, 42, { base64: jpeg }]) {
    const r = refusal({ cpf: CPF, images: { documentFront: jpeg, selfie } });
    assert.deepEqual([r.code, r.field], ['invalid_image', 'images.selfie']);
    assert.equal(r.message, 'images.selfie must be pure base64 (no data: prefix).');
  }
  const gif = Buffer.from('GIF89a......').toString('base64');
  const r = refusal({ cpf: CPF, images: { documentFront: gif, selfie: jpeg } });
  assert.deepEqual([r.code, r.field], ['invalid_image', 'images.documentFront']);
  assert.equal(r.message, 'images.documentFront is not a JPEG or PNG image.');
});

test('isApiErrorBody: an object whose error has a string code and a string message', () => {
  assert.equal(isApiErrorBody({ error: { code: 'not_found', message: 'No such onboarding.' } }), true);
  assert.equal(isApiErrorBody({ error: { code: 'not_found', message: 'x', field: 'cpf' } }), true);
  for (const value of [
    null,
    undefined,
    'error',
    {},
    { error: null },
    { error: 'not_found' },
    { error: { code: 'x' } },
    { error: { message: 'x' } },
    { error: { code: 1, message: 'x' } },
    { error: { code: 'x', message: 2 } },
  ]) {
    assert.equal(isApiErrorBody(value), false, JSON.stringify(value));
  }
});
