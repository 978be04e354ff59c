/**
 * The byte form of a creation's checks (`validateCreateOnboardingBytes`, `isPureBase64Bytes`),
 * which a server runs on the body as it read it, gives the very answer of the string form on the
 * same text: every refusal, every accepted value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  decodedLength,
  decodedLengthOfBytes,
  isPureBase64,
  isPureBase64Bytes,
  validateCreateOnboarding,
  validateCreateOnboardingBytes,
} from '@onboarding-kit/contract';

const ascii = (s: string) => Buffer.from(s, 'latin1');
const jpegBytes = (n: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(n)]);
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]).toString('base64');

test('isPureBase64Bytes answers as isPureBase64, short and long texts, every ending and every stray byte', () => {
  const long = jpegBytes(9000).toString('base64');
  const texts = [
    '',
    'AA==',
    'AB==',
    'AAA=',
    'AAB=',
    'AAAA',
    'A',
    'AA=',
    '====',
    'AA=A',
    '=AAA',
    'AAAA====',
    'AQ==',
    'Ag==',
    'Aw==',
    'AE==',
    'AAE=',
    'AAI=',
    'ab-_',
    'ab c',
    'ab\nc',
    'data:image/png;base64,AAAA',
    png,
    long,
    `${long}=`,
    `${long.slice(0, -4)}AB==`,
    long.replace('A', '-'),
    long.replace('B', '_'),
    `${long.slice(0, 5000)} ${long.slice(5001)}`,
    `${long.slice(0, 5000)}=${long.slice(5001)}`,
    `${long.slice(0, 7000)}\u00e9${long.slice(7002)}`,
  ];
  for (let i = 0; i < 256; i++) texts.push(`AAAA${String.fromCharCode(i)}AAA`, `${long.slice(0, 4096)}${String.fromCharCode(i)}AAA`);
  for (let n = 0; n < 12; n++) texts.push(randomBytes(n).toString('base64'), randomBytes(n + 4000).toString('base64'));
  for (const t of texts) {
    assert.equal(isPureBase64Bytes(ascii(t)), isPureBase64(t), JSON.stringify(t.slice(0, 40)));
    assert.equal(decodedLengthOfBytes(ascii(t)), decodedLength(t));
  }
});

test('isPureBase64Bytes: a stray byte at every place of an 8-byte step, in views at every byte offset of their buffer', () => {
  // The scan takes two characters per lookup, eight per step: a stray byte must count wherever it falls.
  const long = randomBytes(3000).toString('base64');
  for (let offset = 0; offset < 4; offset++) {
    const view = (t: string) => Buffer.concat([Buffer.alloc(offset, 0x41), ascii(t)]).subarray(offset);
    assert.equal(isPureBase64Bytes(view(long)), true, `offset ${offset}`);
    for (let at = 0; at < 24; at++) {
      for (const stray of [0x00, 0x2d, 0x3d, 0x5f, 0x80, 0xff, 0x20]) {
        const t = `${long.slice(0, 2000 + at)}${String.fromCharCode(stray)}${long.slice(2001 + at)}`;
        assert.equal(isPureBase64Bytes(view(t)), isPureBase64(t), `offset ${offset}, place ${at}, byte ${stray}`);
        assert.equal(isPureBase64Bytes(view(t)), false);
      }
    }
  }
});

test('validateCreateOnboardingBytes gives the answer of validateCreateOnboarding for the same texts', () => {
  const jpeg = jpegBytes(3000).toString('base64');
  const big = jpegBytes(5000).toString('base64');
  const bodies: Record<string, unknown>[] = [
    { cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: png } },
    { cpf: '529.982.247-25', name: ' Maria ', documentType: 'CNH', images: { documentFront: jpeg, documentBack: jpeg, selfie: png } },
    { cnpj: '11.222.333/0001-81', images: { documentFront: jpeg, selfie: jpeg } },
    { cpf: '111.111.111-11', images: { documentFront: jpeg, selfie: jpeg } },
    { cpf: '529.982.247-25', name: 'x<y', images: { documentFront: jpeg, selfie: jpeg } },
    { cpf: '529.982.247-25', images: { documentFront: jpeg } },
    { cpf: '529.982.247-25', images: { documentFront: '', selfie: jpeg } },
    { cpf: '529.982.247-25', images: { documentFront: big, selfie: '' } },
    { cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: `data:image/jpeg;base64,${jpeg}` } },
    { cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: Buffer.from('GIF89a-------').toString('base64') } },
    { cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: jpeg, other: jpeg } },
    { cpf: '529.982.247-25', images: { documentFront: `${jpeg.slice(0, -4)}AB==`, selfie: jpeg } },
    { cpf: '529.982.247-25' },
  ];
  const asBytes = (b: Record<string, unknown>) => {
    const images = b.images as Record<string, string> | undefined;
    return images ? { ...b, images: Object.fromEntries(Object.entries(images).map(([k, v]) => [k, ascii(v)])) } : b;
  };
  for (const body of bodies) {
    for (const limit of [4000, 1_000_000]) {
      const s = validateCreateOnboarding(body, limit);
      const b = validateCreateOnboardingBytes(asBytes(body), limit);
      if (!s.ok || !b.ok) {
        assert.deepEqual(b, s, JSON.stringify(body).slice(0, 100));
        continue;
      }
      const { images, ...rest } = b.value;
      const { images: stringImages, ...stringRest } = s.value;
      assert.deepEqual(rest, stringRest);
      assert.deepEqual(
        Object.fromEntries(Object.entries(images).map(([k, v]) => [k, { ...v, base64: Buffer.from(v.base64).toString('latin1') }])),
        stringImages,
      );
    }
  }
  // A string where the byte form expects bytes is not base64 to it.
  const v = validateCreateOnboardingBytes({ cpf: '529.982.247-25', images: { documentFront: jpeg, selfie: jpeg } });
  assert.equal(v.ok, false);
});

test('the alphabet scan runs as WebAssembly SIMD on Node, and it and the table agree on every byte at every place of a 32-byte step and across the 64 KiB scratch', async () => {
  const { alphabetOnly, alphabetOnlyByTable, alphabetScanKind, ALPHABET_BYTE } = await import('../src/base64-alphabet.js');
  assert.equal(alphabetScanKind(), 'simd');
  const clean = ascii(randomBytes(60_000).toString('base64')).subarray(0, 80_000);
  assert.equal(alphabetOnly(clean, 0, clean.length), true);
  assert.equal(alphabetOnlyByTable(clean, 0, clean.length), true);
  const places = [...Array.from({ length: 40 }, (_, i) => 1000 + i), 65_535, 65_536, 65_537, 65_536 + 31, 79_990, 79_999];
  for (let byte = 0; byte < 256; byte++) {
    for (const at of places) {
      const t = Buffer.from(clean);
      t[at] = byte;
      for (const [from, to] of [
        [0, t.length],
        [3, t.length - 5],
        [at - 600, at + 1],
      ] as const) {
        const expected = at < from || at >= to || ALPHABET_BYTE[byte] === 1;
        assert.equal(alphabetOnly(t, from, to), expected, `byte ${byte} at ${at}, run ${from}..${to}`);
        assert.equal(alphabetOnlyByTable(t, from, to), expected);
      }
      // A run that ends just before the byte does not see it.
      assert.equal(alphabetOnly(t, 0, at), true);
    }
  }
});
