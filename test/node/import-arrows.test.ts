/**
 * The arrows lint (scripts/check-arrows.ts with scripts/import-arrows.ts) on a planted
 * workspace: every kind of forbidden import is reported with its file and line, the allowed
 * ones are not, and the script exits 1 on the planted tree and 0 once the violations are gone.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importProblems } from '../../scripts/import-arrows.js';

/** A quoted specifier, built so that this file's own text holds no import of it for the lint to find. */
const q = (specifier: string) => `'${specifier}'`;

const CHECK_ARROWS = fileURLToPath(new URL('../../scripts/check-arrows.ts', import.meta.url));

/** Files every planted tree has: imports the rules allow. */
const ALLOWED: Record<string, string> = {
  'packages/contract/src/index.ts': 'export const x = 1;\n',
  'packages/element/src/index.ts': `import { x } from '@onboarding-kit/contract';\nimport { y } from ${q('./y.js')};\n`,
  'packages/element/src/y.ts': 'export const y = 2;\n',
  'packages/element/src/image/pipeline.test.ts':
    '/// <reference types="@onboarding-kit/testing/mocha-globals" />\n' +
    "import { probeCard } from '@onboarding-kit/testing/pixels';\n" +
    "import { OnboardingFlow } from '@onboarding-kit/element';\n",
  // Prose in a comment block is not an import.
  'packages/element/vite.config.ts': `/**\n * the element's import(${q('../../server/src/x.js')}) stays lazy\n */\nexport {};\n`,
  'packages/server/test/flow.test.ts': `import { launchChromium } from '@onboarding-kit/testing/chromium';\nimport ${q('../src/index.js')};\n`,
  'packages/react/src/index.ts': "import '@onboarding-kit/element';\n",
  'packages/testing/src/double.mjs': `import '@onboarding-kit/contract';\nimport '@onboarding-kit/server';\nimport ${q('./y4m.mjs')};\n`,
  'bench/capture.ts': `import { captureFrame } from '@onboarding-kit/element/internal/capture-frame';\nimport { serve } from ${q('./lib/serve.js')};\n`,
  'test/e2e/helpers/browser.ts': "import { launchChromium } from '@onboarding-kit/testing/chromium';\n",
};

/** One planted violation per rule, with the problem the lint must report for it. */
const VIOLATIONS: { file: string; text: string; problem: string }[] = [
  {
    file: 'packages/element/src/b.ts',
    text: `export {};\nimport { createCompanion } from ${q('../../server/src/index.js')};\n`,
    problem:
      'packages/element/src/b.ts:2: reaches into packages/server by path (../../server/src/index.js); import @onboarding-kit/server by name',
  },
  {
    file: 'packages/element/src/c.ts',
    text: "const m = await import('@onboarding-kit/server');\n",
    problem: 'packages/element/src/c.ts:1: element must not import @onboarding-kit/server (arrows: element -> contract)',
  },
  {
    file: 'packages/server/src/d.ts',
    text: "import { launchChromium } from '@onboarding-kit/testing/chromium';\n",
    problem: 'packages/server/src/d.ts:1: shipped code of server must not import @onboarding-kit/testing (only its tests may)',
  },
  {
    file: 'packages/react/test/browser.test.ts',
    text: `import { serveStatic } from ${q('../../element/test/support/static-server.js')};\n`,
    problem:
      'packages/react/test/browser.test.ts:1: reaches into packages/element by path (../../element/test/support/static-server.js); import @onboarding-kit/element by name',
  },
  {
    file: 'packages/react/src/capture.ts',
    text: "export { captureFrame } from '@onboarding-kit/element/internal/capture-frame';\n",
    problem:
      "packages/react/src/capture.ts:1: reaches into @onboarding-kit/element/internal/capture-frame, which only the workspace's tests and bench may use",
  },
  {
    file: 'packages/sandbox/src/e.ts',
    text: `import { helper } from ${q('../../../test/node/helpers/stack.js')};\n`,
    problem:
      'packages/sandbox/src/e.ts:1: leaves packages/sandbox by path (../../../test/node/helpers/stack.js); a package must stand on its own',
  },
  {
    file: 'bench/lib/chromium.ts',
    text: `import { chromiumPath } from ${q('../../packages/testing/src/chromium.mjs')};\n`,
    problem:
      'bench/lib/chromium.ts:1: reaches into packages/testing by path (../../packages/testing/src/chromium.mjs); import @onboarding-kit/testing by name',
  },
  {
    file: 'test/e2e/helpers/y4m.ts',
    text: `const Y4M = new URL(${q('../../../packages/element/test-support/y4m.mjs')}, import.meta.url).href;\n`,
    problem:
      'test/e2e/helpers/y4m.ts:1: reaches into packages/element by path (../../../packages/element/test-support/y4m.mjs); import @onboarding-kit/element by name',
  },
  {
    file: 'demo/src/page.ts',
    text: "import { renderCardPicture } from '@onboarding-kit/testing/card-picture';\n",
    problem:
      'demo/src/page.ts:1: the demo must not import @onboarding-kit/testing/card-picture (test support and internals are not for pages)',
  },
  {
    file: 'web-test-runner.config.mjs',
    text: `import { writeCardY4m } from ${q('./packages/element/test-support/y4m.mjs')};\n`,
    problem:
      'web-test-runner.config.mjs:1: reaches into packages/element by path (./packages/element/test-support/y4m.mjs); import @onboarding-kit/element by name',
  },
];

async function plant(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
}

async function runCheck(root: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', CHECK_ARROWS, root]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let clean: string;
let planted: string;
before(async () => {
  clean = await mkdtemp(join(tmpdir(), 'okit-arrows-clean-'));
  planted = await mkdtemp(join(tmpdir(), 'okit-arrows-planted-'));
  await plant(clean, ALLOWED);
  await plant(planted, { ...ALLOWED, ...Object.fromEntries(VIOLATIONS.map((v) => [v.file, v.text])) });
});
after(async () => {
  await rm(clean, { recursive: true, force: true });
  await rm(planted, { recursive: true, force: true });
});

test('the allowed imports raise nothing', () => {
  assert.deepEqual(importProblems(clean), []);
});

test('every planted violation is reported once, with its file, line and rule', () => {
  assert.deepEqual(importProblems(planted).sort(), VIOLATIONS.map((v) => v.problem).sort());
});

test('check-arrows exits 1 on the planted tree and 0 on the clean one', async () => {
  const bad = await runCheck(planted);
  assert.equal(bad.code, 1);
  for (const { problem } of VIOLATIONS) assert.ok(bad.stderr.includes(problem), `missing from the lint's output: ${problem}`);
  const good = await runCheck(clean);
  assert.equal(good.code, 0, good.stderr);
  assert.match(good.stdout, /arrows ok/);
});
