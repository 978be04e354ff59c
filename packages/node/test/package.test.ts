/**
 * The package installs alone: no dependency, no `node:` module and no other package in its
 * shipped code (only the global fetch and Web Crypto), a `source` condition like the workspace's
 * other packages, and the version it announces in `User-Agent` is its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SDK_VERSION } from '../src/version.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: object;
  peerDependencies?: object;
  exports: Record<string, Record<string, string>>;
};

test('no runtime dependency; exports with the source condition; the version it announces', () => {
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.peerDependencies, undefined);
  assert.deepEqual(pkg.exports['.'], { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' });
  assert.equal(SDK_VERSION, pkg.version);
});

test('the shipped code imports only its own files', () => {
  const dir = join(root, 'src');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 3);
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g)) {
      const specifier = m[1] ?? m[2]!;
      assert.ok(specifier.startsWith('./') || specifier.startsWith('../'), `${file} imports ${specifier}`);
    }
  }
});
