/**
 * The browser tests' page (@onboarding-kit/testing/reportable-failures): a failed assertion whose
 * `actual` is a DOM node is reported as that failure, named, within seconds. Without it Web Test
 * Runner cannot clone the results, never receives them, and reports the file as a stall once its
 * whole deadline has passed, hiding which test failed and why.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WTR = join(ROOT, 'node_modules/.bin/wtr');
/** Far below the probe run's own cut: a stall shows as the deadline's message, a report as the failure's. */
const FILE_DEADLINE_MS = 20_000;

let dir = '';

before(async () => {
  // Inside the workspace, so that the config and the probe resolve the workspace's packages.
  await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
  dir = await mkdtemp(join(ROOT, 'node_modules/.cache/reportable-failures-'));
  await writeFile(
    join(dir, 'probe.test.js'),
    `it('keeps a node as its actual value', () => {
  const error = new Error('the body was expected to be gone');
  Object.assign(error, { actual: document.body, expected: null, showDiff: true });
  throw error;
});
`,
  );
  await writeFile(
    join(dir, 'wtr.config.mjs'),
    `import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumLaunchOptions } from '@onboarding-kit/testing/chromium';
import { reportableFailuresHtml } from '@onboarding-kit/testing/reportable-failures';
export default {
  rootDir: ${JSON.stringify(ROOT)},
  files: [${JSON.stringify(join(dir, 'probe.test.js'))}],
  browsers: [playwrightLauncher({ product: 'chromium', launchOptions: chromiumLaunchOptions() })],
  testRunnerHtml: reportableFailuresHtml,
  testsFinishTimeout: ${FILE_DEADLINE_MS},
};
`,
  );
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function runProbe(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(WTR, ['--config', join(dir, 'wtr.config.mjs')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const cut = setTimeout(() => child.kill('SIGKILL'), FILE_DEADLINE_MS * 4);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cut);
      resolve({ code, output });
    });
  });
}

test('a failure whose actual value is a DOM node is reported as that failure, not as a stall', async () => {
  const { code, output } = await runProbe();
  assert.equal(code, 1, output);
  assert.match(output, /the body was expected to be gone/);
  assert.doesNotMatch(output, /did not finish within/);
});
