import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  base64ToBytes,
  bytesToBase64,
  decodedLength,
  isPureBase64,
  parseDataUri,
  sniffBase64,
  sniffBytes,
  toDataUri,
  toPureBase64,
  isAcceptedImageType,
  isPdf,
} from '@onboarding-kit/contract';

test('property: bytes -> base64 -> bytes round-trips and matches Node', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
      const b64 = bytesToBase64(bytes);
      assert.equal(b64, Buffer.from(bytes).toString('base64'));
      assert.equal(isPureBase64(b64), true);
      assert.equal(decodedLength(b64), bytes.length);
      assert.deepEqual(base64ToBytes(b64), bytes);
    }),
  );
});

test('property: a prefix decode gives the first bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 512 }), fc.nat(600), (bytes, n) => {
      const prefix = base64ToBytes(bytesToBase64(bytes), n);
      assert.deepEqual(prefix, bytes.slice(0, n));
    }),
  );
});

test('property: data URI round trip keeps the pure part', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 256 }), fc.constantFrom('image/jpeg', 'image/png'), (bytes, mime) => {
      const b64 = bytesToBase64(bytes);
      const uri = toDataUri(b64, mime);
      assert.deepEqual(parseDataUri(uri), { mime, base64: b64 });
      assert.equal(toPureBase64(uri), b64);
      assert.equal(toPureBase64(b64), b64);
      assert.equal(isPureBase64(uri), false);
    }),
  );
});

test('not pure base64: prefixes, whitespace, bad padding, url-safe alphabet', () => {
  for (const bad of ['data:image/jpeg;base64,AAAA', 'AA AA', 'AAA', 'A===', 'AA=A', 'AB-_', 'AAAA\n']) {
    assert.equal(isPureBase64(bad), false, bad);
    assert.throws(() => base64ToBytes(bad), TypeError);
  }
  assert.equal(isPureBase64(''), true);
  assert.equal(parseDataUri('data:image/png,notbase64'), null);
  assert.equal(parseDataUri('data:image/png;charset=utf-8;base64,AAAA')?.base64, 'AAAA');
});

test('decoded length without decoding, for padded text', () => {
  assert.equal(decodedLength(''), 0);
  assert.equal(decodedLength('QQ=='), 1);
  assert.equal(decodedLength('QUI='), 2);
  assert.equal(decodedLength('QUJD'), 3);
});

const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');

test('sniffing by magic bytes: JPEG, PNG, WebP, PDF, and the rest', () => {
  assert.equal(sniffBase64(b64([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])), 'image/jpeg');
  assert.equal(sniffBase64(b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])), 'image/png');
  assert.equal(sniffBase64(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1').toString('base64')), 'image/webp');
  assert.equal(sniffBase64(Buffer.from('%PDF-1.4\n%...').toString('base64')), 'application/pdf');
  assert.equal(sniffBase64(Buffer.from('GIF89a......').toString('base64')), null);
  assert.equal(sniffBase64(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1').toString('base64')), null);
  assert.equal(sniffBase64('data:image/jpeg;base64,/9j/'), null);
  assert.equal(sniffBytes(new Uint8Array([0xff, 0xd8])), null);
  assert.equal(isPdf(new TextEncoder().encode('%PDF-1.7')), true);
  assert.equal(isAcceptedImageType('image/webp'), false);
  assert.equal(isAcceptedImageType('image/png'), true);
});

test('property: the native fast path and the portable check agree, on long texts too', () => {
  const PORTABLE = /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
  const portable = (s: string) => s.length % 4 === 0 && PORTABLE.test(s);
  const mutate = fc.tuple(
    fc.uint8Array({ minLength: 3000, maxLength: 6000 }),
    fc.nat(),
    fc.constantFrom('', ' ', '\n', '-', '_', '=', '==', 'A', 'é', '*'),
  );
  fc.assert(
    fc.property(mutate, ([bytes, at, insert]) => {
      const b64 = bytesToBase64(bytes);
      const pos = at % (b64.length + 1);
      const text = b64.slice(0, pos) + insert + b64.slice(pos + insert.length);
      assert.equal(isPureBase64(text), portable(text), JSON.stringify({ pos, insert }));
    }),
    { numRuns: 300 },
  );
});

test('a prefix decode checks only the prefix; a full decode checks everything', () => {
  const good = bytesToBase64(new Uint8Array(6000).fill(0xff));
  const badTail = `${good.slice(0, -4)}!!!!`;
  assert.deepEqual(base64ToBytes(badTail, 16), new Uint8Array(16).fill(0xff));
  assert.throws(() => base64ToBytes(badTail), TypeError);
  assert.equal(sniffBase64('!!!!AAAA'), null);
});
