/** `npm start` (demo/start.ts) for real: a child process, a creation to APPROVED, SIGTERM, exit 0. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveSandbox } from '@onboarding-kit/sandbox';
import { readConfig, SANDBOX_DEFAULTS } from '../../demo/config.js';
import { freePort, startDemo, stopDemo } from './helpers/demo-process.js';
import { body, createOk, openEvents, waitUntil } from './helpers/stack.js';

/** A webhook key production accepts (at least 32 characters). */
const WEBHOOK_KEY = 'w'.repeat(32);
const scratch = mkdtempSync(join(tmpdir(), 'okit-demo-start-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let runs = 0;

/** `npm start` with its store in a file of its own (never the repository's ./data). */
function start(env: Record<string, string>) {
  return startDemo({ ONBOARDING_STORE: `sqlite:${join(scratch, `run-${++runs}.db`)}`, ...env });
}

test('npm start serves the page, the API and the embedded sandbox; a creation reaches APPROVED; SIGTERM exits 0', async () => {
  const demo = start({ SANDBOX_PROCESSING_MS: '200', ONBOARDING_ADMIN_KEY: '', ONBOARDING_SANDBOX_CONTROL: '1' });
  try {
    const url = await demo.url;
    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<html/i);
    assert.deepEqual(await (await fetch(`${url}/v1/health`)).json(), { status: 'ok', ok: true });
    // The demo backend's own API key turns the admin routes on; nothing the test holds opens them.
    assert.equal((await fetch(`${url}/v1/admin/onboardings/x`)).status, 401, 'no admin key: the admin routes want an API key');
    assert.equal((await fetch(`${url}/v1/admin/onboardings/x`, { headers: { authorization: `Bearer ${'x'.repeat(43)}` } })).status, 401);

    const res = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body()),
    });
    assert.equal(res.status, 201);
    const o = (await res.json()) as { tokenOnboarding: string; accessKey: string };
    const stream = await openEvents(url, o.tokenOnboarding, o.accessKey);
    const events = await stream.untilEnd(10_000);
    assert.deepEqual(
      events.map((e) => e.status),
      ['IN_PROCESS', 'APPROVED'],
    );
    // The sandbox was reached over HTTP at /sandbox and its webhook came back to the companion.
    const stats = async () =>
      (await (await fetch(`${url}/sandbox/__sandbox/stats`)).json()) as { tokensIssued: number; webhooksSent: number };
    assert.equal((await stats()).tokensIssued, 1);
    // The sandbox counts a webhook once the companion has answered it, which can trail the event.
    await waitUntil(async () => (await stats()).webhooksSent >= 1, 5000);

    // An open event stream must not hold the shutdown.
    const held = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body({ cpf: '987.654.321-00' })),
    });
    const h = (await held.json()) as { tokenOnboarding: string; accessKey: string };
    const open = await openEvents(url, h.tokenOnboarding, h.accessKey);
    await open.waitFor(1);
    demo.child.kill('SIGTERM');
    assert.equal(await demo.exited, 0, JSON.stringify(demo.output()));
    await open.untilEnd(5000);
    assert.ok(open.ended);
  } finally {
    demo.child.kill('SIGKILL');
  }
});

test('npm start refuses a bad configuration with clear messages and exit code 1', async () => {
  const demo = start({ ONBOARDING_RATE_LIMIT: 'many', ONBOARDING_ENVIRONMENT: 'prod' });
  const code = await demo.exited;
  assert.equal(code, 1);
  const { err } = demo.output();
  assert.match(err, /ONBOARDING_RATE_LIMIT must be a whole number/);
  assert.match(err, /ONBOARDING_ENVIRONMENT must be "test" or "production"/);
});

