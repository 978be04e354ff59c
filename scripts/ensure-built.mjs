// Builds what `npm start` and `npm test` serve when it is missing or older than its sources, so
// both README commands work on a fresh clone; with nothing changed it answers at once.
//
//   node scripts/ensure-built.mjs            build if needed (what `npm start` and `npm test` run first)
//   node scripts/ensure-built.mjs --stamp    record the current sources as built (end of `npm run build`)
//   node scripts/ensure-built.mjs --check    exit 1 when a build is needed, build nothing
//
// "Stale" is decided from the content of the build's inputs, not from mtimes: a fresh clone, a
// `git checkout` and an editor's save all change mtimes without changing what a build would make.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const STAMP = join(ROOT, 'demo', 'dist', '.build-inputs.json');

/** What `npm run build` reads: each package's sources and build config, the demo, the lockfile. */
const INPUT_ROOTS = ['packages', 'demo', 'vite.config.ts', 'tsconfig.base.json', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** Never inputs: outputs, dependencies, tests, and the test-support package nothing ships. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test', 'test-support', 'testing', 'coverage']);
const SKIPPED_FILE = /\.(test|spec)\.tsx?$|(^|\/)test-helpers\.ts$|^\.|\.md$/;
/** What must exist after a build for `npm start` and the tests that load the built files. */
const OUTPUTS = [
  'demo/dist/index.html',
  'packages/element/dist/onboarding-flow.bundle.js',
  'packages/element/dist/index.js',
  'packages/element/custom-elements.json',
  'packages/react/dist/index.js',
  'packages/server/dist/index.js',
  'packages/server/dist/page/hosted-page.js',
  'packages/node/dist/index.js',
  'packages/contract/dist/index.js',
  'packages/sandbox/dist/index.js',
];

function walk(path, files) {
  let info;
  try {
    info = statSync(path);
  } catch {
    return;
  }
  const name = path.slice(path.lastIndexOf(sep) + 1);
  if (info.isDirectory()) {
    if (SKIPPED_DIRS.has(name) || name.startsWith('.')) return;
    for (const entry of readdirSync(path)) walk(join(path, entry), files);
  } else if (info.isFile() && !SKIPPED_FILE.test(name)) {
    files.push(path);
  }
}

/** A hash of every input's path and content. */
export function inputsFingerprint(root = ROOT) {
  const files = [];
  for (const entry of INPUT_ROOTS) walk(join(root, entry), files);
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f).split(sep).join('/')).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return { fingerprint: hash.digest('hex'), files: files.length };
}

/** Why a build is needed, or null when the last build matches the sources. */
export function staleReason(root = ROOT) {
  const missing = OUTPUTS.filter((o) => !existsSync(join(root, o)));
  if (missing.length === OUTPUTS.length) return 'nothing is built yet';
  if (missing.length > 0) return `${missing[0]} is missing`;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return 'the build has no record of its sources';
  }
  return stamp.fingerprint === inputsFingerprint(root).fingerprint ? null : 'sources changed since the last build';
}

function writeStamp() {
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify({ ...inputsFingerprint(), builtAt: new Date().toISOString() })}\n`);
}

function main(args) {
  if (args.includes('--stamp')) {
    writeStamp();
    return 0;
  }
  // A demo build of one's own (ONBOARDING_DEMO_DIR) is the operator's to keep current.
  if (process.env.ONBOARDING_DEMO_DIR?.trim() && !args.includes('--check')) return 0;
  const reason = staleReason();
  if (args.includes('--check')) {
    console.log(reason ?? 'up to date');
    return reason ? 1 : 0;
  }
  if (!reason) return 0;
  console.log(`onboarding-kit: building first (${reason}): npm run build`);
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Build output goes to stderr so that a caller reading stdout (a test waiting for the URL) sees only our lines.
  const build = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: ['ignore', process.stderr, 'inherit'] });
  if (build.status !== 0) {
    console.error(`onboarding-kit: the build failed (exit ${build.status ?? build.signal}); see the output above`);
    return 1;
  }
  console.log(`onboarding-kit: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main(process.argv.slice(2)));
