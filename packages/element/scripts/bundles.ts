/**
 * Builds the JavaScript of the distribution (no type declarations, no custom elements manifest)
 * into a directory: the npm modules, the pipeline module, the image worker, both script-tag
 * bundles and hosting-manifest.json, the list of files a script-tag page serves. Used by
 * scripts/build.ts (into dist/) and by the size, script-tag and hosting tests (into a temp dir).
 */
import { mkdir } from 'node:fs/promises';
import { build } from 'vite';
import { distributionBuilds, livenessWorkerBuild, readerWorkerBuild, workerBuild } from '../vite.config.js';
import { writeHostingManifest } from './hosting-manifest.js';

export { SIZE_BUDGETS } from './size-budgets.js';

export async function buildBundles(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const config of distributionBuilds({ outDir })) await build(config);
  await writeHostingManifest(outDir);
}

/** The image worker alone, for a page built around the pipeline some other way (the bench). */
export async function buildImageWorker(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({ ...workerBuild({ outDir }), logLevel: 'error' });
}

/** The document reader's worker alone, beside a page built around the reader some other way (the bench). */
export async function buildReaderWorker(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({ ...readerWorkerBuild({ outDir }), logLevel: 'error' });
}

/** The liveness worker alone with its model's files, beside a page built around the challenge some other way (the bench). */
export async function buildLivenessWorker(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({ ...livenessWorkerBuild({ outDir }), logLevel: 'error' });
}
