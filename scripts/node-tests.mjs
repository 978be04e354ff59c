// Node 20's test runner does not expand globs: find the Node-side test files and hand them over.
// Usage: node scripts/node-tests.mjs [filter...]  (filters match against the path)
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

const roots = ['packages', 'test/node'];
const files = [];
function walk(dir) {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts') && (path.startsWith('test/node') || /^packages\/[^/]+\/test\//.test(path))) files.push(path);
  }
}
roots.forEach(walk);
// A test that hangs fails after this instead of holding CI until its own limit; generous, because
// it is a safety net for hangs, not a measure of speed (a slow 2-core machine must still pass).
const TEST_TIMEOUT_MS = 300_000;
const filters = process.argv.slice(2);
const selected = files.sort().filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (selected.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// --test-force-exit: a file whose tests have all finished exits even when something outside them
// keeps its event loop alive. A CI run once held base64.test.ts (0.4 s of tests) for the whole
// 300 s after its last test passed; tsx's esbuild service is the likely holder (known to stall a
// child on exit now and then), not the tests, which close what they open.
const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', '--test-force-exit', '--test-concurrency=2', `--test-timeout=${TEST_TIMEOUT_MS}`, ...selected], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : code ?? 1));
