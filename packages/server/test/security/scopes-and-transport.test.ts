/**
 * Attack tests of issue 29, points 5 and 6, against a real companion on a loopback socket: a key
 * with one scope reaching for the others (paid queries, reports, the customer lookup by CPF, the
 * outbox), a production key given without scopes reaching for the admin routes, image URLs
 * pointing inside the network in every loopback spelling, and plain http in production. No
 * request leaves this machine: image URLs are loopback forms, and host names go to a stubbed
 * resolver that records what it was asked.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CompanionConfigError, serveCompanion, silentLogger, type CompanionOptions, type ServedCompanion } from '@onboarding-kit/server';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';

const SESSIONS_KEY = `sk_${randomBytes(24).toString('base64url')}`;
const QUERIES_KEY = `qk_${randomBytes(24).toString('base64url')}`;
const REPORTS_KEY = `rk_${randomBytes(24).toString('base64url')}`;
const UNSCOPED_KEY = `uk_${randomBytes(24).toString('base64url')}`;
const NOTIFY_SECRET = 'n'.repeat(40);
const WEBHOOK_KEY = `wk_${randomBytes(24).toString('base64url')}`;
const TOKEN = '6f1d0c2e-1b7a-4c4e-9a51-0000000000a1';
const CPF = '529.982.247-25';

/** What the stub resolver answers per host name, and every name it was asked. */
const DNS: Record<string, string[]> = {
  'images.public.test': ['203.0.113.10', '2001:db8::10'],
  'images.rebind.test': ['203.0.113.11', '10.0.0.7'],
  'images.mapped.test': ['::ffff:192.168.0.4'],
  'metadata.cloud.test': ['169.254.169.254'],
};
const asked: string[] = [];
const resolveHost = async (hostname: string): Promise<readonly string[]> => {
  asked.push(hostname);
  const addresses = DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

async function serve(over: Partial<CompanionOptions>): Promise<ServedCompanion> {
  return serveCompanion({
    port: 0,
    host: '127.0.0.1',
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    rateLimit: 0,
    poll: { firstDelayMs: 60_000 },
    upstream: { retryDelayMs: 5 },
    resolveHost,
    logger: silentLogger,
    ...over,
  });
}

function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** Every backend route group, with the scope it needs. */
const ROUTES: { scope: string; method: string; path: string; body?: unknown }[] = [
  { scope: 'sessions', method: 'POST', path: '/v1/sessions', body: { reference: 'user-1' } },
  { scope: 'sessions', method: 'GET', path: '/v1/sessions?reference=user-1' },
  { scope: 'queries', method: 'POST', path: '/v1/queries', body: { service: 'SERVICE_PEP', cpf: CPF } },
  { scope: 'queries', method: 'GET', path: `/v1/queries/${TOKEN}` },
  { scope: 'reports', method: 'GET', path: `/v1/admin/onboardings/${TOKEN}` },
  { scope: 'reports', method: 'GET', path: `/v1/admin/onboardings/${TOKEN}/report.pdf` },
  { scope: 'reports', method: 'POST', path: `/v1/admin/onboardings/${TOKEN}/evidence`, body: {} },
  { scope: 'admin', method: 'GET', path: `/v1/admin/customers?documentKey=${CPF}` },
  { scope: 'admin', method: 'GET', path: '/v1/admin/notifications' },
  { scope: 'admin', method: 'POST', path: '/v1/admin/notifications/evt_x/replay' },
];

async function expectForbidden(res: Response, scope: string, key: string, what: string): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 403, `${what}: ${text}`);
  const body = JSON.parse(text) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'forbidden', what);
  assert.match(body.error.message, new RegExp(`"${scope}"`), `${what}: the scope needed is named`);
  assert.ok(!text.includes(key) && !text.includes(key.slice(3)), `${what}: the key is never echoed`);
}

