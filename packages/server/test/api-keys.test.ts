/**
 * The backend's API keys: the keyring (hashes only, every key checked), the middleware's 401 in
 * the error shape, and the admin routes accepting API keys beside the admin key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { Hono } from 'hono';
import { ApiKeyring, requireApiKey } from '../src/auth/api-keys.js';
import { newAccessKey } from '../src/auth/access-key.js';
import type { CompanionEnv } from '../src/http/env.js';
import { companionErrorHandler, notFoundHandler } from '../src/http/error-handler.js';
import { silentLogger } from '../src/logger.js';
import { CompanionConfigError } from '../src/options.js';
import { ADMIN_KEY, hostApp, memoryStore, minimalPdf, startStandIn, standInUpstream, type StandIn } from './admin-standin.js';

const KEY_A = `ak_live_${randomBytes(24).toString('base64url')}`;
const KEY_B = `ak_next_${randomBytes(24).toString('base64url')}`;
/** What a page holds: an onboarding's access key, and a session's client secret (same shape as the session service's). */
const PAGE_ACCESS_KEY = newAccessKey();
const CLIENT_SECRET = `ses_${randomBytes(16).toString('hex')}_secret_${randomBytes(24).toString('base64url')}`;

function backend(keyring: ApiKeyring, options: Parameters<typeof requireApiKey>[1] = {}) {
  const app = new Hono<CompanionEnv>();
  app.onError(companionErrorHandler({ logger: silentLogger, environment: 'test' }));
  app.notFound(notFoundHandler);
  app.use('/v1/backend/*', requireApiKey(keyring, options));
  app.get('/v1/backend/ping', (c) => c.json({ ok: true }));
  return app;
}

const ping = (app: Hono<CompanionEnv>, authorization?: string) =>
  Promise.resolve(app.request('/v1/backend/ping', authorization === undefined ? {} : { headers: { authorization } }));

async function expect401(res: Response): Promise<void> {
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="onboarding-backend"');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const body = (await res.json()) as { error: { code: string; message: string } };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, 'unauthorized');
  assert.match(body.error.message, /API key/);
}

describe('ApiKeyring.from', () => {
  test('refuses no keys, short keys, keys with whitespace and non-strings, without the key in the message', () => {
    const short = 'x'.repeat(31);
    for (const keys of [
      [],
      [short],
      [KEY_A, short],
      [`${KEY_A} `],
      [`${KEY_A.slice(0, 20)}\t${KEY_A.slice(20)}`],
      [42 as unknown as string],
    ]) {
      assert.throws(
        () => ApiKeyring.from(keys),
        (e: unknown) => e instanceof CompanionConfigError && !e.message.includes(short) && !e.message.includes(KEY_A.slice(0, 20)),
      );
    }
    assert.throws(() => ApiKeyring.from(undefined as unknown as string[]), CompanionConfigError);
    assert.equal(ApiKeyring.from(['y'.repeat(32)]).size, 1, '32 characters is enough');
  });

  test('keeps hashes, never the keys; duplicates count once', () => {
    const ring = ApiKeyring.from([KEY_A, KEY_B, KEY_A]);
    assert.equal(ring.size, 2);
    const shown = `${JSON.stringify(ring)} ${inspect(ring, { showHidden: true, depth: 5 })} ${Object.getOwnPropertyNames(ring).join()}`;
    assert.ok(!shown.includes(KEY_A) && !shown.includes(KEY_B), shown);
  });

  test('matches every key of the ring, and nothing else', () => {
    const ring = ApiKeyring.from([KEY_A, KEY_B]);
    assert.ok(ring.matches(KEY_A));
    assert.ok(ring.matches(KEY_B), 'the last key as much as the first');
    for (const other of [
      undefined,
      '',
      KEY_A.slice(0, -1),
      `${KEY_A}x`,
      KEY_A.toUpperCase(),
      ` ${KEY_A}`,
      PAGE_ACCESS_KEY,
      CLIENT_SECRET,
    ]) {
      assert.equal(ring.matches(other), false, String(other));
    }
  });
});

describe('requireApiKey', () => {
  const ring = ApiKeyring.from([KEY_A, KEY_B]);

  test('lets a Bearer API key through, either key of a rotation', async () => {
    for (const key of [KEY_A, KEY_B]) {
      const res = await ping(backend(ring), `Bearer ${key}`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { ok: true });
    }
    assert.equal((await ping(backend(ring), `bearer   ${KEY_A}`)).status, 200, 'the scheme is case-insensitive');
  });

  test('a missing, wrong or other-scheme key is 401 unauthorized in the error shape with WWW-Authenticate', async () => {
    const app = backend(ring);
    for (const auth of [
      undefined,
      '',
      'Bearer',
      `Bearer ${KEY_A.slice(0, -1)}`,
      `Bearer ${KEY_A}x`,
      `Basic ${KEY_A}`,
      KEY_A,
      `Bearer ${KEY_A} ${KEY_B}`,
    ]) {
      await expect401(await ping(app, auth));
    }
  });

  test("a page's access key and a session's client secret never open the backend routes", async () => {
    const app = backend(ring);
    await expect401(await ping(app, `Bearer ${PAGE_ACCESS_KEY}`));
    await expect401(await ping(app, `Bearer ${CLIENT_SECRET}`));
  });

  test('alsoAccept adds one key (the admin key); it must not be empty', async () => {
    const app = backend(ring, { alsoAccept: ADMIN_KEY });
    assert.equal((await ping(app, `Bearer ${ADMIN_KEY}`)).status, 200);
    assert.equal((await ping(app, `Bearer ${KEY_B}`)).status, 200);
    await expect401(await ping(app, `Bearer ${ADMIN_KEY.slice(1)}`));
    await expect401(await ping(backend(ring), `Bearer ${ADMIN_KEY}`));
    assert.throws(() => requireApiKey(ring, { alsoAccept: '' }), /alsoAccept/);
    assert.throws(() => requireApiKey([KEY_A] as unknown as ApiKeyring), /ApiKeyring/);
  });
});

