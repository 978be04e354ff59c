import { test, describe, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAMPLE_PNG_BASE64, createSandbox, writePdf } from '../src/index.js';
import { checkImage } from '../src/images.js';
import { Product } from '../src/product.js';
import { safeEqual } from '../src/auth/safe-equal.js';
import { TokenIssuer } from '../src/auth/tokens.js';
import { Rng } from '../src/data/prng.js';
import { requestFor } from './fixtures.js';
import { NOT_AN_IMAGE_BASE64, TRUNCATED_PNG_BASE64, assertXrefValid, getToken, harness, query, tinyJpegBase64 } from './helpers.js';

describe('image checks', () => {
  test('accepts plausible JPEG, PNG and WebP; refuses unknown, truncated and damaged bytes', () => {
    const webp = Buffer.alloc(40);
    webp.write('RIFF', 0);
    webp.writeUInt32LE(32, 4);
    webp.write('WEBP', 8);
    webp.write('VP8 ', 12);
    for (const good of [SAMPLE_PNG_BASE64, tinyJpegBase64(), webp.toString('base64'), `data:image/png;base64,${SAMPLE_PNG_BASE64}`]) {
      assert.equal(checkImage(good).ok, true);
    }
    const jpegNoEnd = Buffer.from(tinyJpegBase64(), 'base64').subarray(0, -2).toString('base64');
    const jpegNoFrame = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xd9]).toString('base64');
    const pngZeroWidth = Buffer.from(SAMPLE_PNG_BASE64, 'base64');
    pngZeroWidth.writeUInt32BE(0, 16);
    const webpShort = Buffer.from(webp);
    webpShort.writeUInt32LE(4000, 4);
    for (const bad of [
      NOT_AN_IMAGE_BASE64,
      TRUNCATED_PNG_BASE64,
      jpegNoEnd,
      jpegNoFrame,
      pngZeroWidth.toString('base64'),
      webpShort.toString('base64'),
      '',
      'a b',
      Buffer.from('%PDF-1.7 hi').toString('base64'),
    ]) {
      assert.equal(checkImage(bad).ok, false, bad.slice(0, 30));
    }
  });
});

describe('pdf writer', () => {
  test('escapes text, maps non-Latin-1 to ?, keeps exact xref offsets', () => {
    const text = Buffer.from(writePdf([{ text: 'Olá (mundo) \\ back', size: 14 }, { text: 'emoji 🙂 ok' }])).toString('latin1');
    assert.ok(text.startsWith('%PDF-1.4\n'));
    assert.ok(text.endsWith('%%EOF\n'));
    assert.ok(text.includes('(Ol\xe1 \\(mundo\\) \\\\ back) Tj'));
    assert.ok(text.includes('(emoji ?? ok) Tj') || text.includes('(emoji ? ok) Tj'));
    assertXrefValid(text);
    const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)![1]);
    const start = text.indexOf('stream\n') + 'stream\n'.length;
    assert.equal(text.slice(start + length, start + length + '\nendstream'.length), '\nendstream');
  });
});

describe('tokens and product', () => {
  test('safeEqual compares exactly; a token expires at its instant, to the millisecond', () => {
    assert.equal(safeEqual('abc', 'abc'), true);
    assert.equal(safeEqual('abc', 'abd'), false);
    assert.equal(safeEqual('abc', 'abcd'), false);
    // Decided by the constant-time comparison of two digests, never by an early-exit ===.
    const spy = mock.method(crypto, 'timingSafeEqual');
    syncBuiltinESMExports();
    try {
      for (const [a, b] of [
        ['client', 'client'],
        ['client', 'clienT'],
        ['', 'secret'],
      ] as const)
        safeEqual(a, b);
      assert.deepEqual(
        spy.mock.calls.map((c) => (c.arguments as unknown as Uint8Array[]).map((x) => x.byteLength)),
        [
          [32, 32],
          [32, 32],
          [32, 32],
        ],
      );
    } finally {
      spy.mock.restore();
      syncBuiltinESMExports();
    }
    let now = 1_000_000;
    const issuer = new TokenIssuer(2, () => now);
    const { access_token } = issuer.issue('c');
    now += 1_999;
    assert.equal(issuer.verify(access_token), 'c');
    now += 1;
    assert.equal(issuer.verify(access_token), null);
  });

  test('Product rejects enabled entries and aliases that name no catalog service', () => {
    assert.throws(() => new Product(['SERVICE_DOES_NOT_EXIST'], {}), /names no catalog service/);
    assert.throws(() => new Product('all', { SERVICE_NOPE: 'X' } as never), /not a catalog service/);
    const p = new Product(['SERVICE_DOCUMENTOSCOPY'], { SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' });
    assert.equal(p.resolve('SERVICE_DOCUMENTOSCOPY'), 'SERVICE_DIGITAL_DOCUMENTOSCOPY');
    assert.equal(p.resolve('SERVICE_DIGITAL_DOCUMENTOSCOPY'), undefined);
    assert.throws(() => createSandbox({ tokenTtlS: 0 }), RangeError);
  });

  test('the PRNG is a pure function of its label', () => {
    const a = new Rng('x');
    const b = new Rng('x');
    const c = new Rng('y');
    const seq = (r: Rng) => Array.from({ length: 5 }, () => r.next());
    const sa = seq(a);
    assert.deepEqual(sa, seq(b));
    assert.notDeepEqual(sa, seq(c));
    assert.ok(sa.every((x) => x >= 0 && x < 1));
  });
});

describe('image URLs', () => {
  test('image1Url is fetched for real and checked like a base64 image', async () => {
    const png = Buffer.from(SAMPLE_PNG_BASE64, 'base64');
    const server = createServer((req, res) => {
      if (req.url === '/doc.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/text') res.writeHead(200).end('hello');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const h = await harness('app.request');
    try {
      const token = await getToken(h.fetch);
      const body = requestFor('SERVICE_OCR');
      delete body.image1;
      const ok = await query(h.fetch, token, { ...body, image1Url: `${base}/doc.png` });
      assert.equal(ok.status.code, 200);
      const inline = await query(h.fetch, token, requestFor('SERVICE_OCR'));
      assert.deepEqual(ok.result, inline.result, 'the same bytes give the same reading');
      for (const url of [`${base}/text`, `${base}/missing`, 'ftp://example.com/x.png', 'not a url']) {
        const refused = await query(h.fetch, token, { ...body, image1Url: url });
        assert.equal(refused.onboardingStatus, 'REFUSED', url);
      }
    } finally {
      await h.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('mounting', () => {
  test('the app mounts under a prefix of a host Hono app (as the demo runner embeds it)', async () => {
    const { Hono } = await import('hono');
    const sandbox = createSandbox({ processingMs: 10 });
    try {
      const host = new Hono();
      const app: InstanceType<typeof Hono> = sandbox.app; // the documented type: a plain Hono, mountable anywhere
      host.route('/upstream', app);
      const f = async (path: string, init?: RequestInit) => host.request(`/upstream${path}`, init);
      const token = await getToken(f);
      const pep = await query(f, token, { service: 'SERVICE_PEP', cpf: '529.982.247-25' });
      assert.equal(pep.status.code, 200);
      assert.equal((await host.request('/api/token-generate', { method: 'POST', body: '{}' })).status, 404);
      assert.equal(sandbox.stats().requests['POST /api/service-api'], 1);
    } finally {
      sandbox.close();
    }
  });
});
