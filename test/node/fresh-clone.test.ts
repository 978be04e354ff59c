/**
 * The README's two commands on a fresh clone, as a new user runs them: clone, `npm ci` from the
 * lockfile, `npm start` (which must build what a clone lacks, say so, and serve the demo), a
 * second `npm start` with nothing changed (no build), and the test command's own first step.
 *
 * It clones what is committed (HEAD): in CI that is the code under test; locally, commit first.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let clone = '';

/** The environment of a command a user types: without this runner's marker, which would make node:test in the child skip its files. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function run(cmd: string, args: string[], cwd: string): { status: number | null; output: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: userEnv({ CI: 'true' }), timeout: 6 * 60_000 });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

/** `npm start` in the clone on a free port: its stdout, and the URL once it prints one. */
function npmStart(cwd: string) {
  // Its own process group, so that stopping it reaches the node server behind npm and sh.
  const child = spawn(npm, ['start'], {
    cwd,
    detached: true,
    env: userEnv({ PORT: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /onboarding-kit demo: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    void exited.then(() => reject(new Error(`npm start exited before serving\nstdout: ${out}\nstderr: ${err.slice(-4000)}`)));
  });
  url.catch(() => {});
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return; // already gone
    }
    await exited;
  };
  return { url, stop, stdout: () => out };
}

before(() => {
  clone = mkdtempSync(join(tmpdir(), 'okit-clone-'));
  const cloned = run('git', ['clone', '--quiet', repo, clone], tmpdir());
  assert.equal(cloned.status, 0, cloned.output);
  // From the lockfile; the packages come from npm's cache when the suite's own `npm ci` filled it.
  const installed = run(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], clone);
  assert.equal(installed.status, 0, installed.output);
});

after(() => {
  if (clone) rmSync(clone, { recursive: true, force: true });
});

test('on a fresh clone, npm start builds what is missing, says so, and serves the demo and the API', async () => {
  const first = npmStart(clone);
  try {
    const url = await first.url;
    assert.match(first.stdout(), /onboarding-kit: building first \(nothing is built yet\): npm run build/);
    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<onboarding-flow[\s>]/);
    const bundle = await fetch(`${url}/element/onboarding-flow.bundle.js`);
    assert.equal(bundle.status, 200, 'the page can load the element it names');
    await bundle.arrayBuffer();
    assert.deepEqual(await (await fetch(`${url}/v1/health`)).json(), { status: 'ok', ok: true });
  } finally {
    await first.stop();
  }

  const second = npmStart(clone);
  try {
    const url = await second.url;
    assert.doesNotMatch(second.stdout(), /building first/, 'nothing changed: no second build');
    assert.match(await (await fetch(`${url}/`)).text(), /<onboarding-flow[\s>]/);
  } finally {
    await second.stop();
  }
});

test('on a fresh clone, the test command finds its build current and its runner working', () => {
  const check = run(process.execPath, ['scripts/ensure-built.mjs', '--check'], clone);
  assert.equal(check.status, 0, `npm test's first step would build again: ${check.output}`);
  const tests = run(npm, ['run', 'test:node', '--', 'packages/contract/test/tax-id'], clone);
  assert.equal(tests.status, 0, tests.output);
  assert.match(tests.output, /# pass [1-9]/);
  assert.match(tests.output, /# fail 0/);
});

test('a change to a source file makes the build stale; a change to a test or a doc does not', async () => {
  const { appendFileSync } = await import('node:fs');
  const check = () => run(process.execPath, ['scripts/ensure-built.mjs', '--check'], clone);
  appendFileSync(join(clone, 'packages/contract/test/tax-id.test.ts'), '\n// a test changed\n');
  appendFileSync(join(clone, 'README.md'), '\nA doc changed.\n');
  assert.equal(check().status, 0, 'tests and docs are not build inputs');
  appendFileSync(join(clone, 'packages/contract/src/tax-id.ts'), '\n// a source changed\n');
  const stale = check();
  assert.equal(stale.status, 1);
  assert.match(stale.output, /sources changed since the last build/);
});