describe('admin routes with API keys', () => {
  const TOKEN = '6f1d0c2e-1b7a-4c4e-9a51-0000000000a1';
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn({ [TOKEN]: { report: { tokenOnboarding: TOKEN, status: 'APPROVED' }, pdf: { kind: 'tiny' } } });
  });
  after(() => standIn.close());

  const deps = () => ({ environment: 'test', kitVersion: '0.1.0-test', upstream: standInUpstream(standIn.url), store: memoryStore([]) });
  const get = (app: Hono<CompanionEnv>, path: string, key?: string) =>
    Promise.resolve(app.request(`/v1/admin${path}`, key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } }));

  test('accept every API key and the admin key; a page key, no key or an unknown path is 401', async () => {
    const app = hostApp({ ...deps(), adminKey: ADMIN_KEY, apiKeys: ApiKeyring.from([KEY_A, KEY_B]) });
    for (const key of [KEY_A, KEY_B, ADMIN_KEY]) {
      const res = await get(app, `/onboardings/${TOKEN}`, key);
      assert.equal(res.status, 200, key);
      assert.deepEqual(await res.json(), { tokenOnboarding: TOKEN, status: 'APPROVED' });
    }
    const pdf = await get(app, `/onboardings/${TOKEN}/report.pdf`, KEY_B);
    assert.deepEqual(new Uint8Array(await pdf.arrayBuffer()), minimalPdf(`Report ${TOKEN}`));
    const before = standIn.requests.length;
    for (const key of [undefined, PAGE_ACCESS_KEY, CLIENT_SECRET]) await expect401(await get(app, `/onboardings/${TOKEN}`, key));
    await expect401(await get(app, '/no-such-route'));
    assert.equal(standIn.requests.length, before, 'nothing went upstream');
  });

  test('with API keys alone, the routes are on and no admin key exists', async () => {
    const app = hostApp({ ...deps(), apiKeys: ApiKeyring.from([KEY_A]) });
    assert.equal((await get(app, `/onboardings/${TOKEN}`, KEY_A)).status, 200);
    await expect401(await get(app, `/onboardings/${TOKEN}`, ADMIN_KEY));
  });

  test('with the admin key alone, API keys open nothing', async () => {
    const app = hostApp({ ...deps(), adminKey: ADMIN_KEY });
    assert.equal((await get(app, `/onboardings/${TOKEN}`, ADMIN_KEY)).status, 200);
    const res = await get(app, `/onboardings/${TOKEN}`, KEY_A);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="onboarding-admin"');
  });
});

describe('scopes', () => {
  test('ApiKeyring.from keeps each key with its scopes; a key alone gets `unscoped` (default every scope); a key listed twice has both', () => {
    const ring = ApiKeyring.from([KEY_A, { key: KEY_B, scopes: ['queries', 'sessions'] }, { key: KEY_B, scopes: ['admin'] }], {
      unscoped: ['sessions'],
    });
    assert.equal(ring.size, 2);
    assert.deepEqual(ring.scopesOf(KEY_A), ['sessions']);
    assert.deepEqual(ring.scopesOf(KEY_B), ['sessions', 'queries', 'admin'], 'in the catalogue order');
    assert.equal(ring.scopesOf(`${KEY_A}x`), undefined);
    assert.equal(ring.scopesOf(undefined), undefined);
    assert.deepEqual(ApiKeyring.from([KEY_A]).scopesOf(KEY_A), ['sessions', 'queries', 'reports', 'admin']);
  });

  test('bad scopes stop the start, naming the position and never the key', () => {
    for (const scopes of [[], ['billing'], ['sessions', 'root'], 'admin', undefined]) {
      assert.throws(
        () => ApiKeyring.from([KEY_A, { key: KEY_B, scopes } as never]),
        (e: unknown) => e instanceof CompanionConfigError && /key #2/.test(e.message) && !e.message.includes(KEY_B),
        JSON.stringify(scopes),
      );
    }
  });

  test('requireApiKey({ scope }): 403 forbidden naming the scope for a valid key without it, 401 for a wrong key; the admin key has admin and reports', async () => {
    const ring = ApiKeyring.from([
      { key: KEY_A, scopes: ['sessions'] },
      { key: KEY_B, scopes: ['queries', 'reports'] },
    ]);
    for (const [scope, allowed] of [
      ['sessions', [KEY_A]],
      ['queries', [KEY_B]],
      ['reports', [KEY_B, ADMIN_KEY]],
      ['admin', [ADMIN_KEY]],
    ] as const) {
      const app = backend(ring, { scope, alsoAccept: ADMIN_KEY });
      for (const key of [KEY_A, KEY_B, ADMIN_KEY]) {
        const res = await ping(app, `Bearer ${key}`);
        if ((allowed as readonly string[]).includes(key)) {
          assert.equal(res.status, 200, `${scope}`);
          continue;
        }
        assert.equal(res.status, 403, `${scope}`);
        const text = await res.text();
        assert.deepEqual(JSON.parse(text), {
          error: { code: 'forbidden', message: `This API key does not have the scope "${scope}" this route needs.` },
        });
        assert.ok(!text.includes(key));
      }
      await expect401(await ping(app, `Bearer ${KEY_A}x`));
    }
    assert.throws(() => requireApiKey(ring, { scope: 'root' as never }), /unknown scope/);
  });
});