test('configuration: defaults, real upstream requirements, validation', () => {
  const d = readConfig({});
  assert.ok(d.ok);
  assert.deepEqual(d.config, {
    environment: 'test',
    client: 'sandbox-client',
    secret: 'sandbox-secret',
    webhookKey: 'sandbox-webhook-key',
    allowedOrigins: [],
    imageMaxBytes: 4194304,
    rateLimit: 30,
    trustedProxies: 0,
    creationsPerClient: 4,
    port: 8787,
    host: '127.0.0.1',
    store: 'sqlite:./data/onboarding-kit.db',
    redisPrefix: 'okit:',
    sandboxControl: false,
    apiKeys: [],
    sessions: 'optional',
    brand: { fields: {} },
    logFormat: 'json',
    logLevel: 'info',
  });
  const real = readConfig({
    ONBOARDING_BASE_URL: 'https://api.example.com/',
    ONBOARDING_ENVIRONMENT: 'production',
    ONBOARDING_CLIENT: 'c',
    ONBOARDING_SECRET: 's',
    ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
    ONBOARDING_ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443/',
    ONBOARDING_RATE_LIMIT: '0',
    ONBOARDING_TRUSTED_PROXIES: '1',
    ONBOARDING_CREATIONS_PER_CLIENT: '0',
    PORT: '9000',
  });
  assert.ok(real.ok);
  assert.equal(real.config.baseUrl, 'https://api.example.com');
  assert.deepEqual(real.config.allowedOrigins, ['https://a.example', 'https://b.example:8443']);
  assert.equal(real.config.rateLimit, 0);
  assert.equal(real.config.trustedProxies, 1);
  assert.equal(real.config.creationsPerClient, 0);
  assert.equal(real.config.port, 9000);

  const missing = readConfig({ ONBOARDING_BASE_URL: 'https://api.example.com' });
  assert.ok(!missing.ok);
  assert.equal(missing.errors.length, 3);
  assert.match(missing.errors.join('\n'), /ONBOARDING_SECRET is required when ONBOARDING_BASE_URL is set/);

  const bad = readConfig({
    ONBOARDING_ENVIRONMENT: 'production',
    ONBOARDING_ALLOWED_ORIGINS: 'https://a.example/path',
    ONBOARDING_IMAGE_MAX_BYTES: '12',
    ONBOARDING_ADMIN_KEY: 'short',
    PORT: '70000',
    ONBOARDING_BASE_URL: 'ftp://x',
  });
  assert.ok(!bad.ok);
  const text = bad.errors.join('\n');
  for (const pattern of [
    /needs ONBOARDING_BASE_URL|ONBOARDING_CLIENT is required/,
    /not an origin/,
    /ONBOARDING_IMAGE_MAX_BYTES/,
    /ONBOARDING_ADMIN_KEY/,
    /PORT/,
    /http\(s\)/,
  ])
    assert.match(text, pattern);
});

test('npm start: ONBOARDING_DATA_KEY is checked at start, its messages naming the entry and never the key', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const good = readConfig({ ONBOARDING_DATA_KEY: `2027-05:${key}, 2026-11:${Buffer.alloc(32, 8).toString('base64')}` });
  assert.ok(good.ok);
  assert.match(good.config.dataKey ?? '', /^2027-05:/);
  const unset = readConfig({});
  assert.ok(unset.ok);
  assert.equal(unset.config.dataKey, undefined, 'unset: nothing is encrypted');
  const short = Buffer.alloc(16, 7).toString('base64');
  const bad = readConfig({ ONBOARDING_DATA_KEY: `2027-05:${short}` });
  assert.ok(!bad.ok);
  assert.match(bad.errors.join('\n'), /ONBOARDING_DATA_KEY: entry 1 \(key id "2027-05"\) must hold exactly 32 bytes/);
  assert.equal(bad.errors.join('\n').includes(short), false);
});

