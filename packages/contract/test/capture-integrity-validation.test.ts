/**
 * A creation's `integrity`: kept as sent when every member is what the contract says, refused as
 * `invalid_field` naming the member at fault otherwise, a keyframe over its size a 413, and the
 * same answers from the string and the bytes checks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAPTURE_INTEGRITY_LIMITS, validateCreateOnboarding, validateCreateOnboardingBytes } from '@onboarding-kit/contract';

const jpegBytes = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 7)]);
const jpeg = jpegBytes(12).toString('base64');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const creation = { cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: jpeg } };
const nonce = 'A'.repeat(43);
const hash = 'ab'.repeat(32);
const claim = {
  liveness: {
    result: 'passed',
    prompts: [
      { prompt: 'turn-left', met: true },
      { prompt: 'come-closer', met: true },
    ],
  },
  keyframes: [jpeg, jpeg],
  signals: [
    { name: 'webdriver', value: true },
    { name: 'file-despite-camera', role: 'selfie' },
    { name: 'regular-frame-timing', value: 0.003 },
  ],
  attestation: {
    links: [
      { item: 'documentFront', nonce, sha256: hash },
      { item: 'selfie', nonce: 'b-_'.repeat(6), sha256: hash },
      { item: 'keyframe-1', nonce, sha256: hash },
      { item: 'keyframe-2', nonce, sha256: hash },
    ],
    head: 'cd'.repeat(32),
  },
};

function refusal(integrity: unknown, status = 400) {
  const v = validateCreateOnboarding({ ...creation, integrity });
  assert.equal(v.ok, false, `accepted ${JSON.stringify(integrity)?.slice(0, 200)}`);
  if (v.ok) throw new Error('unreachable');
  assert.equal(v.status, status);
  // The bytes variant answers the same for the same text.
  const asBytes = (x: unknown) => (typeof x === 'string' ? Buffer.from(x) : x);
  const keyframes = (integrity as { keyframes?: unknown[] } | null)?.keyframes;
  const bytesBody = {
    ...creation,
    images: { documentFront: Buffer.from(jpeg), selfie: Buffer.from(jpeg) },
    integrity: Array.isArray(keyframes) ? { ...(integrity as object), keyframes: keyframes.map(asBytes) } : integrity,
  };
  assert.deepEqual(validateCreateOnboardingBytes(bytesBody), v);
  return v.error;
}

const change = (part: keyof typeof claim, value: unknown) => ({ ...claim, [part]: value });

test('a full claim is kept as sent, its keyframes measured, by the string and the bytes checks alike', () => {
  const v = validateCreateOnboarding({ ...creation, integrity: claim });
  assert.ok(v.ok);
  const { keyframes, ...rest } = v.value.integrity!;
  assert.deepEqual(rest, { liveness: claim.liveness, signals: claim.signals, attestation: claim.attestation });
  assert.deepEqual(keyframes, [
    { base64: jpeg, bytes: 12 },
    { base64: jpeg, bytes: 12 },
  ]);
  const b = validateCreateOnboardingBytes({
    ...creation,
    images: { documentFront: Buffer.from(jpeg), selfie: Buffer.from(jpeg) },
    integrity: { ...claim, keyframes: [Buffer.from(jpeg), Buffer.from(jpeg)] },
  });
  assert.ok(b.ok);
  assert.deepEqual(
    b.value.integrity!.keyframes!.map((k) => [Buffer.from(k.base64).toString(), k.bytes]),
    [
      [jpeg, 12],
      [jpeg, 12],
    ],
  );
});

test('no integrity, or an empty one, is no integrity; an unavailable challenge may say why', () => {
  for (const integrity of [undefined, {}]) {
    const v = validateCreateOnboarding({ ...creation, integrity });
    assert.ok(v.ok);
    assert.equal(v.value.integrity, undefined);
  }
  const liveness = { result: 'unavailable', reason: 'model-unavailable', prompts: [] };
  const v = validateCreateOnboarding({ ...creation, integrity: { liveness } });
  assert.ok(v.ok);
  assert.deepEqual(v.value.integrity, { liveness });
});

test('each malformed member is refused by its name', () => {
  const cases: [unknown, string][] = [
    ['yes', 'integrity'],
    [[], 'integrity'],
    [{ ...claim, verdict: 'valid' }, 'integrity.verdict'],
    [change('liveness', 'passed'), 'integrity.liveness'],
    [change('liveness', { result: 'maybe', prompts: [] }), 'integrity.liveness.result'],
    [change('liveness', { result: 'passed' }), 'integrity.liveness.prompts'],
    [change('liveness', { result: 'passed', prompts: [{ prompt: 'smile', met: true }] }), 'integrity.liveness.prompts[0].prompt'],
    [change('liveness', { result: 'passed', prompts: [{ prompt: 'turn-left', met: 'yes' }] }), 'integrity.liveness.prompts[0].met'],
    [change('liveness', { result: 'passed', prompts: [{ prompt: 'turn-left', met: true, at: 1 }] }), 'integrity.liveness.prompts[0].at'],
    [change('liveness', { result: 'passed', prompts: Array(4).fill({ prompt: 'turn-left', met: true }) }), 'integrity.liveness.prompts'],
    [change('liveness', { result: 'failed', prompts: [], reason: 'file' }), 'integrity.liveness.reason'],
    [change('liveness', { result: 'unavailable', prompts: [], reason: 'bored' }), 'integrity.liveness.reason'],
    [change('keyframes', jpeg), 'integrity.keyframes'],
    [change('keyframes', [jpeg, jpeg, jpeg, jpeg]), 'integrity.keyframes'],
    [change('keyframes', [jpeg, png]), 'integrity.keyframes[1]'],
    [change('keyframes', [`data:image/jpeg;base64,${jpeg}`]), 'integrity.keyframes[0]'],
    [change('keyframes', ['']), 'integrity.keyframes[0]'],
    [change('keyframes', [12]), 'integrity.keyframes[0]'],
    [change('signals', { name: 'webdriver' }), 'integrity.signals'],
    [change('signals', Array(33).fill({ name: 'webdriver' })), 'integrity.signals'],
    [change('signals', [{ name: 'webdriver' }, { name: 'webdriver' }, { name: 'bot' }]), 'integrity.signals[2].name'],
    [change('signals', [{ name: 'webdriver', role: 'proofOfAddress' }]), 'integrity.signals[0].role'],
    [change('signals', [{ name: 'webdriver', value: 'x'.repeat(121) }]), 'integrity.signals[0].value'],
    [change('signals', [{ name: 'webdriver', value: Number.NaN }]), 'integrity.signals[0].value'],
    [change('signals', [{ name: 'webdriver', value: null }]), 'integrity.signals[0].value'],
    [change('signals', [{ name: 'webdriver', value: { a: 1 } }]), 'integrity.signals[0].value'],
    [change('signals', [{ name: 'webdriver', proof: 1 }]), 'integrity.signals[0].proof'],
    [change('signals', ['webdriver']), 'integrity.signals[0]'],
    [change('attestation', { links: [] }), 'integrity.attestation.head'],
    [change('attestation', { links: [], head: 'AB'.repeat(32) }), 'integrity.attestation.head'],
    [change('attestation', { links: [], head: hash, signed: true }), 'integrity.attestation.signed'],
    [change('attestation', { links: 'all', head: hash }), 'integrity.attestation.links'],
    [
      change('attestation', { links: [{ item: 'proofOfAddress', nonce, sha256: hash }], head: hash }),
      'integrity.attestation.links[0].item',
    ],
    [change('attestation', { links: [{ item: 'keyframe-4', nonce, sha256: hash }], head: hash }), 'integrity.attestation.links[0].item'],
    [change('attestation', { links: [{ item: 'keyframe-0', nonce, sha256: hash }], head: hash }), 'integrity.attestation.links[0].item'],
    [
      change('attestation', {
        links: [
          { item: 'selfie', nonce, sha256: hash },
          { item: 'selfie', nonce, sha256: hash },
        ],
        head: hash,
      }),
      'integrity.attestation.links[1].item',
    ],
    [
      change('attestation', { links: [{ item: 'selfie', nonce: 'short', sha256: hash }], head: hash }),
      'integrity.attestation.links[0].nonce',
    ],
    [
      change('attestation', { links: [{ item: 'selfie', nonce: 'a'.repeat(129), sha256: hash }], head: hash }),
      'integrity.attestation.links[0].nonce',
    ],
    [
      change('attestation', { links: [{ item: 'selfie', nonce: `${'a'.repeat(20)}+/`, sha256: hash }], head: hash }),
      'integrity.attestation.links[0].nonce',
    ],
    [
      change('attestation', { links: [{ item: 'selfie', nonce, sha256: hash.slice(2) }], head: hash }),
      'integrity.attestation.links[0].sha256',
    ],
    [change('attestation', { links: [{ item: 'selfie', nonce, sha256: hash, at: 1 }], head: hash }), 'integrity.attestation.links[0].at'],
  ];
  for (const [integrity, field] of cases) {
    const error = refusal(integrity);
    assert.equal(error.code, 'invalid_field', field);
    assert.equal(error.field, field, JSON.stringify(integrity).slice(0, 200));
    assert.ok(error.message.startsWith(field), error.message);
  }
});

test('an attestation links at most the images and keyframes the creation carries', () => {
  const links = ['documentFront', 'selfie', 'keyframe-1'].map((item) => ({ item, nonce, sha256: hash }));
  const three = validateCreateOnboarding({ ...creation, integrity: { keyframes: [jpeg], attestation: { links, head: hash } } });
  assert.ok(three.ok);
  const error = refusal({ attestation: { links, head: hash } });
  assert.equal(error.field, 'integrity.attestation.links');
});

test('a keyframe over its limit is 413 image_too_large, before any other member is looked at', () => {
  const { keyframeMaxBytes } = CAPTURE_INTEGRITY_LIMITS;
  const atLimit = jpegBytes(keyframeMaxBytes).toString('base64');
  assert.ok(validateCreateOnboarding({ ...creation, integrity: { keyframes: [atLimit] } }).ok);
  const over = jpegBytes(keyframeMaxBytes + 1).toString('base64');
  const error = refusal({ keyframes: [jpeg, over], signals: 'broken' }, 413);
  assert.deepEqual([error.code, error.field], ['image_too_large', 'integrity.keyframes[1]']);
  const beforeImages = validateCreateOnboarding({
    ...creation,
    images: { documentFront: 'not base64!', selfie: jpeg },
    integrity: { keyframes: [over] },
  });
  assert.equal(beforeImages.ok ? 0 : beforeImages.status, 413);
});
