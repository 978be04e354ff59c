/**
 * The hosted pages' script (src/hosted/page/, browser code) built for the browser:
 * `dist/page/hosted-page.js`, one minified ES module with everything it imports inlined. The
 * companion reads it at creation and serves it from memory under the content hash of the page's
 * files (src/hosted/hosted-assets.ts). `npm run build` runs it after the server's own `tsc`.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { PAGE_SCRIPT_DIR, PAGE_SCRIPT_FILE, PAGE_SCRIPT_SOURCE } from './src/hosted/page-script-file.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  logLevel: 'warn',
  publicDir: false,
  // The contract resolves to its TypeScript source, as everywhere else in the repo.
  resolve: { conditions: ['source', 'module', 'browser', 'production', 'default'] },
  build: {
    outDir: here(`./${PAGE_SCRIPT_DIR}`),
    emptyOutDir: true,
    // The companion serves this one file and no map beside it.
    sourcemap: false,
    minify: true,
    // The pages load the element's bundle too, which needs ES2022.
    target: 'es2022',
    copyPublicDir: false,
    reportCompressedSize: false,
    lib: { entry: here(`./${PAGE_SCRIPT_SOURCE}`), formats: ['es'], fileName: () => PAGE_SCRIPT_FILE },
    rolldownOptions: { output: { minify: true, codeSplitting: false } },
  },
});
