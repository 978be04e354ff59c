// Node 20's test runner does not expand globs: find the Node-side test files and hand them over.
// Usage: node scripts/node-tests.mjs [filter...]  (filters match against the path)
//
// Each file runs under its own `node --test` (three at a time), so that a file whose process stalls
// before any of its tests starts can be told apart from a failing or hanging test. Fresh CI
// machines have twice held the first file (base64.test.ts, under a second of tests) for the whole
// 300 s limit with no test started: the stall is in loading (tsx's esbuild service under load),
// not in the tests. Such a file is killed after STARTUP_STALL_MS and run again, at most twice,
// and the run says so. `--test-timeout` binds only under `node --test`, not for a file run
// directly, so a file whose TAP output stays silent for TEST_TIMEOUT_MS after its tests started
// (a test awaiting an event that never comes) is killed and fails, naming the hang.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

const roots = ['packages', 'test/node'];
const files = [];
function walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts') && (path.startsWith('test/node') || /^packages\/[^/]+\/test\//.test(path))) files.push(path);
  }
}
roots.forEach(walk);
// Generous: a safety net for hangs, not a measure of speed (a slow 2-core machine must still pass).
const TEST_TIMEOUT_MS = Number(process.env.NODE_TESTS_TIMEOUT_MS ?? 300_000);
const STARTUP_STALL_MS = Number(process.env.NODE_TESTS_STALL_MS ?? 90_000);
const RUNS_PER_FILE = 3;
// Most files wait on sockets, timers and child processes more than they compute: on 2 cores the
// server's 104 files took 133 s two at a time, 117 s three at a time (102 s four at a time, with
// the browser-driving files beside them a risk of stalls).
const CONCURRENCY = Math.max(1, Number(process.env.NODE_TESTS_CONCURRENCY ?? 3));
const filters = process.argv.slice(2);
const selected = files.sort().filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (selected.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

/** One run of one file: its TAP output, exit code, and whether it stalled before any test started. */
function runOnce(file) {
  return new Promise((resolve) => {
    // Run directly rather than under `--test`: the reporter then prints its TAP header when the
    // file's first test registers, after its modules have loaded, which tells a stall in loading
    // from a slow test. --test-force-exit: a file whose tests have all finished exits even when
    // something outside them keeps its event loop alive.
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--test-force-exit', '--test-reporter=tap', `--test-timeout=${TEST_TIMEOUT_MS}`, file],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    let out = '';
    let started = false;
    let hung = false;
    let silence;
    const onData = (chunk) => {
      out += chunk;
      if (!started && /^TAP version/m.test(out)) started = true;
      if (!started) return;
      clearTimeout(silence);
      silence = setTimeout(() => {
        hung = true;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, TEST_TIMEOUT_MS);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    let stalled = false;
    const watchdog = setTimeout(() => {
      if (started) return;
      stalled = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, STARTUP_STALL_MS);
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      clearTimeout(silence);
      if (hung) out += `\nnot ok 0 - a test reported nothing for ${TEST_TIMEOUT_MS / 1000} s; the file's process was killed\n`;
      resolve({ out, code: signal ? 1 : (code ?? 1), stalled });
    });
  });
}

const totals = { pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };
const failed = [];
const stalls = [];
const failures = [];

/** The failed tests of one file's TAP: name, and the error and location from its YAML block. */
function failedTests(file, tap) {
  const lines = tap.split('\n');
  const found = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)not ok \d+ - (.*)$/.exec(line);
    if (!m) return;
    const detail = [];
    for (let j = i + 1; j < lines.length && !/^\s*\.\.\.$/.test(lines[j]); j++) {
      const d = /^(\s*)(error|location): (.*)$/.exec(lines[j]);
      if (!d) continue;
      let value = d[3];
      // A block scalar (`|-`): its first lines, the ones indented under the key.
      if (/^[|>][-+]?$/.test(value)) {
        const block = [];
        for (let k = j + 1; k < lines.length && block.length < 3 && lines[k].startsWith(`${d[1]}  `); k++) block.push(lines[k].trim());
        value = block.filter(Boolean).join(' / ');
      }
      detail.push(`${d[2]}: ${value}`);
    }
    found.push(`  ✗ ${file}: ${m[2]}${detail.length ? `\n      ${detail.join('\n      ')}` : ''}`);
  });
  return found;
}

async function runFile(file) {
  for (let attempt = 1; attempt <= RUNS_PER_FILE; attempt++) {
    const { out, code, stalled } = await runOnce(file);
    if (stalled) {
      stalls.push(`${file} (run ${attempt})`);
      process.stdout.write(
        `# ${file}: no test started within ${STARTUP_STALL_MS / 1000} s; its process was killed${attempt < RUNS_PER_FILE ? ', running it again' : ''}\n`,
      );
      if (attempt < RUNS_PER_FILE) continue;
    }
    process.stdout.write(`# ===== ${file}\n${out}`);
    for (const key of Object.keys(totals)) {
      const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(out);
      if (m) totals[key] += Number(m[1]);
    }
    if (code !== 0) {
      failed.push(file);
      failures.push(...failedTests(file, out));
    }
    return;
  }
}

const queue = [...selected];
await Promise.all(
  Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
    while (queue.length > 0) await runFile(queue.shift());
  }),
);

process.stdout.write(
  `# ===== ${selected.length} files: ${totals.pass} passed, ${totals.fail} failed, ${totals.cancelled} cancelled, ${totals.skipped} skipped, ${totals.todo} todo\n`,
);
if (stalls.length > 0) process.stdout.write(`# stalled before any test started, run again: ${stalls.join(', ')}\n`);
if (failed.length > 0) {
  // Repeated at the end, so that the tail of a CI log says what failed.
  if (failures.length > 0) process.stdout.write(`# failed tests:\n${failures.join('\n')}\n`);
  process.stdout.write(`# FAILED: ${failed.join(', ')}\n`);
}
process.exit(failed.length > 0 ? 1 : 0);
