/**
 * `onboarding-companion` as an operator gets it (docs/deploy.md): the contract and server
 * packages packed with `npm pack`, installed from their tarballs in an empty folder (from npm's
 * cache, as `npm ci` left it: no network; helpers/packed-install.ts), the bin started as a process of its own against the
 * sandbox started as another, and a session run end to end over HTTP: opened with an API key,
 * its onboarding created with a real photo as the page sends it, the outcome confirmed, and the
 * signed notifications received on a loopback receiver and verified with the installed package's
 * `/verify` export. Also `--check` (secrets redacted), one error naming every bad variable, the
 * health and readiness routes, and the embedded sandbox only when asked for.
 *
 * It packs the built packages: `npm test` builds first (scripts/ensure-built.mjs).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startChild, killChildren, type Child } from './helpers/child-process.js';
import { freePort } from './helpers/demo-process.js';
import { packAndInstall } from './helpers/packed-install.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'okit-bin-'));
const app = join(scratch, 'app');
const installedBin = join(app, 'node_modules', '.bin', 'onboarding-companion');
const workspaceBin = join(repo, 'packages', 'server', 'dist', 'cli', 'companion-cli.js');

const CLIENT = 'bin-client-5e1f';
const SECRET = 'bin-upstream-secret-0a9b8c7d6e5f';
const WEBHOOK_KEY = 'bin-webhook-key-0123456789abcdefghij';
const API_KEY = 'sk_test_bin_0123456789abcdefghijklmnopqrstuv';
const NOTIFY_SECRET = 'whsec_bin_0123456789abcdefghijklmnopqrstuv';
const DATA_KEY = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
const SECRETS = [SECRET, WEBHOOK_KEY, API_KEY, NOTIFY_SECRET, DATA_KEY.slice(3)];
/** A real photo, as the page sends it: a JPEG in plain base64. */
const PHOTO = readFileSync(join(repo, 'packages', 'element', 'test', 'fixtures', 'faces', 'astronaut.jpg')).toString('base64');

let installMs = 0;

