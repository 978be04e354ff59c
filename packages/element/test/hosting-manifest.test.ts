/**
 * dist/hosting-manifest.json, written by the build: it lists exactly the files the script-tag
 * bundles can ask for from beside themselves (read from the built JavaScript: every `./file`
 * string a hosted file holds, followed from both scripts), each with its true size and
 * Subresource Integrity hash.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FILE, IIFE_FILE } from '../vite.config.js';
import { HOSTING_MANIFEST_FILE, type HostingManifest } from '../scripts/hosting-manifest.js';
import { HOSTING_MANIFEST } from '../src/lazy/load-failure.js';
import { buildDistIntoTemp, type BuiltDist } from './support/built-dist.js';

let dist: BuiltDist;
let manifest: HostingManifest;
before(async () => {
  dist = await buildDistIntoTemp();
  manifest = JSON.parse(await dist.read(HOSTING_MANIFEST_FILE)) as HostingManifest;
});
after(() => dist?.remove());

/** Every sibling file a built file names as a relative URL (`import("./x.js")`, `new URL("./x.js", import.meta.url)`). */
const SIBLING = /["'`]\.\/([\w.-]+)["'`]/g;
/** TensorFlow.js's default name for the weights it saves, in the liveness worker: never fetched (the worker names its own). */
const NEVER_FETCHED = new Set(['model.weights.bin']);

async function reachableFrom(entries: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await dist.read(file);
    for (const [, name] of code.matchAll(SIBLING)) if (!NEVER_FETCHED.has(name!)) queue.push(name!);
  }
  return seen;
}

test('the element names the manifest the build writes', () => {
  assert.equal(HOSTING_MANIFEST, HOSTING_MANIFEST_FILE);
  assert.ok(dist.files.includes(HOSTING_MANIFEST_FILE));
});

test('the manifest lists exactly the files both script-tag forms can ask for', async () => {
  const listed = manifest.files.map((f) => f.file).sort();
  assert.equal(new Set(listed).size, listed.length, 'each file once');
  assert.deepEqual(manifest.scripts, { module: BUNDLE_FILE, classic: IIFE_FILE });
  const reachable = [...(await reachableFrom([BUNDLE_FILE, IIFE_FILE]))].sort();
  assert.deepEqual(listed, reachable);
  // Every lazily loaded file, not only the scripts: the walk found what the scripts fetch.
  assert.ok(reachable.length > 2, reachable.join());
});

test('each listed file with its size and integrity hash', async () => {
  for (const entry of manifest.files) {
    const bytes = await readFile(join(dist.dir, entry.file));
    assert.equal(entry.bytes, bytes.length, entry.file);
    assert.equal(entry.integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`, entry.file);
    assert.ok(entry.loaded.length > 0 && entry.kind.length > 0, entry.file);
  }
});
