import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import { TRANSPORTS, getToken, getWith, harness, postJson, type Json } from './helpers.js';

const UNAUTHORIZED = { status: { code: 401, message: 'Unauthorized' } };
const PROTECTED: [string, string, unknown?][] = [
  ['POST', '/api/service-api', { service: 'SERVICE_PEP', cpf: '529.982.247-25' }],
  ['POST', '/api/token-history-onboarding', { cpf: '529.982.247-25' }],
  ['GET', '/api/customer?documentKey=52998224725'],
  ['GET', '/api/onboarding/report/00000000-0000-4000-8000-000000000000'],
  ['GET', '/api/history-onboarding-report/00000000-0000-4000-8000-000000000000'],
];

for (const transport of TRANSPORTS) {
  describe(`auth over ${transport}`, () => {
    test('token-generate issues an HS256 JWT with expires_in = tokenTtlS', async () => {
      const h = await harness(transport, { tokenTtlS: 120 });
      try {
        const res = await postJson(h.fetch, '/api/token-generate', { client: 'sandbox-client', secret: 'sandbox-secret' });
        assert.equal(res.status, 200);
        const body = (await res.json()) as Json;
        assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in']);
        assert.equal(body.expires_in, 120);
        const [header, payload, signature] = (body.access_token as string).split('.');
        assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' });
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Json;
        assert.equal(claims.exp - claims.iat >= 120 && claims.exp - claims.iat <= 121, true);
        assert.equal(Buffer.from(signature!, 'base64url').length, 32);
        assert.equal(h.sandbox.stats().tokensIssued, 1);
      } finally {
        await h.close();
      }
    });

    test('wrong client or secret: HTTP 401 Unauthorized; malformed body: HTTP 400', async () => {
      const h = await harness(transport, { client: 'acme', secret: 's3cret' });
      try {
        for (const creds of [
          { client: 'acme', secret: 'wrong' },
          { client: 'other', secret: 's3cret' },
          { client: '', secret: '' },
        ]) {
          const res = await postJson(h.fetch, '/api/token-generate', creds);
          assert.equal(res.status, 401);
          const text = await res.text();
          assert.deepEqual(JSON.parse(text), UNAUTHORIZED);
          assert.equal(text.includes('s3cret'), false);
        }
        for (const body of ['{not json', '[]', JSON.stringify({ client: 'acme' }), JSON.stringify({ client: 'acme', secret: 42 })]) {
          const res = await postJson(h.fetch, '/api/token-generate', body);
          assert.equal(res.status, 400, body);
          assert.equal(((await res.json()) as Json).status.code, 400);
        }
        assert.equal(h.sandbox.stats().tokensIssued, 0);
        assert.ok((await getToken(h.fetch, 'acme', 's3cret')).length > 20);
      } finally {
        await h.close();
      }
    });

    test('every protected endpoint: missing, garbage, forged or revoked token -> real HTTP 401', async () => {
      const h = await harness(transport);
      const other = await harness('app.request');
      try {
        const token = await getToken(h.fetch);
        const foreign = await getToken(other.fetch); // signed with another sandbox's key: another environment
        const [head, payload, sig] = token.split('.');
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Json;
        const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url')}.${sig}`;
        for (const [method, path, body] of PROTECTED) {
          for (const bad of [undefined, 'garbage', foreign, tampered]) {
            const res = method === 'POST' ? await postJson(h.fetch, path, body, bad) : await getWith(h.fetch, path, bad);
            assert.equal(res.status, 401, `${method} ${path} with ${bad ? 'a bad' : 'no'} token`);
            assert.deepEqual(await res.json(), UNAUTHORIZED);
          }
          const ok = method === 'POST' ? await postJson(h.fetch, path, body, token) : await getWith(h.fetch, path, token);
          assert.notEqual(ok.status, 401, `${method} ${path} with a valid token`);
        }
        h.sandbox.expireTokens();
        for (const [method, path, body] of PROTECTED) {
          const res = method === 'POST' ? await postJson(h.fetch, path, body, token) : await getWith(h.fetch, path, token);
          assert.equal(res.status, 401, `${method} ${path} after expireTokens()`);
        }
        const fresh = await getToken(h.fetch);
        assert.equal((await getWith(h.fetch, '/api/customer?documentKey=52998224725', fresh)).status, 200);
      } finally {
        await h.close();
        await other.close();
      }
    });

    test('a token is refused from tokenTtlS after its issue, to the millisecond', async () => {
      const clock = new ManualClock();
      const h = await harness(transport, { tokenTtlS: 1, clock });
      try {
        const token = await getToken(h.fetch);
        await clock.advance(999);
        const before = await getWith(h.fetch, '/api/customer?documentKey=52998224725', token);
        assert.equal(before.status, 200, 'valid until its last millisecond');
        await clock.advance(1);
        const after = await getWith(h.fetch, '/api/customer?documentKey=52998224725', token);
        assert.equal(after.status, 401);
        assert.deepEqual(await after.json(), UNAUTHORIZED);
      } finally {
        await h.close();
      }
    });
  });
}
