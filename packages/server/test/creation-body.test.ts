/**
 * The creation body read over its bytes (src/onboardings/creation-body.ts) answers exactly as
 * `JSON.parse` + `validateCreateOnboarding` do, for the usual body and for every body outside its
 * shape (escapes, numbers, nesting, a byte-order mark, bad UTF-8, duplicate keys...).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { validateCreateOnboarding } from '@onboarding-kit/contract';
import { scanCreationBody, validateCreationBytes } from '../src/onboardings/creation-body.js';
import { CompanionError } from '../src/http/companion-error.js';

const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(6000)]).toString('base64');
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');
const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3000)]).toString('base64');
const reading = { documentFront: { qr: { payloadBase64: 'aGVsbG8=' }, documentKind: 'CNH' } };
const link = (item: string) => ({ item, nonce: 'n'.repeat(43), sha256: 'ab'.repeat(32) });
const integrity = {
  liveness: { result: 'failed', prompts: [{ prompt: 'turn-right', met: false }] },
  keyframes: [jpeg, jpeg],
  signals: [
    { name: 'odd-video-format', role: 'selfie', value: '641x480@90' },
    { name: 'regular-frame-timing', value: 0.002 },
  ],
  attestation: { links: ['documentFront', 'selfie', 'keyframe-1'].map(link), head: 'cd'.repeat(32) },
};

function general(bytes: Buffer, limit: number) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return 'invalid_json';
  }
  return validateCreateOnboarding(parsed, limit);
}

function ours(bytes: Buffer, limit: number) {
  try {
    const v = validateCreationBytes(bytes, limit);
    if (!v.ok) return v;
    const images = Object.fromEntries(
      Object.entries(v.value.images).map(([k, i]) => [k, { ...i, base64: Buffer.from(i.base64).toString('latin1') }]),
    );
    const text = <T extends { base64: Uint8Array }>(item: T) => ({ ...item, base64: Buffer.from(item.base64).toString('latin1') });
    const { proofOfAddress: proof, integrity } = v.value;
    const keyframes = integrity?.keyframes;
    return {
      ok: true,
      value: {
        ...v.value,
        images,
        ...(proof && { proofOfAddress: text(proof) }),
        ...(integrity && { integrity: { ...integrity, ...(keyframes && { keyframes: keyframes.map(text) }) } }),
      },
    };
  } catch (e) {
    if (e instanceof CompanionError && e.code === 'invalid_json') return 'invalid_json';
    throw e;
  }
}

test('every body gets the answer of JSON.parse + validateCreateOnboarding, images as views of the body', () => {
  const bodies: (string | Buffer)[] = [
    JSON.stringify({
      cpf: '529.982.247-25',
      name: 'Maria Silva',
      documentType: 'CNH',
      images: { documentFront: jpeg, documentBack: jpeg, selfie: png },
    }),
    ` \n{ "cpf" : "529.982.247-25" ,\t"images" : { "documentFront" : "${jpeg}" , "selfie" : "${png}" } } \r\n`,
    JSON.stringify({ cpf: '529.982.247-25', name: 'João Ñandú', images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', images: { documentFront: jpeg.replace(/\//g, '\\/'), selfie: png } }).replace(/\\\\\//g, '\\/'),
    JSON.stringify({ cpf: '529.982.247-25', name: 'M\\"aria', images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', extra: 12, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', extra: { a: [1] }, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: null } }),
    JSON.stringify({ cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: '' } }),
    JSON.stringify({ cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: png, __proto__x: png } }),
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}","__proto__":"${png}"}}`,
    `{"__proto__":{"cpf":"1"},"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"111.111.111-11","cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}"},"images":{"documentFront":"${png}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","images":"${jpeg}"}`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}"}`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}"}}x`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}",}}`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg.slice(0, 100)}\\"${jpeg.slice(100)}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg.slice(0, 100)}\\n${jpeg.slice(100)}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","images":{"documentFront":"data:image/jpeg;base64,${jpeg}","selfie":"${png}"}}`,
    `\ufeff{"cpf":"529.982.247-25","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    Buffer.concat([
      Buffer.from('{"cpf":"529.982.247-25","name":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(`","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`),
    ]),
    Buffer.concat([
      Buffer.from('{"cpf":"529.982.247-25","images":{"documentFront":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(`${jpeg}","selfie":"${png}"}}`),
    ]),
    `{"cpf":"529.982.247-25","name":"a\tb","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","proofOfAddress":"${pdf}","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","proofOfAddress":"${jpeg}","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","proofOfAddress":"R0lGODlh","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","proofOfAddress":{"a":"b"},"images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    JSON.stringify({ cpf: '529.982.247-25', proofOfAddress: pdf, documentReading: reading, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({
      cpf: '529.982.247-25',
      documentReading: { documentFront: { qr: 'x' } },
      images: { documentFront: jpeg, selfie: png },
    }),
    JSON.stringify({ cpf: '529.982.247-25', integrity, images: { documentFront: jpeg, selfie: png } }),
    ` {"cpf":"529.982.247-25","integrity" : { "signals" : [ {"name":"webdriver","value":"a\\"},b"} ] , "keyframes" : [ "${jpeg}" ] },"images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    JSON.stringify({ cpf: '529.982.247-25', integrity: { keyframes: [] }, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', integrity: { keyframes: [jpeg, png] }, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', integrity: { keyframes: jpeg }, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', integrity: { keyframes: [1] }, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', integrity: { signals: [{ name: 'bot' }] }, images: { documentFront: jpeg, selfie: png } }),
    JSON.stringify({ cpf: '529.982.247-25', integrity: { liveness: null }, images: { documentFront: jpeg, selfie: png } }),
    `{"cpf":"529.982.247-25","integrity":{"signals":[{"name":"webdriver"}},"images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","integrity":{"signals":[1,],"keyframes":["${jpeg}",]},"images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    `{"cpf":"529.982.247-25","integrity":"x","images":{"documentFront":"${jpeg}","selfie":"${png}"}}`,
    '',
    '   ',
    '[]',
    '"x"',
    '{}',
    'null',
    '{"cpf":"529.982.247-25"}',
  ];
  for (const body of bodies) {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    for (const limit of [3000, 4 * 1024 * 1024]) {
      assert.deepEqual(ours(bytes, limit), general(bytes, limit), bytes.subarray(0, 120).toString());
    }
  }
});

test('the usual body is scanned, not parsed: its images are views of the body buffer', () => {
  const bytes = Buffer.from(JSON.stringify({ cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: png } }));
  assert.ok(scanCreationBody(bytes));
  const v = validateCreationBytes(bytes, 4 * 1024 * 1024);
  assert.ok(v.ok);
  if (!v.ok) return;
  assert.equal(v.value.images.documentFront!.base64.buffer, bytes.buffer, 'no copy of the image');
  assert.equal(scanCreationBody(Buffer.from('{"cpf":1}')), undefined);
});

test('a proof of address is scanned like an image: a view of the body buffer, checked by its magic bytes', () => {
  const bytes = Buffer.from(JSON.stringify({ cpf: '529.982.247-25', proofOfAddress: pdf, images: { documentFront: jpeg, selfie: png } }));
  const v = validateCreationBytes(bytes, 4 * 1024 * 1024);
  assert.ok(v.ok);
  if (!v.ok) return;
  assert.equal(v.value.proofOfAddress!.mime, 'application/pdf');
  assert.equal(v.value.proofOfAddress!.base64.buffer, bytes.buffer, 'no copy of the proof');
});

test('keyframes are scanned like images: views of the body buffer, the rest of integrity parsed', () => {
  const bytes = Buffer.from(JSON.stringify({ cpf: '529.982.247-25', integrity, images: { documentFront: jpeg, selfie: png } }));
  assert.ok(scanCreationBody(bytes));
  const v = validateCreationBytes(bytes, 4 * 1024 * 1024);
  assert.ok(v.ok);
  if (!v.ok) return;
  for (const keyframe of v.value.integrity!.keyframes!) assert.equal(keyframe.base64.buffer, bytes.buffer, 'no copy of the keyframe');
  assert.deepEqual(v.value.integrity!.signals, integrity.signals);
});
