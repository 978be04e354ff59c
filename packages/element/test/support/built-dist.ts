/**
 * A fresh build of the distribution's JavaScript in a private temp dir, so a test never
 * measures a stale dist/ and parallel test files never share files.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundles } from '../../scripts/bundles.js';

export interface BuiltDist {
  dir: string;
  files: string[];
  read(file: string): Promise<string>;
  remove(): Promise<void>;
}

export async function buildDistIntoTemp(): Promise<BuiltDist> {
  const dir = await mkdtemp(join(tmpdir(), 'onboarding-element-dist-'));
  await buildBundles(dir);
  return {
    dir,
    files: (await readdir(dir)).sort(),
    read: (file) => readFile(join(dir, file), 'utf8'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
