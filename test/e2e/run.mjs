// The end-to-end suite: every test/e2e/**/*.test.ts, one file at a time (the browser flows share
// one Chromium and one `npm start` stack inside their file, and the machine has 2 cores).
// scripts/node-tests.mjs does not look here, so `npm run test:node` stays quick.
// Usage: node test/e2e/run.mjs [filter...]   (filters match against the path)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const files = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(relative(root, path));
  }
}
walk(here);
// A test that hangs fails after this instead of holding CI until its own limit; generous, because
// it is a safety net for hangs, not a measure of speed (a slow 2-core machine must still pass).
const TEST_TIMEOUT_MS = 300_000;
const filters = process.argv.slice(2);
const selected = files.sort().filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (selected.length === 0) {
  console.error('no e2e test files found');
  process.exit(1);
}
// The spec reporter lists every failing test again at the end, where a CI log's tail shows it.
const child = spawn(
  process.execPath,
  [
    '--conditions=source',
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=1',
    `--test-timeout=${TEST_TIMEOUT_MS}`,
    ...selected,
  ],
  { cwd: root, stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
