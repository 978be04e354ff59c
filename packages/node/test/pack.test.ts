/**
 * The package as an integrator installs it: built by its own tsconfig.build.json, packed with
 * `npm pack`, installed from the tarball alone in an empty project (offline: it has no dependency
 * to fetch), and used from plain Node with no loader and no workspace: a call to a companion
 * stand-in on 127.0.0.1 and the verification of a signed notification.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { signNotification } from '@onboarding-kit/server/verify';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'onboarding-node-pack-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('packed, installed alone and run from plain Node', { timeout: 240_000 }, async () => {
  const staged = join(work, 'package');
  mkdirSync(staged);
  execFileSync(process.execPath, [tsc, '-p', join(pkgDir, 'tsconfig.build.json'), '--outDir', join(staged, 'dist')], { stdio: 'pipe' });
  for (const name of ['package.json', 'README.md', 'src']) cpSync(join(pkgDir, name), join(staged, name), { recursive: true });
  execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: staged, stdio: 'pipe' });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack made a tarball');

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, tarball)], {
    cwd: app,
    encoding: 'utf8',
  });
  assert.equal(install.status, 0, install.stderr);
  const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  assert.deepEqual(Object.keys(lock.packages).sort(), ['', 'node_modules/@onboarding-kit/node'], 'nothing else installed');

  const seen: { auth?: string; key?: string }[] = [];
  const companion = createServer((req, res) => {
    seen.push({ auth: req.headers.authorization, key: req.headers['idempotency-key'] as string | undefined });
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'ses_1', clientSecret: 's', url: 'u', status: 'open', expiresAt: 'e', reference: 'r' }));
    });
  });
  await new Promise<void>((resolve) => companion.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(companion.address() as AddressInfo).port}`;
  try {
    const secret = 'whsec_pack_0123456789abcdef0123456789abcdef';
    const body = JSON.stringify({ id: 'evt_1', type: 'session.expired', createdAt: 'x', environment: 'test', data: { id: 'ses_1' } });
    const header = await signNotification(body, [secret], Math.floor(Date.now() / 1000));
    writeFileSync(
      join(app, 'main.js'),
      `import { OnboardingClient, constructEvent, OnboardingApiError } from '@onboarding-kit/node';
const client = new OnboardingClient({ apiKey: 'sk_pack', baseUrl: process.env.URL });
const session = await client.sessions.create({ reference: 'r' });
const event = await constructEvent(process.env.BODY, process.env.HEADER, process.env.SECRET);
console.log(JSON.stringify({ session: session.id, event: event.type, error: typeof OnboardingApiError }));
`,
    );
    // Asynchronous: the stand-in answers from this process meanwhile.
    const run = await promisify(execFile)(process.execPath, ['main.js'], {
      cwd: app,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, URL: url, BODY: body, HEADER: header, SECRET: secret },
    });
    assert.deepEqual(JSON.parse(run.stdout), { session: 'ses_1', event: 'session.expired', error: 'function' });
    assert.equal(seen[0]?.auth, 'Bearer sk_pack');
    assert.match(seen[0]?.key ?? '', /^[0-9a-f-]{36}$/);
    const types = readFileSync(join(app, 'node_modules/@onboarding-kit/node/dist/index.d.ts'), 'utf8');
    assert.match(types, /OnboardingClient/);
  } finally {
    companion.closeAllConnections();
    await new Promise<void>((resolve) => companion.close(() => resolve()));
  }
});