describe('scopes: a key opens its own route groups and nothing else', () => {
  let companion: ServedCompanion;
  const ADMIN_KEY = `ad_${randomBytes(16).toString('hex')}`;
  before(async () => {
    companion = await serve({
      apiKeys: [
        { key: SESSIONS_KEY, scopes: ['sessions'] },
        { key: QUERIES_KEY, scopes: ['queries'] },
        { key: REPORTS_KEY, scopes: ['reports'] },
      ],
      adminKey: ADMIN_KEY,
      // The outbox routes exist only with notifications; nothing here is ever delivered (port 9 on loopback).
      notify: { url: 'http://127.0.0.1:9/notifications', secret: NOTIFY_SECRET },
    });
  });
  after(() => companion.close());

  test('a sessions-only key is refused 403 on queries, reports and every admin route, before anything goes upstream', async () => {
    const before = up.calls.length;
    for (const route of ROUTES.filter((r) => r.scope !== 'sessions')) {
      const res = await call(companion.url, SESSIONS_KEY, route.method, route.path, route.body);
      await expectForbidden(res, route.scope, SESSIONS_KEY, `${route.method} ${route.path}`);
    }
    assert.equal(up.calls.length, before, 'no refused call reached the upstream');
    const opened = await call(companion.url, SESSIONS_KEY, 'POST', '/v1/sessions', { reference: 'user-1' });
    assert.equal(opened.status, 201, await opened.text());
  });

  test('each scope opens its own group only; the admin key has admin and reports, never sessions or queries', async () => {
    for (const [key, scope] of [
      [QUERIES_KEY, 'queries'],
      [REPORTS_KEY, 'reports'],
    ] as const) {
      for (const route of ROUTES) {
        const res = await call(companion.url, key, route.method, route.path, route.body);
        if (route.scope === scope) {
          assert.notEqual(res.status, 403, `${scope} key on ${route.path}`);
          await res.body?.cancel();
        } else await expectForbidden(res, route.scope, key, `${scope} key on ${route.method} ${route.path}`);
      }
    }
    for (const route of ROUTES) {
      const res = await call(companion.url, ADMIN_KEY, route.method, route.path, route.body);
      if (route.scope === 'admin' || route.scope === 'reports') {
        assert.notEqual(res.status, 403, `admin key on ${route.path}`);
        await res.body?.cancel();
      } else await expectForbidden(res, route.scope, ADMIN_KEY, `admin key on ${route.method} ${route.path}`);
    }
    assert.equal((await call(companion.url, REPORTS_KEY, 'GET', `/v1/admin/onboardings/${TOKEN}`)).status, 200);
    assert.equal((await call(companion.url, ADMIN_KEY, 'GET', `/v1/admin/customers?documentKey=${CPF}`)).status, 200);
  });

  test('a wrong key is still 401, never 403: a scope error tells nothing to someone without a key', async () => {
    for (const route of ROUTES) {
      const res = await call(companion.url, `${SESSIONS_KEY}x`, route.method, route.path, route.body);
      assert.equal(res.status, 401, `${route.method} ${route.path}`);
      await res.body?.cancel();
    }
  });
});

describe('production: a key given without scopes opens sessions only', () => {
  let companion: ServedCompanion;
  before(async () => {
    companion = await serve({ environment: 'production', apiKeys: [UNSCOPED_KEY] });
  });
  after(() => companion.close());

  test('it opens sessions, and cannot reach queries, reports or the customer lookup', async () => {
    const before = up.calls.length;
    for (const route of ROUTES.filter((r) => r.scope !== 'sessions' && !r.path.includes('/notifications'))) {
      const res = await call(companion.url, UNSCOPED_KEY, route.method, route.path, route.body);
      await expectForbidden(res, route.scope, UNSCOPED_KEY, `${route.method} ${route.path}`);
    }
    assert.equal(up.calls.length, before, 'no refused call reached the upstream');
    const opened = await call(companion.url, UNSCOPED_KEY, 'POST', '/v1/sessions', { reference: 'user-2' });
    assert.equal(opened.status, 201, await opened.text());
  });
});

