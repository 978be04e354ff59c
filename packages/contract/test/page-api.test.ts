import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_IMAGE_MAX_BYTES,
  isPersonName,
  isPlainTextField,
  KEPT_CHECKS,
  maxCreateBodyBytes,
  validateCreateOnboarding,
  validateCreateOnboardingBytes,
} from '@onboarding-kit/contract';

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString('base64');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3').toString('base64');
const body = (over: Record<string, unknown> = {}) => ({
  cpf: '529.982.247-25',
  name: 'Maria Silva',
  documentType: 'CNH',
  images: { documentFront: jpeg, documentBack: png, selfie: jpeg },
  ...over,
});

test("a body without a tax id takes the session's, and one with a tax id keeps its own (the session's rule is the companion's)", () => {
  const fixed = { kind: 'cpf', value: '11144477735' } as const;
  const v = validateCreateOnboarding(body({ cpf: undefined }), undefined, fixed);
  assert.ok(v.ok);
  assert.deepEqual(v.value.taxId, fixed);
  const own = validateCreateOnboarding(body(), undefined, fixed);
  assert.ok(own.ok);
  assert.deepEqual(own.value.taxId, { kind: 'cpf', value: '52998224725' });
  const bad = validateCreateOnboarding(body({ cpf: '***.982.247-**' }), undefined, fixed);
  assert.ok(!bad.ok && bad.error.code === 'invalid_cpf');
});

test('a good body is normalised', () => {
  const v = validateCreateOnboarding(body());
  assert.ok(v.ok);
  assert.deepEqual(v.value.taxId, { kind: 'cpf', value: '52998224725' });
  assert.equal(v.value.images.documentBack?.mime, 'image/png');
  assert.equal(v.value.images.selfie?.bytes, 12);
  const c = validateCreateOnboarding(body({ cpf: undefined, cnpj: '11.222.333/0001-81', images: { documentFront: jpeg, selfie: jpeg } }));
  assert.ok(c.ok);
  assert.equal(c.value.taxId.kind, 'cnpj');
});

test('each bad input gets a specific code and field', () => {
  const cases: [unknown, number, string, string?][] = [
    [null, 400, 'invalid_request'],
    [[], 400, 'invalid_request'],
    [body({ cpf: '529.982.247-24' }), 400, 'invalid_cpf', 'cpf'],
    [body({ cpf: 52998224725 }), 400, 'invalid_cpf', 'cpf'],
    [body({ cpf: undefined }), 400, 'missing_tax_id', 'cpf'],
    [body({ cpf: undefined, cnpj: '11.222.333/0001-82' }), 400, 'invalid_cnpj', 'cnpj'],
    [body({ cnpj: '11.222.333/0001-81' }), 400, 'invalid_request', 'cnpj'],
    [body({ name: '<script>' }), 400, 'invalid_field', 'name'],
    [body({ documentType: 'x'.repeat(201) }), 400, 'invalid_field', 'documentType'],
    [body({ images: undefined }), 400, 'missing_image', 'images'],
    [body({ images: { documentFront: jpeg } }), 400, 'missing_image', 'images.selfie'],
    [body({ images: { selfie: jpeg } }), 400, 'missing_image', 'images.documentFront'],
    [body({ images: { documentFront: `data:image/jpeg;base64,${jpeg}`, selfie: jpeg } }), 400, 'invalid_image', 'images.documentFront'],
    [body({ images: { documentFront: pdf, selfie: jpeg } }), 400, 'invalid_image', 'images.documentFront'],
    [body({ images: { documentFront: jpeg, selfie: 42 } }), 400, 'invalid_image', 'images.selfie'],
    [body({ images: { documentFront: jpeg, selfie: jpeg, other: jpeg } }), 400, 'invalid_field', 'images.other'],
  ];
  for (const [input, status, code, field] of cases) {
    const v = validateCreateOnboarding(input);
    assert.equal(v.ok, false, JSON.stringify(input)?.slice(0, 80));
    if (v.ok) continue;
    assert.equal(v.status, status, code);
    assert.equal(v.error.code, code);
    if (field) assert.equal(v.error.field, field);
  }
});

