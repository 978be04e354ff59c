/**
 * The element's files a hosted page serves are the ones its build's hosting manifest lists (the
 * classic script's form left out): nothing more from its directory, nothing it lists left out,
 * and an element built without a manifest (or with one that names a file not there) refused
 * with a message that says to build it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBrand } from '../src/hosted/brand.js';
import { BuildMissing, defaultElementDir, ELEMENT_BUNDLE, HostedAssets } from '../src/hosted/hosted-assets.js';
import { HOSTING_MANIFEST, moduleFormFiles } from '../src/hosted/element-manifest.js';

function elementDir(files: Record<string, string>, manifest?: { file: string; kind: string }[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'okit-element-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  if (manifest) writeFileSync(join(dir, HOSTING_MANIFEST), JSON.stringify({ about: '', scripts: {}, files: manifest }));
  return dir;
}

const buildMissing =
  (...parts: string[]) =>
  (e: Error) =>
    e instanceof BuildMissing && parts.every((p) => e.message.includes(p));

test("the files served are the manifest's, less the classic script: a listed chunk with any name in, an unlisted file out", () => {
  const dir = elementDir(
    {
      [ELEMENT_BUNDLE]: 'export {}',
      'onboarding-flow.iife.js': '(()=>{})()',
      'face-model-abc123.js': 'export const m = 1',
      'onboarding-flow.stray.js': 'export {}',
    },
    [
      { file: ELEMENT_BUNDLE, kind: 'module script' },
      { file: 'onboarding-flow.iife.js', kind: 'classic script' },
      { file: 'face-model-abc123.js', kind: 'module' },
    ],
  );
  try {
    const assets = new HostedAssets(loadBrand({}), dir);
    assert.deepEqual([...assets.element().files.keys()].sort(), ['face-model-abc123.js', ELEMENT_BUNDLE].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an element built without its manifest is refused, naming the manifest and saying to build', () => {
  const dir = elementDir({ [ELEMENT_BUNDLE]: 'export {}', 'onboarding-flow.pipeline.js': 'export {}' });
  try {
    assert.throws(() => new HostedAssets(loadBrand({}), dir).element(), buildMissing(HOSTING_MANIFEST, dir, 'npm run build'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a manifest naming a file the directory lacks, or not naming the bundle, is refused with what to do', () => {
  const lacking = elementDir({ [ELEMENT_BUNDLE]: 'export {}' }, [
    { file: ELEMENT_BUNDLE, kind: 'module script' },
    { file: 'onboarding-flow.pipeline.js', kind: 'module' },
  ]);
  const noBundle = elementDir({ 'onboarding-flow.pipeline.js': 'export {}' }, [{ file: 'onboarding-flow.pipeline.js', kind: 'module' }]);
  try {
    assert.throws(() => new HostedAssets(loadBrand({}), lacking).element(), buildMissing('onboarding-flow.pipeline.js', 'npm run build'));
    assert.throws(() => new HostedAssets(loadBrand({}), noBundle).element(), buildMissing(ELEMENT_BUNDLE, 'npm run build'));
  } finally {
    rmSync(lacking, { recursive: true, force: true });
    rmSync(noBundle, { recursive: true, force: true });
  }
});

test('a manifest entry that is not a plain file name (a path out of the directory) is not a manifest', () => {
  assert.equal(moduleFormFiles({ files: [{ file: '../secret.js', kind: 'module' }] }), null);
  assert.equal(moduleFormFiles({ files: [{ file: 'a.js' }] }), null);
  assert.equal(moduleFormFiles({}), null);
  assert.deepEqual(
    moduleFormFiles({
      files: [
        { file: 'a.js', kind: 'worker' },
        { file: 'b.js', kind: 'classic script' },
      ],
    }),
    ['a.js'],
  );
});

test("the element's own build: every file its manifest lists for the module form is served", () => {
  const dir = defaultElementDir();
  assert.ok(dir, 'the element is installed');
  const manifest = JSON.parse(readFileSync(join(dir, HOSTING_MANIFEST), 'utf8')) as { files: { file: string; kind: string }[] };
  const expected = manifest.files.filter((f) => f.kind !== 'classic script').map((f) => f.file);
  assert.ok(expected.length >= 9, expected.join(', '));
  assert.deepEqual([...new HostedAssets(loadBrand({}), dir).element().files.keys()].sort(), expected.sort());
});
