/**
 * Base64 and magic bytes at their edges: canonical text only, on the short path (a regular
 * expression, also the browser's) and the long one (Node's codec) alike; prefix decodes that
 * read no further than the prefix; signatures that fill the whole input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { base64ToBytes, bytesToBase64, isPdf, isPureBase64, parseDataUri, sniffBytes } from '@onboarding-kit/contract';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Node's verdict: text is canonical base64 when decoding and encoding again gives it back. */
const canonical = (text: string) => Buffer.from(text, 'base64').toString('base64') === text;

test('property: a padded ending is pure only when its spare bits are zero, short or long', () => {
  const char = fc.constantFrom(...ALPHABET.split(''));
  const ending = fc.oneof(
    fc.tuple(char, char).map(([a, b]) => `${a}${b}==`),
    fc.tuple(char, char, char).map(([a, b, c]) => `${a}${b}${c}=`),
  );
  fc.assert(
    fc.property(ending, (end) => {
      assert.equal(isPureBase64(`QUJD${end}`), canonical(`QUJD${end}`), end);
      const long = `${'QUJD'.repeat(1024)}${end}`;
      assert.equal(isPureBase64(long), canonical(long), `long text ending ${end}`);
    }),
  );
  assert.equal(isPureBase64('AB=='), false);
  assert.equal(isPureBase64('AA=='), true);
  assert.equal(isPureBase64('AAB='), false);
  assert.equal(isPureBase64('AAE='), true);
});

test('long texts are checked too: a stray character or space anywhere is refused', () => {
  const body = 'QUJD'.repeat(2048);
  assert.equal(isPureBase64(body), true);
  assert.equal(isPureBase64(`${body.slice(0, 4000)}Q UJ${body.slice(4004)}`), false);
  assert.equal(isPureBase64(`${body.slice(0, 4000)}-_Q=${body.slice(4004)}`), false);
});

test('a prefix decode checks only the characters of that prefix', () => {
  const text = 'QUJDREVG!!!!'; // "ABCDEF", then garbage the prefix never reaches
  assert.deepEqual([...base64ToBytes(text, 3)], [65, 66, 67]);
  assert.deepEqual([...base64ToBytes(text, 6)], [65, 66, 67, 68, 69, 70]);
  assert.throws(() => base64ToBytes(text, 7), { name: 'TypeError', message: 'Not pure base64' });
});

test('encoding more than one buffered run (12 KiB and up) matches Node byte for byte', () => {
  const bytes = Uint8Array.from({ length: 3 * 4096 * 2 + 5 }, (_, i) => (i * 31 + 7) & 255);
  assert.equal(bytesToBase64(bytes), Buffer.from(bytes).toString('base64'));
});

test('a data URI must start the text', () => {
  assert.equal(parseDataUri('see data:image/png;base64,AAAA'), null);
  assert.deepEqual(parseDataUri('DATA:Image/PNG;base64,AAAA'), { mime: 'image/png', base64: 'AAAA' });
});

test('a signature may fill the whole input; WebP needs both RIFF and WEBP', () => {
  assert.equal(sniffBytes(new Uint8Array([0xff, 0xd8, 0xff])), 'image/jpeg');
  assert.equal(sniffBytes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'image/png');
  assert.equal(sniffBytes(new TextEncoder().encode('%PDF-')), 'application/pdf');
  assert.equal(sniffBytes(new TextEncoder().encode('RIFF\x24\x00\x00\x00WEBP')), 'image/webp');
  assert.equal(sniffBytes(new TextEncoder().encode('RIFX\x24\x00\x00\x00WEBPVP8 ')), null);
  assert.equal(sniffBytes(new TextEncoder().encode('RIFF\x24\x00\x00\x00WEB')), null);
  assert.equal(isPdf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), false);
  assert.equal(isPdf(new TextEncoder().encode('%PDF')), false);
});