/** The environment of a command an operator types: none of this runner's own settings (source conditions, npm's variables, the test marker). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_|NODE_OPTIONS$|NODE_TEST_CONTEXT$|ONBOARDING_|SANDBOX_|PORT$|HOST$)/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

before(() => {
  const started = Date.now();
  packAndInstall(
    repo,
    scratch,
    [
      { name: '@onboarding-kit/contract', workspace: 'packages/contract' },
      { name: '@onboarding-kit/server', workspace: 'packages/server' },
    ],
    cleanEnv(),
  );
  installMs = Date.now() - started;
});

after(() => {
  killChildren();
  rmSync(scratch, { recursive: true, force: true });
});

const start = (command: string, args: string[], env: NodeJS.ProcessEnv): Child => startChild(command, args, { cwd: app, env });

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(command, args, { cwd: app, env, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** A loopback receiver of the companion's notifications: each body as received, with its signature header. */
async function startReceiver(): Promise<{ server: Server; url: string; received: { raw: string; signature: string }[] }> {
  const received: { raw: string; signature: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['onboarding-signature'] ?? '') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`, received };
}

async function waitUntil(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The installed package's `/verify` export, loaded as its `exports` map sends a consumer (the `default` condition). */
async function installedVerify(): Promise<(raw: string, header: string | null, secret: string) => Promise<boolean>> {
  const dir = join(app, 'node_modules', '@onboarding-kit', 'server');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
  const mod = (await import(pathToFileURL(join(dir, pkg.exports['./verify']!.default)).href)) as {
    verifyNotification: (raw: string, header: string | null, secret: string) => Promise<boolean>;
  };
  return mod.verifyNotification;
}

test('the packed bin runs a session end to end against the sandbox in another process, and its notifications verify', async (t) => {
  const began = Date.now();
  const [sandboxPort, companionPort] = [await freePort(), await freePort()];
  const receiver = await startReceiver();
  const sandbox = start(process.execPath, [join(repo, 'packages', 'sandbox', 'dist', 'cli.js')], {
    ...cleanEnv(),
    PORT: String(sandboxPort),
    HOST: '127.0.0.1',
    SANDBOX_CLIENT: CLIENT,
    SANDBOX_SECRET: SECRET,
    SANDBOX_WEBHOOK_KEY: WEBHOOK_KEY,
    SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${companionPort}/v1/webhooks`,
    SANDBOX_PROCESSING_MS: '300',
  });
  const sandboxUrl = (await sandbox.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  const companion = start(installedBin, [], {
    ...cleanEnv(),
    PORT: String(companionPort),
    HOST: '127.0.0.1',
    ONBOARDING_ENVIRONMENT: 'test',
    ONBOARDING_BASE_URL: sandboxUrl,
    ONBOARDING_CLIENT: CLIENT,
    ONBOARDING_SECRET: SECRET,
    ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
    ONBOARDING_API_KEYS: API_KEY,
    ONBOARDING_SESSIONS: 'required',
    ONBOARDING_NOTIFY_URL: receiver.url,
    ONBOARDING_NOTIFY_SECRET: NOTIFY_SECRET,
    ONBOARDING_STORE: `sqlite:${join(scratch, 'companion.db')}`,
    ONBOARDING_DATA_KEY: DATA_KEY,
  });
  try {
    const url = (await companion.waitFor(/"msg":"onboarding-companion listening","url":"(http:\/\/127\.0\.0\.1:\d+)"/))[1]!;
    assert.equal(url, `http://127.0.0.1:${companionPort}`);

    const health = await fetch(`${url}/v1/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const ready = await fetch(`${url}/v1/ready`);
    assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready', checks: { store: 'ok', upstream: 'ok' } }]);
    for (const path of ['/', '/demo/notifications', '/sandbox/api/token-generate'])
      assert.equal((await fetch(`${url}${path}`)).status, 404, `${path}: the companion alone, no demo and no sandbox`);

    const auth = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
    const opened = await fetch(`${url}/v1/sessions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ reference: 'bin-user-1', cpf: '529.982.247-25', name: 'Maria Silva' }),
    });
    assert.equal(opened.status, 201, await opened.clone().text());
    const session = (await opened.json()) as { id: string; clientSecret: string };

    // The page: its session read with the client secret, then the onboarding created with the photos.
    const page = { authorization: `Bearer ${session.clientSecret}` };
    assert.equal((await fetch(`${url}/v1/session`, { headers: page })).status, 200);
    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { ...page, 'content-type': 'application/json' },
      body: JSON.stringify({ documentType: 'CNH', images: { documentFront: PHOTO, documentBack: PHOTO, selfie: PHOTO } }),
    });
    assert.equal(created.status, 201, await created.clone().text());

    const typeOf = (n: { raw: string }) => (JSON.parse(n.raw) as { type: string }).type;
    await waitUntil(() => receiver.received.some((n) => typeOf(n) === 'session.completed'), 30_000, 'session.completed');
    const verify = await installedVerify();
    for (const n of receiver.received) {
      assert.equal(await verify(n.raw, n.signature, NOTIFY_SECRET), true, `${typeOf(n)} verifies`);
      assert.equal(await verify(n.raw, n.signature, `${NOTIFY_SECRET}x`), false, 'not with another secret');
    }
    assert.deepEqual(
      receiver.received.map(typeOf).filter((type) => type.startsWith('session.')),
      ['session.submitted', 'session.completed'],
    );
    const completed = JSON.parse(receiver.received.find((n) => typeOf(n) === 'session.completed')!.raw) as {
      data: { id: string; status: string; onboarding: { status: string } };
    };
    assert.equal(completed.data.id, session.id);
    assert.equal(completed.data.onboarding.status, 'APPROVED');

    const confirmed = (await (await fetch(`${url}/v1/sessions/${session.id}`, { headers: auth })).json()) as {
      status: string;
      onboarding: { status: string };
    };
    assert.deepEqual([confirmed.status, confirmed.onboarding.status], ['completed', 'APPROVED'], 'the backend confirms');

    assert.equal(await stop(companion), 0, 'SIGTERM: a graceful exit');
    const lines = companion.out().trim().split('\n');
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      assert.equal(typeof parsed.time, 'string', line);
      assert.ok(['debug', 'info', 'warn', 'error'].includes(parsed.level as string), line);
      assert.equal(typeof parsed.msg, 'string', line);
    }
    assert.ok(lines.length > 5, 'every request logged');
    for (const secret of SECRETS) assert.ok(!`${companion.out()}${companion.err()}`.includes(secret), 'a secret reached the logs');
    t.diagnostic(
      `pack and install ${installMs} ms; bin and sandbox started, session run to a verified notification ${Date.now() - began} ms`,
    );
  } finally {
    companion.child.kill('SIGKILL');
    sandbox.child.kill('SIGKILL');
    receiver.server.close();
  }
});

async function stop(p: Child): Promise<number | null> {
  if (p.child.exitCode !== null) return p.child.exitCode;
  p.child.kill('SIGTERM');
  return p.exited;
}