describe('image URLs that point inside the network are refused, naming the field', () => {
  let companion: ServedCompanion;
  before(async () => {
    // A key given alone: in test it has every scope, so this suite exercises the image check only.
    companion = await serve({ apiKeys: [QUERIES_KEY] });
  });
  after(() => companion.close());

  const ocr = (image1Url: string) =>
    call(companion.url, QUERIES_KEY, 'POST', '/v1/queries', { service: 'SERVICE_OCR', documentType: 'CNH', image1Url });

  test('every spelling of loopback, private, link-local, unique-local and unspecified hosts: 400 invalid_field image1Url, nothing sent', async () => {
    const hosts = [
      '127.1.2.3',
      '127.1',
      '0x7f000001',
      '2130706433',
      '017700000001',
      '0x7f.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      'localhost',
      'LOCALHOST.',
      'api.localhost',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '169.254.169.254',
      '[::ffff:169.254.169.254]',
      '[fe80::1]',
      '[fd00::1]',
      '[fc00::1]',
      '0.0.0.0',
      '[::]',
    ];
    asked.length = 0;
    const before = up.count('/api/service-api');
    for (const host of hosts) {
      const res = await ocr(`https://${host}/cnh-front.jpg`);
      const text = await res.text();
      assert.equal(res.status, 400, `${host}: ${text}`);
      const body = JSON.parse(text) as { error: { code: string; field?: string } };
      assert.equal(body.error.code, 'invalid_field', host);
      assert.equal(body.error.field, 'image1Url', host);
    }
    assert.equal(up.count('/api/service-api'), before, 'none reached the upstream');
    assert.deepEqual(asked, [], 'addresses and loopback names are judged without asking a resolver');
  });

  test('a host name is refused when ANY of its addresses is inner (stubbed resolver); a public one goes upstream', async () => {
    const before = up.count('/api/service-api');
    for (const host of ['images.rebind.test', 'images.mapped.test', 'metadata.cloud.test', 'nowhere.test']) {
      const res = await ocr(`https://${host}/a.jpg`);
      assert.equal(res.status, 400, host);
      assert.equal(((await res.json()) as { error: { field?: string } }).error.field, 'image1Url', host);
    }
    assert.equal(up.count('/api/service-api'), before);
    const face = await call(companion.url, QUERIES_KEY, 'POST', '/v1/queries', {
      service: 'SERVICE_FACE_INDEX',
      image1Url: 'https://images.public.test/a.jpg',
      image2Url: 'https://images.rebind.test/b.jpg',
    });
    assert.equal(face.status, 400);
    assert.equal(((await face.json()) as { error: { field?: string } }).error.field, 'image2Url');

    const ok = await ocr('https://images.public.test/cnh-front.jpg');
    assert.equal(ok.status, 200, await ok.text());
    assert.equal(up.count('/api/service-api'), before + 1);
    assert.ok(asked.includes('images.public.test'));
  });
});

describe('production refuses plain http beyond this machine', () => {
  const production = { environment: 'production', apiKeys: [UNSCOPED_KEY] } as const;

  test('a companion with an http notify URL or public URL refuses to start, naming the option', async () => {
    await assert.rejects(
      serve({ ...production, notify: { url: 'http://backend.example/kyc/notifications', secret: NOTIFY_SECRET } }),
      (e: unknown) => e instanceof CompanionConfigError && /notify\.url must be https in production/.test(e.message),
    );
    await assert.rejects(
      serve({ ...production, publicUrl: 'http://kyc.example' }),
      (e: unknown) => e instanceof CompanionConfigError && /publicUrl must be https in production/.test(e.message),
    );
    // Loopback never crosses a network: a local receiver or proxy may stay on http.
    const local = await serve({
      ...production,
      notify: { url: 'http://127.0.0.1:9/n', secret: NOTIFY_SECRET },
      publicUrl: 'http://[::1]:8787',
    });
    await local.close();
  });

  test('a session opened with an http returnUrl is 400 naming returnUrl; https and loopback are accepted', async () => {
    const companion = await serve(production);
    try {
      const open = (returnUrl: string) => call(companion.url, UNSCOPED_KEY, 'POST', '/v1/sessions', { reference: 'user-3', returnUrl });
      const clear = await open('http://app.example/kyc/done');
      assert.equal(clear.status, 400);
      const body = (await clear.json()) as { error: { code: string; field?: string } };
      assert.deepEqual([body.error.code, body.error.field], ['invalid_field', 'returnUrl']);
      for (const url of ['https://app.example/kyc/done', 'http://localhost:3000/done', 'http://127.0.0.1/done'])
        assert.equal((await open(url)).status, 201, url);
    } finally {
      await companion.close();
    }
  });
});
