/**
 * A bench page: its `bench/<name>-page/entry.ts` built with Vite into one minified ES module
 * (`file`) in `dir`, the workspace's packages from their source, and an index.html that loads it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'vite';
import { REPO_ROOT } from './paths.js';

export async function buildBenchPage(dir: string, name: string, file: string): Promise<void> {
  await build({
    configFile: false,
    root: REPO_ROOT,
    logLevel: 'error',
    publicDir: false,
    resolve: { conditions: ['source', 'module', 'browser', 'production', 'default'] },
    build: {
      outDir: dir,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      reportCompressedSize: false,
      lib: { entry: join(REPO_ROOT, 'bench', `${name}-page`, 'entry.ts'), formats: ['es'], fileName: () => file },
      rolldownOptions: { output: { codeSplitting: false, minify: true } },
    },
  });
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>${name} bench</title><script type="module" src="./${file}"></script>`,
  );
}