test("configuration: the hosted page's brand, by variables or by file, never both; bad values named by their variable", () => {
  const vars = readConfig({
    ONBOARDING_BRAND_NAME: 'Banco Exemplo',
    ONBOARDING_BRAND_LOGO: './logo.svg',
    ONBOARDING_BRAND_COLOR: '#6a1b9a',
    ONBOARDING_BRAND_BACKGROUND: '#f4eef8',
    ONBOARDING_BRAND_RADIUS: '12',
  });
  assert.ok(vars.ok);
  assert.deepEqual(vars.config.brand, {
    fields: { name: 'Banco Exemplo', logo: './logo.svg', color: '#6a1b9a', background: '#f4eef8', radius: 12 },
  });
  const file = readConfig({ ONBOARDING_BRAND_FILE: '/etc/kyc/brand.json' });
  assert.ok(file.ok);
  assert.deepEqual(file.config.brand, { file: '/etc/kyc/brand.json' });
  const both = readConfig({ ONBOARDING_BRAND_FILE: '/etc/kyc/brand.json', ONBOARDING_BRAND_COLOR: '#6a1b9a' });
  assert.ok(!both.ok);
  assert.match(both.errors.join('\n'), /ONBOARDING_BRAND_FILE and ONBOARDING_BRAND_COLOR are both set/);
  const bad = readConfig({ ONBOARDING_BRAND_COLOR: 'purple', ONBOARDING_BRAND_RADIUS: '12px', ONBOARDING_BRAND_NAME: '<script>' });
  assert.ok(!bad.ok);
  const text = bad.errors.join('\n');
  for (const pattern of [
    /ONBOARDING_BRAND_COLOR must be a colour written #rgb or #rrggbb \(got "purple"\)/,
    /ONBOARDING_BRAND_RADIUS must be a whole number of pixels/,
    /ONBOARDING_BRAND_NAME must be 1 to 60/,
  ])
    assert.match(text, pattern);
});

test('npm start refuses a brand logo that is not an image, naming the variable and the file', async () => {
  const logo = join(scratch, 'logo.png');
  writeFileSync(logo, 'not an image');
  const demo = start({ ONBOARDING_BRAND_LOGO: logo });
  assert.equal(await demo.exited, 1);
  const { err } = demo.output();
  assert.ok(err.includes(`ONBOARDING_BRAND_LOGO: ${logo} is not a PNG, JPEG, WebP or SVG image`), err);
});

