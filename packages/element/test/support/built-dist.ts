/**
 * A fresh build of the distribution's JavaScript in a private temp dir, so a test never
 * measures a stale dist/ and parallel test files never share files.
 */
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundles } from '../../scripts/bundles.js';
import { HOSTING_MANIFEST_FILE, type HostingManifest } from '../../scripts/hosting-manifest.js';

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

/**
 * A directory holding only the files dist/hosting-manifest.json lists (less `leftOut`), as a page
 * that follows the manifest hosts them: what a script-tag page serves, and nothing more.
 */
export async function hostedFromManifest(
  dist: BuiltDist,
  leftOut: readonly string[] = [],
): Promise<{ dir: string; remove(): Promise<void> }> {
  const manifest = JSON.parse(await dist.read(HOSTING_MANIFEST_FILE)) as HostingManifest;
  const dir = await mkdtemp(join(tmpdir(), 'onboarding-hosted-'));
  for (const { file } of manifest.files) if (!leftOut.includes(file)) await copyFile(join(dist.dir, file), join(dir, file));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
