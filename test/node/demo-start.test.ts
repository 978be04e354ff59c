/** `npm start` (demo/start.ts) for real: a child process, a creation to APPROVED, SIGTERM, exit 0. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../../demo/config.js';
import { body, openEvents, waitUntil } from './helpers/stack.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'demo/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed; stdout: ${out} stderr: ${err}`)), 30_000);
    // A child that exits must not leave the runner waiting on this timer.
    void exited.then(() => clearTimeout(timer));
    child.stdout.on('data', () => {
      const m = /onboarding-kit demo: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => reject(new Error(`exited early; stderr: ${err}`)));
  });
  // A run that is meant to fail never prints a URL: that must not count as an unhandled rejection.
  url.catch(() => {});
  return { child, url, exited, output: () => ({ out, err }) };
}

test('npm start serves the page, the API and the embedded sandbox; a creation reaches APPROVED; SIGTERM exits 0', async () => {
  const demo = start({ SANDBOX_PROCESSING_MS: '200', ONBOARDING_ADMIN_KEY: '' });
  try {
    const url = await demo.url;
    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<html/i);
    assert.deepEqual(await (await fetch(`${url}/v1/health`)).json(), { ok: true });
    assert.equal((await fetch(`${url}/v1/admin/onboardings/x`)).status, 404, 'no admin key, no admin routes');

    const res = await fetch(`${url}/v1/onboardings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body()) });
    assert.equal(res.status, 201);
    const o = (await res.json()) as { tokenOnboarding: string; accessKey: string };
    const stream = await openEvents(url, o.tokenOnboarding, o.accessKey);
    const events = await stream.untilEnd(10_000);
    assert.deepEqual(events.map((e) => e.status), ['IN_PROCESS', 'APPROVED']);
    // The sandbox was reached over HTTP at /sandbox and its webhook came back to the companion.
    const stats = async () => (await (await fetch(`${url}/sandbox/__sandbox/stats`)).json()) as { tokensIssued: number; webhooksSent: number };
    assert.equal((await stats()).tokensIssued, 1);
    // The sandbox counts a webhook once the companion has answered it, which can trail the event.
    await waitUntil(async () => (await stats()).webhooksSent >= 1, 5000);

    // An open event stream must not hold the shutdown.
    const held = await fetch(`${url}/v1/onboardings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body({ cpf: '987.654.321-00' })) });
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
    environment: 'test', client: 'sandbox-client', secret: 'sandbox-secret', webhookKey: 'sandbox-webhook-key',
    allowedOrigins: [], imageMaxBytes: 4194304, rateLimit: 30, port: 8787, host: '127.0.0.1',
  });
  const real = readConfig({ ONBOARDING_BASE_URL: 'https://api.example.com/', ONBOARDING_ENVIRONMENT: 'production', ONBOARDING_CLIENT: 'c', ONBOARDING_SECRET: 's', ONBOARDING_WEBHOOK_KEY: 'k', ONBOARDING_ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443/', ONBOARDING_RATE_LIMIT: '0', PORT: '9000' });
  assert.ok(real.ok);
  assert.equal(real.config.baseUrl, 'https://api.example.com');
  assert.deepEqual(real.config.allowedOrigins, ['https://a.example', 'https://b.example:8443']);
  assert.equal(real.config.rateLimit, 0);
  assert.equal(real.config.port, 9000);

  const missing = readConfig({ ONBOARDING_BASE_URL: 'https://api.example.com' });
  assert.ok(!missing.ok);
  assert.equal(missing.errors.length, 3);
  assert.match(missing.errors.join('\n'), /ONBOARDING_SECRET is required when ONBOARDING_BASE_URL is set/);

  const bad = readConfig({ ONBOARDING_ENVIRONMENT: 'production', ONBOARDING_ALLOWED_ORIGINS: 'https://a.example/path', ONBOARDING_IMAGE_MAX_BYTES: '12', ONBOARDING_ADMIN_KEY: 'short', PORT: '70000', ONBOARDING_BASE_URL: 'ftp://x' });
  assert.ok(!bad.ok);
  const text = bad.errors.join('\n');
  for (const pattern of [/needs ONBOARDING_BASE_URL|ONBOARDING_CLIENT is required/, /not an origin/, /ONBOARDING_IMAGE_MAX_BYTES/, /ONBOARDING_ADMIN_KEY/, /PORT/, /http\(s\)/]) assert.match(text, pattern);
});
