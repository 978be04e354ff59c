/**
 * The "stands on its own" lint (scripts/check-standalone.ts) on a scratch git repository: every
 * kind of outside reference planted there is found with its file and line, a clean repository
 * passes, and so does this one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchors, checkStandalone, slug } from '../../scripts/check-standalone.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(repoRoot, 'scripts', 'check-standalone.ts');

// Built from pieces, so that this file itself holds none of what the lint forbids.
const UP = '..' + '/';
const DOCS = 'docs' + '/';
const MD = '.' + 'md';
const PLANTED: [string, string][] = [
  ['the reference folder', `import x from '${UP}${UP}shared/notes.js';`],
  ['the design document', `// see ${'DES' + 'IGN'}.md, "Layout"`],
  ['a design rule', `// ${'design'} rule ${3}: renew once`],
  ['the toolchain notes', `// the flags of ${'TOOL' + 'CHAIN'}.md`],
  ['the team instructions', `/** the documented identities (team ${'bri' + 'ef'}) */`],
  ['a dotted section number', `/** Body of the creation (${'sp' + 'ec'} 2.4). */`],
  ['a spec section', `// ${'sp' + 'ec'} section 7: errors`],
  ['a section sign', `// see ${'sp' + 'ec'} \u00a76`],
  ['a bare section sign', `// as \u00a7 4 says`],
  ['a machine path', `const fixture = '${'/wo' + 'rk'}/main/demo';`],
  ['a root home', `cd ${'/ro' + 'ot'}/project`],
  ['a user home', `open ${'/ho' + 'me'}/alice/notes.txt`],
  ['a Windows home', `C:${'\\'}Users${'\\'}alice${'\\'}kit`],
];

function scratchRepo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'okit-standalone-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  return dir;
}

const DOC = '# Upstream\n\n## Webhooks\n\n```md\n## Not a heading\n```\n\n## Rules the kit honours\n\n1. one\n2. two\n';
const clean = {
  'docs/upstream-api.md': DOC,
  'src/hook.ts': '// Verified first (docs/upstream-api.md#webhooks; docs/upstream-api.md, rule 2).\nexport const spec = { brevity: 1 };\n',
  'README.md': 'See [webhooks](docs/upstream-api.md#webhooks) and [here](#readme).\n\n## Readme\n',
};

function run(root: string) {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script, root], { encoding: 'utf8' });
}

test('a clean repository passes, through the command line too', () => {
  const dir = scratchRepo(clean);
  try {
    assert.deepEqual(checkStandalone(dir), []);
    const r = run(dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /standalone ok/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every kind of outside reference is found, with its file and line', () => {
  const lines = PLANTED.map(([, line]) => line);
  const dir = scratchRepo({ ...clean, 'src/planted.ts': ['// first line is fine', ...lines].join('\n') + '\n' });
  try {
    const findings = checkStandalone(dir).filter((f) => f.file === 'src/planted.ts');
    PLANTED.forEach(([what], i) => {
      assert.ok(
        findings.some((f) => f.line === i + 2),
        `${what} (line ${i + 2}) is found: ${JSON.stringify(findings)}`,
      );
    });
    assert.ok(!findings.some((f) => f.line === 1));

    const r = run(dir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^src\/planted\.ts:2: /m);
    assert.match(r.stderr, new RegExp(`^src/planted\\.ts:${PLANTED.length + 1}: `, 'm'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("what git tracks is checked, staged files included; untracked output, the lockfile and the lint's own list are not", () => {
  const lock = `{"resolved": "file:${'/ro' + 'ot'}/x"}\n`;
  const list = `const words = [/${'bri' + 'ef'}/];\n`;
  const dir = scratchRepo({
    ...clean,
    'package-lock.json': lock,
    'scripts/check-standalone.ts': list,
    'copy/sandbox-1/package-lock.json': lock,
    'copy/sandbox-1/scripts/check-standalone.ts': list,
  });
  try {
    writeFileSync(join(dir, `new${MD}`), `Notes from the ${'bri' + 'ef'}.\n`);
    assert.deepEqual(checkStandalone(dir), [], 'untracked output (a report, a tool sandbox) is not the repository');
    execFileSync('git', ['add', `new${MD}`], { cwd: dir });
    assert.deepEqual(
      checkStandalone(dir).map((f) => `${f.file}:${f.line}`),
      [`new${MD}:1`],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('citations of docs must name a heading, a rule and a file that exist', () => {
  const dir = scratchRepo({
    ...clean,
    'src/cites.ts': [
      `// (${DOCS}upstream-api${MD}#webhook) misses the s`,
      `// (${DOCS}upstream-api${MD}#not-a-heading) is inside a code fence`,
      `// ${DOCS}upstream-api${MD}, rule 3 is one too many`,
      `// ${DOCS}missing${MD}#anything`,
    ].join('\n'),
    [`${DOCS}other${MD}`]: `# Other\n\n[up](upstream-api${MD}#webhooks) [bad](upstream-api${MD}#hooks) [self](#other) [nope](#none)\n`,
  });
  try {
    const found = checkStandalone(dir).map((f) => `${f.file}:${f.line}`);
    const other = `${DOCS}other${MD}:3`;
    assert.deepEqual(found.sort(), [other, other, 'src/cites.ts:1', 'src/cites.ts:2', 'src/cites.ts:3', 'src/cites.ts:4'].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every *.md a file names is one the repository ships, read from the file's folder up to the root", () => {
  const dir = scratchRepo({
    ...clean,
    [`packages/kit/README${MD}`]: '# Kit\n',
    [`packages/kit/NOTES${MD}`]: '# Notes\n',
    [`packages/kit/test/fixtures/README${MD}`]: '# Fixtures\n',
    'packages/kit/src/deep/names.ts': [
      `// the package's README${MD}, its ./../../NOTES${MD}, its test/fixtures/README${MD}`,
      `// from the root: packages/kit/NOTES${MD}, the root's README${MD}; any *${MD} in a glob`,
      `// https://example.org/guide/FINDINGS${MD} is a URL, not a file of the repository`,
      `// see FINDINGS${MD}`,
      `// the fixtures' src/fixtures/README${MD} is read from the wrong folder`,
      `// ../../../../../outside${MD} leaves the repository`,
      `// LOCAL${MD} exists only on this machine`,
    ].join('\n'),
  });
  try {
    writeFileSync(join(dir, 'packages/kit/src/deep', `LOCAL${MD}`), '# Local\n');
    const found = checkStandalone(dir).map((f) => `${f.file}:${f.line}: ${f.problem}`);
    assert.deepEqual(
      found,
      [4, 5, 6, 7].map(
        (line) =>
          `packages/kit/src/deep/names.ts:${line}: names ${['FINDINGS', 'src/fixtures/README', '../../../../../outside', 'LOCAL'][line - 4]}${MD}, which the repository does not ship`,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('anchors are GitHub slugs, duplicates numbered', () => {
  assert.equal(slug('Configuration of `npm start`'), 'configuration-of-npm-start');
  assert.equal(slug('All options of `createCompanion`'), 'all-options-of-createcompanion');
  assert.equal(slug('React (18 and 19)'), 'react-18-and-19');
  assert.equal(slug('The page <-> companion contract'), 'the-page---companion-contract');
  assert.equal(slug('Where the upstream says "not shown"'), 'where-the-upstream-says-not-shown');
  assert.deepEqual([...anchors('# A\n## Notes\n### Notes\n')], ['a', 'notes', 'notes-1']);
});

test('this repository stands on its own', () => {
  const r = run(repoRoot);
  assert.equal(r.status, 0, r.stderr);
});
