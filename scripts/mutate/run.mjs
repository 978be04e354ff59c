// `npm run mutate [-- contract|server|redis ...] [stryker flags]`: Stryker Mutator on the named
// targets (default: contract and server), one after the other, each with its
// stryker.<target>.config.json. `redis` (the Redis store) needs redis-server on PATH.
// Incremental: a re-run tests only the mutants whose code or covering tests changed since the last
// run (reports/mutation/<package>.incremental.json, a local cache); `--force` re-tests everything.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TARGETS = ['contract', 'server', 'redis'];
const DEFAULT_TARGETS = ['contract', 'server'];
const root = fileURLToPath(new URL('../..', import.meta.url));
const stryker = join(dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('-'));
const named = args.filter((a) => !a.startsWith('-'));
const unknown = named.filter((p) => !TARGETS.includes(p));
if (unknown.length) {
  console.error(`unknown target ${unknown.join(', ')}; mutation testing covers: ${TARGETS.join(', ')}`);
  process.exit(2);
}

/**
 * Runs Stryker in a process group of its own and ends whatever is left in that group when it is
 * done. Stryker kills a test process that times out or fails fast, and what that test had started
 * (a SQLite writer, a redis-server, a sandbox upstream) would otherwise live on as an orphan; its
 * temporary files, which it no longer removes, go to a folder of the run's own, removed after.
 */
function runStryker(pkg) {
  const scratch = mkdtempSync(join(tmpdir(), 'okit-mutate-'));
  return new Promise((resolve) => {
    const env = { ...process.env, TMPDIR: scratch, TMP: scratch, TEMP: scratch };
    const child = spawn(process.execPath, [stryker, 'run', `stryker.${pkg}.config.json`, ...flags], {
      cwd: root,
      env,
      stdio: 'inherit',
      detached: true,
    });
    const group = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is already empty
      }
    };
    const forward = (signal) => group(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      group('SIGKILL');
      rmSync(scratch, { recursive: true, force: true });
      resolve(signal ? 1 : (code ?? 1));
    });
  });
}

let failed = false;
for (const pkg of named.length ? named : DEFAULT_TARGETS) {
  console.log(`\n== mutation testing: ${pkg} ==`);
  const started = Date.now();
  const status = await runStryker(pkg);
  console.log(`== ${pkg}: ${Math.round((Date.now() - started) / 1000)} s, exit ${status} ==`);
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