test('configuration: the backend (API keys, sessions, notifications, public URL)', () => {
  const keyA = 'a'.repeat(32);
  const keyB = 'b'.repeat(40);
  const secretA = 's'.repeat(32);
  const secretB = 't'.repeat(48);
  const full = readConfig({
    ONBOARDING_API_KEYS: ` ${keyA} ,${keyB},`,
    ONBOARDING_SESSIONS: 'required',
    ONBOARDING_NOTIFY_URL: 'https://backend.example/kyc/notifications',
    ONBOARDING_NOTIFY_SECRET: `${secretA},${secretB}`,
    ONBOARDING_PUBLIC_URL: 'https://kyc.example/',
  });
  assert.ok(full.ok, full.ok ? '' : full.errors.join('\n'));
  assert.deepEqual(full.config.apiKeys, [keyA, keyB], 'trimmed, a trailing comma ignored');
  assert.equal(full.config.sessions, 'required');
  assert.deepEqual(full.config.notify, { url: 'https://backend.example/kyc/notifications', secrets: [secretA, secretB] });
  assert.equal(full.config.publicUrl, 'https://kyc.example');

  // Sessions default by environment.
  const production = readConfig({
    ONBOARDING_ENVIRONMENT: 'production',
    ONBOARDING_BASE_URL: 'https://api.example.com',
    ONBOARDING_CLIENT: 'c',
    ONBOARDING_SECRET: 's',
    ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
  });
  assert.ok(production.ok);
  assert.equal(production.config.sessions, 'required');
  assert.equal(production.config.notify, undefined);
  assert.equal(production.config.publicUrl, undefined);
  const optedOut = readConfig({
    ONBOARDING_ENVIRONMENT: 'production',
    ONBOARDING_SESSIONS: 'optional',
    ONBOARDING_BASE_URL: 'https://api.example.com',
    ONBOARDING_CLIENT: 'c',
    ONBOARDING_SECRET: 's',
    ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
  });
  assert.ok(optedOut.ok);
  assert.equal(optedOut.config.sessions, 'optional');

  const shortKey = 'k'.repeat(31);
  const shortSecret = 'q'.repeat(20);
  const bad = readConfig({
    ONBOARDING_API_KEYS: `${keyA},${shortKey},has a space in it and is long enough`,
    ONBOARDING_SESSIONS: 'sometimes',
    ONBOARDING_NOTIFY_URL: 'backend.example/notifications',
    ONBOARDING_NOTIFY_SECRET: shortSecret,
    ONBOARDING_PUBLIC_URL: 'kyc.example',
  });
  assert.ok(!bad.ok);
  const text = bad.errors.join('\n');
  assert.match(text, /ONBOARDING_API_KEYS: key 2 of 3 has 31 characters; each needs at least 32/);
  assert.match(text, /ONBOARDING_API_KEYS: key 3 of 3 contains a space/);
  assert.match(text, /ONBOARDING_SESSIONS must be "required" or "optional" \(got "sometimes"\)/);
  assert.match(text, /ONBOARDING_NOTIFY_URL must be an absolute http\(s\) URL/);
  assert.match(text, /ONBOARDING_NOTIFY_SECRET: the secret has 20 characters/);
  assert.match(text, /ONBOARDING_PUBLIC_URL must be an absolute http\(s\) URL/);
  assert.equal(bad.errors.length, 6);
  // The messages say what is wrong with a key or a secret without ever showing it.
  for (const secret of [shortKey, shortSecret, 'has a space']) assert.ok(!text.includes(secret), `a message quotes ${secret}`);

  const urlWithoutSecret = readConfig({ ONBOARDING_NOTIFY_URL: 'https://backend.example/n' });
  assert.ok(!urlWithoutSecret.ok);
  assert.deepEqual(urlWithoutSecret.errors, [
    'ONBOARDING_NOTIFY_SECRET is required when ONBOARDING_NOTIFY_URL is set: the notifications are signed with it.',
  ]);
  const secretWithoutUrl = readConfig({ ONBOARDING_NOTIFY_SECRET: secretA });
  assert.ok(!secretWithoutUrl.ok);
  assert.match(secretWithoutUrl.errors.join('\n'), /ONBOARDING_NOTIFY_SECRET is set but ONBOARDING_NOTIFY_URL is not/);

  // Production refuses a webhook key a guesser could reach; the test product's key is the operator's.
  const webhookKey = (environment: string, key: string) =>
    readConfig({
      ONBOARDING_ENVIRONMENT: environment,
      ONBOARDING_BASE_URL: 'https://api.example.com',
      ONBOARDING_CLIENT: 'c',
      ONBOARDING_SECRET: 's',
      ONBOARDING_WEBHOOK_KEY: key,
    });
  const short = webhookKey('production', 'k'.repeat(31));
  assert.ok(!short.ok);
  assert.deepEqual(short.errors, [
    'ONBOARDING_WEBHOOK_KEY must have at least 32 characters in production (agree a long random value with the operator).',
  ]);
  assert.ok(webhookKey('production', 'k'.repeat(32)).ok);
  assert.ok(webhookKey('test', 'k').ok);

  // Production credentials never cross a network in clear; a loopback upstream (tests) may be plain http.
  const upstream = (url: string) =>
    readConfig({
      ONBOARDING_ENVIRONMENT: 'production',
      ONBOARDING_BASE_URL: url,
      ONBOARDING_CLIENT: 'c',
      ONBOARDING_SECRET: 's',
      ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
    });
  const clear = upstream('http://api.example.com');
  assert.ok(!clear.ok);
  assert.match(clear.errors.join('\n'), /ONBOARDING_BASE_URL must be https in production/);
  for (const loopback of ['http://127.0.0.1:8788', 'http://localhost:8788', 'http://[::1]:8788'])
    assert.ok(upstream(loopback).ok, loopback);
  assert.ok(
    readConfig({
      ONBOARDING_BASE_URL: 'http://api.example.com',
      ONBOARDING_CLIENT: 'c',
      ONBOARDING_SECRET: 's',
      ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
    }).ok,
    'plain http is fine in test',
  );
});

