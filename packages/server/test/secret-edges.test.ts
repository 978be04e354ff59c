/**
 * The edges of the secret checks (auth/access-key.ts) that a right-or-wrong key does not reach:
 * an absent secret never matches, not even a stored digest of nothing or the stand-in digest an
 * unknown token is compared with; the Bearer header parses exactly one token; stored digests are
 * the SHA-256 hex of the key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { bearer, hashSecret, keyMatches, newAccessKey, secretEquals } from '../src/auth/access-key.js';
import { requireAdminKey } from '../src/admin/auth.js';
import { CompanionError } from '../src/http/companion-error.js';

test('hashSecret is the SHA-256 of the UTF-8 text, in hex', () => {
  assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(hashSecret(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('an absent key never matches, whatever is stored', () => {
  assert.equal(keyMatches(undefined, hashSecret('')), false);
  assert.equal(keyMatches('', hashSecret('')), true, 'the empty string is a key like any other; only absence is refused');
  assert.equal(secretEquals(undefined, ''), false);
  assert.equal(secretEquals('', ''), true);
});

test('an unknown token (no stored digest) never matches, not even the stand-in it is compared with', () => {
  for (const presented of ['no onboarding has this key', '', newAccessKey()]) {
    assert.equal(keyMatches(presented, undefined), false, presented);
  }
});

test('access keys are 32 random bytes in base64url', () => {
  const keys = new Set(Array.from({ length: 50 }, () => newAccessKey()));
  assert.equal(keys.size, 50);
  for (const key of keys) assert.match(key, /^[A-Za-z0-9_-]{43}$/);
});

test('Authorization: one Bearer token, any case and spacing around it; anything else is no token', () => {
  const key = newAccessKey();
  for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `Bearer   ${key}`, `Bearer\t${key}`, `Bearer ${key}  `]) {
    assert.equal(bearer(header), key, JSON.stringify(header));
  }
  for (const header of [
    undefined,
    '',
    'Bearer',
    'Bearer ',
    `Basic ${key}`,
    `xBearer ${key}`,
    ` Bearer ${key}`,
    `Bearer ${key} extra`,
    `Bearer${key}`,
    key,
  ]) {
    assert.equal(bearer(header), undefined, JSON.stringify(header));
  }
});

test('the admin key: refused in words with a Bearer challenge; the right key passes; an empty key is a setup error', async () => {
  const app = new Hono();
  app.use(requireAdminKey('admin-key-0123456789abcdef'));
  app.get('/', (c) => c.text('in'));
  app.onError((e, c) => (e instanceof CompanionError ? e.getResponse() : c.text(String(e), 500)));
  const refused = await app.request('/', { headers: { authorization: 'Bearer admin-key-0123456789abcdeF' } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="onboarding-admin"');
  assert.deepEqual(await refused.json(), {
    error: { code: 'unauthorized', message: 'A valid admin key is required (Authorization: Bearer <ONBOARDING_ADMIN_KEY>).' },
  });
  assert.equal(await (await app.request('/', { headers: { authorization: 'Bearer admin-key-0123456789abcdef' } })).text(), 'in');
  assert.throws(() => requireAdminKey(''), /non-empty adminKey/);
});
