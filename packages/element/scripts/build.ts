/**
 * `npm run build -w @onboarding-kit/element`: everything that is published, into dist/ (plus
 * custom-elements.json at the package root, where package.json points):
 * 1. the JavaScript (scripts/bundles.ts: npm modules, pipeline module, script-tag bundles and
 *    the image worker `onboarding-flow.image-worker.js`),
 * 2. type declarations (tsc, emitDeclarationOnly, into dist/types),
 * 3. the custom elements manifest.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildBundles } from './bundles.js';
import { generateManifest, PACKAGE_DIR } from './manifest.js';

const require = createRequire(import.meta.url);

function run(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: PACKAGE_DIR, stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

const dist = join(PACKAGE_DIR, 'dist');
await rm(dist, { recursive: true, force: true });
await buildBundles(dist);
await run([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
await generateManifest();
console.log('element: dist/ and custom-elements.json written');