test('--check prints the resolved configuration with every secret redacted; --help and --version answer', () => {
  const env = cleanEnv({
    ONBOARDING_ENVIRONMENT: 'production',
    ONBOARDING_BASE_URL: 'https://api.example.com/base',
    ONBOARDING_CLIENT: CLIENT,
    ONBOARDING_SECRET: SECRET,
    ONBOARDING_WEBHOOK_KEY: WEBHOOK_KEY,
    ONBOARDING_API_KEYS: `${API_KEY}:sessions+queries`,
    ONBOARDING_ADMIN_KEY: 'admin-key-0123456789abcdef',
    ONBOARDING_NOTIFY_URL: 'https://hooks.example.com/kyc?token=query-token-123456',
    ONBOARDING_NOTIFY_SECRET: NOTIFY_SECRET,
    ONBOARDING_STORE: 'rediss://user:redis-password-42@redis.internal:6380/0',
    ONBOARDING_DATA_KEY: DATA_KEY,
    ONBOARDING_PUBLIC_URL: 'https://kyc.example.com',
    ONBOARDING_TRUSTED_PROXIES: '1',
  });
  const check = run(installedBin, ['--check'], env);
  assert.equal(check.status, 0, check.err);
  for (const secret of [...SECRETS, CLIENT, 'admin-key-0123456789abcdef', 'redis-password-42', 'query-token-123456'])
    assert.ok(!check.out.includes(secret), `--check prints ${secret.slice(0, 10)}...`);
  for (const line of [
    'ONBOARDING_ENVIRONMENT=production',
    'ONBOARDING_BASE_URL=https://api.example.com/base',
    'ONBOARDING_SECRET=[redacted]',
    'ONBOARDING_CLIENT=[redacted]',
    'ONBOARDING_WEBHOOK_KEY=[redacted]',
    'ONBOARDING_API_KEYS=[redacted]:sessions+queries',
    'ONBOARDING_NOTIFY_URL=https://hooks.example.com/kyc (query [redacted])',
    'ONBOARDING_NOTIFY_SECRET=[redacted]',
    'ONBOARDING_STORE=rediss://[redacted]@redis.internal:6380/0',
    'ONBOARDING_DATA_KEY=k1:[redacted] (encrypts)',
    'ONBOARDING_SESSIONS=required  (default)',
    'ONBOARDING_TRUSTED_PROXIES=1',
    'ONBOARDING_LOG_FORMAT=json  (default)',
  ])
    assert.ok(check.out.split('\n').includes(line), `${line}\n--- in ---\n${check.out}`);

  const help = run(installedBin, ['--help'], cleanEnv());
  assert.equal(help.status, 0);
  assert.match(help.out, /Usage: onboarding-companion/);
  assert.match(help.out, /--check/);
  assert.equal(run(installedBin, ['--version'], cleanEnv()).status, 0);
  const unknown = run(installedBin, ['--chek'], cleanEnv());
  assert.equal(unknown.status, 2);
  assert.match(unknown.err, /unknown argument "--chek"/);
});

test('a bad environment stops the start with one error naming every problem', async () => {
  const env = cleanEnv({
    ONBOARDING_ENVIRONMENT: 'prod',
    ONBOARDING_RATE_LIMIT: 'many',
    ONBOARDING_API_KEYS: 'short-key',
    ONBOARDING_NOTIFY_URL: 'not a url',
    ONBOARDING_TRUSTED_PROXIES: '99',
    ONBOARDING_LOG_FORMAT: 'xml',
    ONBOARDING_STORE: 'postgres://db',
  });
  for (const args of [[], ['--check']]) {
    const r = run(installedBin, args, env);
    assert.equal(r.status, 1, args.join(' '));
    assert.equal(r.out, '', 'nothing on stdout: no configuration, no log line');
    assert.equal(r.err.match(/invalid configuration/g)?.length, 1, `one error:\n${r.err}`);
    for (const name of [
      'ONBOARDING_BASE_URL is required',
      'ONBOARDING_ENVIRONMENT must be',
      'ONBOARDING_RATE_LIMIT must be',
      'ONBOARDING_API_KEYS: the key has 9 characters',
      'ONBOARDING_NOTIFY_URL must be an absolute',
      'ONBOARDING_NOTIFY_SECRET is required',
      'ONBOARDING_TRUSTED_PROXIES must be',
      'ONBOARDING_LOG_FORMAT must be',
      'ONBOARDING_STORE',
    ])
      assert.ok(r.err.includes(name), `${name}\n--- in ---\n${r.err}`);
    assert.ok(!r.err.includes('short-key'), 'the key itself is never quoted');
  }
});

test('the embedded sandbox only when ONBOARDING_UPSTREAM=sandbox asks, never in production, and only where it is installed', async () => {
  const production = run(installedBin, ['--check'], cleanEnv({ ONBOARDING_UPSTREAM: 'sandbox', ONBOARDING_ENVIRONMENT: 'production' }));
  assert.equal(production.status, 1);
  assert.match(production.err, /ONBOARDING_ENVIRONMENT=production needs ONBOARDING_BASE_URL/);

  // The operator's install has no sandbox package: the start says what to install.
  const missing = run(installedBin, [], cleanEnv({ ONBOARDING_UPSTREAM: 'sandbox', ONBOARDING_STORE: 'memory', PORT: '0' }));
  assert.equal(missing.status, 1);
  assert.match(missing.out, /needs the package @onboarding-kit\/sandbox/);

  // In the workspace it is installed: the companion runs against it, mounted at /sandbox.
  const embedded = start(
    process.execPath,
    [workspaceBin],
    cleanEnv({ ONBOARDING_UPSTREAM: 'sandbox', ONBOARDING_STORE: 'memory', PORT: '0' }),
  );
  try {
    const url = (await embedded.waitFor(/"msg":"onboarding-companion listening","url":"(http:\/\/127\.0\.0\.1:\d+)"/))[1]!;
    const ready = await fetch(`${url}/v1/ready`);
    assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready', checks: { store: 'ok', upstream: 'ok' } }]);
    assert.match(embedded.out(), /"upstream":"embedded sandbox at \/sandbox"/);
    assert.equal(await stop(embedded), 0);
  } finally {
    embedded.child.kill('SIGKILL');
  }
});