test('npm start on the same SQLite file loses nothing across SIGKILL and SIGTERM: keys still read, polling resumes, webhooks apply', async () => {
  const port = await freePort();
  // The upstream outlives the companion: the sandbox runs here, its webhooks aimed at the companion's fixed port.
  const upstream = await serveSandbox({
    port: 0,
    ...SANDBOX_DEFAULTS,
    webhookUrl: `http://127.0.0.1:${port}/v1/webhooks`,
    processingMs: 600_000,
  });
  const env = {
    PORT: String(port),
    ONBOARDING_BASE_URL: upstream.url,
    ONBOARDING_CLIENT: SANDBOX_DEFAULTS.client,
    ONBOARDING_SECRET: SANDBOX_DEFAULTS.secret,
    ONBOARDING_WEBHOOK_KEY: SANDBOX_DEFAULTS.webhookKey,
    ONBOARDING_STORE: `sqlite:${join(scratch, 'restart.db')}`,
    ONBOARDING_RATE_LIMIT: '0',
    // A killed instance's polling leases lapse after this; the default (30 s) would only make the test wait.
    ONBOARDING_POLL_LEASE_MS: '1500',
  };
  const read = async (url: string, o: { tokenOnboarding: string; accessKey: string }) => {
    const res = await fetch(`${url}/v1/onboardings/${o.tokenOnboarding}`, { headers: { authorization: `Bearer ${o.accessKey}` } });
    assert.equal(res.status, 200, `${o.tokenOnboarding} readable with its key`);
    return ((await res.json()) as { status: string }).status;
  };
  let demo = start(env);
  try {
    const url = await demo.url;
    // The manual-review CPF stays IN_PROCESS until decided.
    const manual = body({ cpf: '987.654.321-00' });
    const [a, b, c] = [await createOk(url, manual), await createOk(url, manual), await createOk(url, manual)];

    assert.equal(await stopDemo(demo, 'SIGKILL'), null);
    // Decided while no companion listens: this webhook is lost for good (the upstream never resends).
    await upstream.sandbox.decide(a.tokenOnboarding, 'APPROVED');

    demo = start(env);
    assert.equal(await demo.url, url);
    for (const o of [a, b, c]) assert.ok(['IN_PROCESS', 'APPROVED'].includes(await read(url, o)));
    const events = await openEvents(url, a.tokenOnboarding, a.accessKey);
    // Polling resumed after the restart (once the dead instance's lease lapsed) and found the lost outcome.
    await waitUntil(() => events.events.some((e) => e.status === 'APPROVED'), 30_000);
    events.close();
    // A webhook for an onboarding created before the restart is applied.
    await upstream.sandbox.decide(b.tokenOnboarding, 'REFUSED');
    await waitUntil(async () => (await read(url, b)) === 'REFUSED', 30_000);

    // SIGTERM gives the leases up: after this restart, polling resumes without waiting for them to lapse.
    assert.equal(await stopDemo(demo, 'SIGTERM'), 0, JSON.stringify(demo.output()));
    await upstream.sandbox.decide(c.tokenOnboarding, 'ERROR');
    demo = start(env);
    await demo.url;
    assert.equal(await read(url, a), 'APPROVED');
    assert.equal(await read(url, b), 'REFUSED');
    await waitUntil(async () => (await read(url, c)) === 'ERROR', 30_000);
    const wrongKey = await fetch(`${url}/v1/onboardings/${c.tokenOnboarding}`, { headers: { authorization: `Bearer ${a.accessKey}` } });
    assert.equal(wrongKey.status, 404, 'a key still opens only its own onboarding');
    assert.equal(await stopDemo(demo, 'SIGTERM'), 0);
  } finally {
    demo.child.kill('SIGKILL');
    await upstream.close();
  }
});
