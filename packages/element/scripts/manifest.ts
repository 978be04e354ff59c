/**
 * Generates custom-elements.json from the element's JSDoc (`@event`, `@slot`, `@csspart`,
 * `@cssproperty`) and its Lit properties, with @custom-elements-manifest/analyzer in Lit mode.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const MANIFEST_FILE = 'custom-elements.json';

/** Writes `custom-elements.json` into outDir (default: the package root, as package.json names it). */
export async function generateManifest(outDir: string = PACKAGE_DIR): Promise<string> {
  const cli = resolve(require.resolve('@custom-elements-manifest/analyzer/package.json'), '..', 'cem.js');
  // The analyzer joins --outdir onto the working directory, so it gets a relative path.
  const args = [cli, 'analyze', '--config', 'scripts/cem.config.mjs', '--quiet', '--outdir', relative(PACKAGE_DIR, outDir) || '.'];
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: PACKAGE_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`custom-elements-manifest analyzer exited with ${code}`))));
  });
  return resolve(outDir, MANIFEST_FILE);
}
