/**
 * The store clients (redis, libsql) and zip.js are loaded only by what uses them: a companion on
 * the memory store never holds their code (tens of MB resident), and each still loads when its
 * store or an evidence archive is used. Checked in a fresh process (test/helpers/loaded-modules-child.ts).
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';

const CHILD = fileURLToPath(new URL('./helpers/loaded-modules-child.ts', import.meta.url));

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

test('a companion on the memory store loads neither store client nor zip.js; each loads when used', async () => {
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', CHILD, up.url, FAKE_CLIENT, FAKE_SECRET],
      { timeout: 120_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
  const stages = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { stage: string; loaded: string[] })
      .map((s) => [s.stage, s.loaded]),
  );
  assert.deepEqual(stages['memory store, one creation'], []);
  assert.deepEqual(stages['sqlite store'], ['libsql']);
  assert.deepEqual(stages['redis store'], ['redis', 'libsql']);
  assert.deepEqual(stages['evidence archive'], ['redis', 'libsql', 'zip.js']);
});
