/**
 * Builds the JavaScript of the distribution (no type declarations, no manifest) into a
 * directory: the npm modules, the pipeline module, both script-tag bundles, and the
 * self-hosted copy of browser-image-compression the compression worker loads. Used by
 * scripts/build.ts (into dist/) and by the size and script-tag tests (into a temp dir).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'vite';
import { COMPRESSION_LIB_FILE, distributionBuilds, withoutCdnDefault } from '../vite.config.js';

const require = createRequire(import.meta.url);

/** The UMD build: what the library's worker expects at `libURL` (it calls importScripts on it). */
export function compressionLibSource(): string {
  return join(require.resolve('browser-image-compression/package.json'), '..', 'dist', 'browser-image-compression.js');
}

export async function buildBundles(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const config of distributionBuilds({ outDir })) await build(config);
  // A copy of the library's UMD file, minus its public-CDN default (see withoutCdnDefault) and
  // the link to a source map that is not copied.
  const source = compressionLibSource();
  const code = withoutCdnDefault(await readFile(source, 'utf8'), source).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  await writeFile(join(outDir, COMPRESSION_LIB_FILE), code);
}
