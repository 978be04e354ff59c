/**
 * `npm start`'s side of issue 29's least privilege and transport: `ONBOARDING_API_KEYS` with
 * scopes, https in production for the notify and public URLs, a loopback HOST while the embedded
 * sandbox runs, and the sandbox's control routes mounted only when ONBOARDING_SANDBOX_CONTROL asks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readConfig } from '../../demo/config.js';
import { startDemo } from './helpers/demo-process.js';

const REAL = {
  ONBOARDING_BASE_URL: 'https://api.example.com',
  ONBOARDING_CLIENT: 'c',
  ONBOARDING_SECRET: 's',
  ONBOARDING_WEBHOOK_KEY: 'k'.repeat(32),
};

test('ONBOARDING_API_KEYS: <key> or <key>:<scope>+<scope>; an unknown or empty scope is named, the key never', () => {
  const k1 = 'a'.repeat(32);
  const k2 = `${'B'.repeat(40)}/+=`;
  const read = readConfig({ ONBOARDING_API_KEYS: `${k1}:sessions,${k2}:admin+reports` });
  assert.ok(read.ok, read.ok ? '' : read.errors.join('\n'));
  assert.deepEqual(read.config.apiKeys, [
    { key: k1, scopes: ['sessions'] },
    { key: k2, scopes: ['admin', 'reports'] },
  ]);
  const alone = readConfig({ ONBOARDING_API_KEYS: k1 });
  assert.ok(alone.ok);
  assert.deepEqual(alone.config.apiKeys, [k1], 'without scopes: the environment decides (test: all, production: sessions)');

  const bad = readConfig({ ONBOARDING_API_KEYS: `${k1}:sessions+billing,${k2}:,${'c'.repeat(20)}:queries` });
  assert.ok(!bad.ok);
  const text = bad.errors.join('\n');
  assert.match(text, /key 1 of 3: unknown scope "billing"/);
  assert.match(text, /key 2 of 3: unknown scope/);
  assert.match(text, /key 3 of 3 has 20 characters/);
  for (const secret of [k1, k2, 'c'.repeat(20)]) assert.ok(!text.includes(secret), 'a message quotes a key');
});

test('production refuses http:// for ONBOARDING_NOTIFY_URL and ONBOARDING_PUBLIC_URL, loopback excepted; test allows it', () => {
  const secret = 's'.repeat(32);
  const clear = readConfig({
    ...REAL,
    ONBOARDING_ENVIRONMENT: 'production',
    ONBOARDING_NOTIFY_URL: 'http://backend.example/n',
    ONBOARDING_NOTIFY_SECRET: secret,
    ONBOARDING_PUBLIC_URL: 'http://kyc.example',
  });
  assert.ok(!clear.ok);
  assert.match(clear.errors.join('\n'), /ONBOARDING_NOTIFY_URL must be https in production/);
  assert.match(clear.errors.join('\n'), /ONBOARDING_PUBLIC_URL must be https in production/);
  for (const host of ['127.0.0.1:9', 'localhost:9', '[::1]:9', '127.1.2.3'])
    assert.ok(
      readConfig({
        ...REAL,
        ONBOARDING_ENVIRONMENT: 'production',
        ONBOARDING_NOTIFY_URL: `http://${host}/n`,
        ONBOARDING_NOTIFY_SECRET: secret,
        ONBOARDING_PUBLIC_URL: `http://${host}`,
      }).ok,
      host,
    );
  assert.ok(
    readConfig({
      ...REAL,
      ONBOARDING_NOTIFY_URL: 'http://backend.example/n',
      ONBOARDING_NOTIFY_SECRET: secret,
      ONBOARDING_PUBLIC_URL: 'http://kyc.example',
    }).ok,
    'plain http is fine in test',
  );
  // Unset, the public URL is the address listened on, over http: required once that is not loopback.
  const wide = readConfig({ ...REAL, ONBOARDING_ENVIRONMENT: 'production', HOST: '0.0.0.0' });
  assert.ok(!wide.ok);
  assert.match(wide.errors.join('\n'), /ONBOARDING_PUBLIC_URL is required in production when HOST is not a loopback address/);
  assert.ok(
    readConfig({ ...REAL, ONBOARDING_ENVIRONMENT: 'production', HOST: '0.0.0.0', ONBOARDING_PUBLIC_URL: 'https://kyc.example' }).ok,
  );
});

test('the embedded sandbox needs a loopback HOST; ONBOARDING_SANDBOX_CONTROL is 1 or 0', () => {
  for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
    const read = readConfig({ HOST: host });
    assert.ok(!read.ok, host);
    assert.match(read.errors.join('\n'), /would expose the embedded sandbox beyond this machine/);
  }
  for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) assert.ok(readConfig({ HOST: host }).ok, host);
  assert.ok(readConfig({ ...REAL, HOST: '0.0.0.0' }).ok, 'a real upstream: any HOST');
  assert.equal((readConfig({ ONBOARDING_SANDBOX_CONTROL: '1' }) as { config: { sandboxControl: boolean } }).config.sandboxControl, true);
  assert.equal((readConfig({}) as { config: { sandboxControl: boolean } }).config.sandboxControl, false);
  const bad = readConfig({ ONBOARDING_SANDBOX_CONTROL: 'yes please' });
  assert.ok(!bad.ok);
  assert.match(bad.errors.join('\n'), /ONBOARDING_SANDBOX_CONTROL must be 1 or 0/);
});

test('npm start: the sandbox control routes only with ONBOARDING_SANDBOX_CONTROL=1; a wide HOST with the embedded sandbox stops the start', async () => {
  {
    const wide = startDemo({ HOST: '0.0.0.0', ONBOARDING_STORE: 'memory' });
    // A refused start exits within seconds; one still running listens beyond loopback: stopped, and the test fails.
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([wide.exited, new Promise<'running'>((r) => (timer = setTimeout(() => r('running'), 20_000)))]);
    clearTimeout(timer);
    if (code === 'running') {
      wide.child.kill('SIGKILL');
      assert.fail('npm start kept running on HOST=0.0.0.0 with the embedded sandbox');
    }
    assert.equal(code, 1);
    assert.match(wide.output().err, /HOST=0\.0\.0\.0 would expose the embedded sandbox/);

    for (const [flag, expected] of [
      ['', 404],
      ['1', 200],
    ] as const) {
      const demo = startDemo({ ONBOARDING_STORE: 'memory', ONBOARDING_SANDBOX_CONTROL: flag });
      try {
        const url = await demo.url;
        assert.equal((await fetch(`${url}/sandbox/__sandbox/stats`)).status, expected, `flag "${flag}"`);
        const reset = await fetch(`${url}/sandbox/__sandbox/reset`, { method: 'POST' });
        assert.equal(reset.status, expected, `flag "${flag}"`);
        // The upstream API itself is there either way: the companion reaches it.
        assert.deepEqual(await (await fetch(`${url}/v1/health`)).json(), { status: 'ok', ok: true });
      } finally {
        demo.child.kill('SIGKILL');
        await demo.exited;
      }
    }
  }
});
