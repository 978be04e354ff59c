// `npm` inside the docs' shell samples (test/node/doc-samples.test.ts): a sample's `npm start`,
// `npm test` or `npm install` cannot run inside `npm test`, so each is checked instead, and says
// so: the script it names exists (in the workspace it names), the packages it installs are this
// repository's published packages, `npm ci` has a lock file. Anything else fails.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.env.DOC_REPO_ROOT;
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const rootPackage = readJson('package.json');
const workspaces = rootPackage.workspaces.map((dir) => readJson(join(dir, 'package.json')));

function fail(message) {
  process.stderr.write(`npm ${process.argv.slice(2).join(' ')}: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
let target = rootPackage;
const plain = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-w' || args[i] === '--workspace') {
    const name = args[++i];
    target = workspaces.find((w) => w.name === name) ?? fail(`no workspace named ${name}`);
  } else if (args[i] === '--') break;
  else plain.push(args[i]);
}
const [command, ...rest] = plain;
let what;
if (command === 'start' || command === 'test' || command === 'run') {
  const script = command === 'run' ? rest[0] : command;
  if (!script || !target.scripts?.[script]) fail(`${target.name} has no script "${script}"`);
  what = `script "${script}" of ${target.name}: ${target.scripts[script]}`;
} else if (command === 'ci') {
  if (!existsSync(join(root, 'package-lock.json'))) fail('no package-lock.json');
  what = 'package-lock.json exists';
} else if (command === 'install' || command === 'i') {
  const names = rest.filter((a) => !a.startsWith('-'));
  for (const name of names) {
    const found = workspaces.find((w) => w.name === name);
    if (!found || found.private) fail(`${name} is not a published package of this repository`);
  }
  what = names.length ? `${names.join(', ')}: packages of this repository` : 'package-lock.json exists';
} else fail('not a command the doc tests know how to check');
process.stdout.write(`checked, not run: npm ${args.join(' ')} (${what})\n`);