test('size is checked before content: an oversized image is 413 whatever its bytes', () => {
  const big = 'A'.repeat(Math.ceil((1024 + 1) / 3) * 4); // 1026 bytes of zeros: not an image
  const v = validateCreateOnboarding(body({ images: { documentFront: jpeg, selfie: big } }), 1024);
  assert.equal(v.ok, false);
  if (!v.ok) {
    assert.equal(v.status, 413);
    assert.equal(v.error.code, 'image_too_large');
    assert.equal(v.error.field, 'images.selfie');
  }
});

test('the body limit covers three images and a proof of address at the limit, three keyframes, plus the other fields', () => {
  const keyframes = (3 * (256 * 1024 * 4)) / 3;
  assert.ok(maxCreateBodyBytes() > (4 * (DEFAULT_IMAGE_MAX_BYTES * 4)) / 3 + keyframes);
  assert.ok(maxCreateBodyBytes() < (4 * (DEFAULT_IMAGE_MAX_BYTES * 4)) / 3 + keyframes + 128 * 1024);
});

test('isPersonName is the creation rule for name (the element checks a name with it before sending)', () => {
  for (const name of [
    'Maria Silva',
    "D'Ávila (filha)",
    'José-Maria 2º',
    '',
    'a'.repeat(200),
    'a'.repeat(201),
    'Maria <b>',
    'x\ny',
    'emoji 😀',
  ]) {
    const sent = validateCreateOnboarding(body({ name }));
    assert.equal(isPersonName(name.trim()), sent.ok, name);
    if (!sent.ok) assert.equal(sent.error.field, 'name');
  }
  assert.equal(validateCreateOnboarding(body({ name: 'José-Maria 2º' })).ok, false, 'digits are not letters');
  assert.equal(isPlainTextField(42), false);
  assert.equal(isPlainTextField(undefined), false);
});

test('keptAnyway names, per image of the creation, the check its photo failed; anything else is refused with its field', () => {
  const kept = validateCreateOnboarding(body({ keptAnyway: { selfie: 'blurry', documentBack: 'too-dark' } }));
  assert.ok(kept.ok);
  assert.deepEqual(kept.value.keptAnyway, { selfie: 'blurry', documentBack: 'too-dark' });
  const bytes = validateCreateOnboardingBytes(
    { ...body(), images: { documentFront: Buffer.from(jpeg), selfie: Buffer.from(jpeg) }, keptAnyway: { selfie: 'no-face' } },
    DEFAULT_IMAGE_MAX_BYTES,
  );
  assert.ok(bytes.ok);
  assert.deepEqual(bytes.value.keptAnyway, { selfie: 'no-face' });
  for (const none of [undefined, null, {}]) {
    const v = validateCreateOnboarding(body({ keptAnyway: none }));
    assert.ok(v.ok);
    assert.equal('keptAnyway' in v.value, false, JSON.stringify(none));
  }
  const refused: [unknown, string][] = [
    ['blurry', 'keptAnyway'],
    [['selfie'], 'keptAnyway'],
    [{ selfie: 'looks-fine' }, 'keptAnyway.selfie'],
    [{ selfie: true }, 'keptAnyway.selfie'],
    [{ passport: 'blurry' }, 'keptAnyway.passport'],
  ];
  for (const [value, field] of refused) {
    const v = validateCreateOnboarding(body({ keptAnyway: value }));
    assert.equal(v.ok, false, JSON.stringify(value));
    if (!v.ok) assert.deepEqual([v.status, v.error.code, v.error.field], [400, 'invalid_field', field]);
  }
  // A role whose image the body does not carry cannot have been kept.
  const absent = validateCreateOnboarding(body({ images: { documentFront: jpeg, selfie: jpeg }, keptAnyway: { documentBack: 'blurry' } }));
  assert.equal(absent.ok, false);
  if (!absent.ok) assert.equal(absent.error.field, 'keptAnyway.documentBack');
  assert.deepEqual([...KEPT_CHECKS].sort(), [
    'blurry',
    'face-off-center',
    'face-too-small',
    'no-document',
    'no-face',
    'several-faces',
    'too-bright',
    'too-dark',
    'too-small',
  ]);
});
