/**
 * Builds the JavaScript of the distribution (no type declarations, no manifest) into a
 * directory: the npm modules, the pipeline module, the image worker and both script-tag
 * bundles. Used by scripts/build.ts (into dist/) and by the size and script-tag tests (into a
 * temp dir).
 */
import { mkdir } from 'node:fs/promises';
import { build } from 'vite';
import { distributionBuilds, workerBuild } from '../vite.config.js';

export async function buildBundles(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const config of distributionBuilds({ outDir })) await build(config);
}

/** The image worker alone, for a page built around the pipeline some other way (the bench). */
export async function buildImageWorker(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({ ...workerBuild({ outDir }), logLevel: 'error' });
}
