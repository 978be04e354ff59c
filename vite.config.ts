/**
 * The hosted demo (root `demo/`): dev server (`npx vite`) and static multi-page build
 * (`vite build`, run by `npm run build` after the workspaces) of three pages:
 *   /        index.html        the element by script tag, settings, event log, test identities
 *   /react   react/index.html  a small React app with @onboarding-kit/react
 *   /vue     vue/index.html    a small Vue app using the custom element directly
 * Library builds live in each package. The capture page loads the element's own built bundle
 * (`/element/onboarding-flow.bundle.js`): the build copies the element's script-tag files into
 * `dist/element/`, so the output is self-contained; in dev the same URL serves the element's
 * TypeScript source. `npm start` serves the build (demo/demo-routes.ts) with a strict CSP.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { createLogger, defaultClientConditions, defineConfig, type LogLevel, type Plugin, type UserConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The URL prefix under which the element's bundles are served, in dev and in the build. */
export const ELEMENT_PREFIX = '/element/';
const BUNDLE_FILE = 'onboarding-flow.bundle.js';
/** The element's image worker, started from beside the pipeline module (src/image/worker-url.ts). */
const IMAGE_WORKER_FILE = 'onboarding-flow.image-worker.js';
/** The element's document reader worker, started from beside the photo steps (src/reader/reader-url.ts). */
const READER_WORKER_FILE = 'onboarding-flow.reader-worker.js';
/** Each worker script, and its source in dev. */
const WORKERS: Record<string, string> = {
  [IMAGE_WORKER_FILE]: './packages/element/src/image/image-worker.ts',
  [READER_WORKER_FILE]: './packages/element/src/reader/reader-worker.ts',
  'onboarding-flow.liveness-worker.js': './packages/element/src/liveness/liveness-worker.ts',
};
/** Content types of the files beside the script that are no script (the liveness worker's model and WASM). */
const DATA_FILE_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.bin': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/**
 * The files beside the element's script that are not its scripts (the liveness worker's model and
 * WASM), as the element's build lists them in its hosting manifest; none before it is built.
 */
function dataFilesIn(elementDist: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(join(elementDist, 'hosting-manifest.json'), 'utf8')) as { files: { file: string }[] };
    return manifest.files.map((f) => f.file).filter((file) => !SCRIPT_TAG_FILE.test(file));
  } catch {
    return [];
  }
}
/** The files a script-tag page loads (not the npm modules, whose imports are bare specifiers). */
const SCRIPT_TAG_FILE = /^onboarding-flow\.[\w.-]+(\.map)?$/;

export interface DemoBuildOptions {
  /** The element's built script-tag files (default packages/element/dist, from `npm run build`). */
  elementDist?: string;
  /** Where the demo is written (default demo/dist). */
  outDir?: string;
  /** Where `npx vite` proxies /v1 and /sandbox (default http://127.0.0.1:8787, `npm start`). */
  companionUrl?: string;
  logLevel?: LogLevel;
}

/** Dev server: `/element/onboarding-flow.bundle.js` is the element's source; any `.../onboarding-flow.image-worker.js` (or reader worker) a module importing the worker's source. */
function elementFromSource(elementDist: string): Plugin {
  const elementSource = here('./packages/element/src/index.ts');
  return {
    name: 'onboarding-kit:demo-element-source',
    apply: 'serve',
    resolveId(id) {
      return id === `${ELEMENT_PREFIX}${BUNDLE_FILE}` ? elementSource : null;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        // The liveness worker's model and WASM come from the element's build (without it the challenge says `unavailable`).
        const dataFile = dataFilesIn(elementDist).find((name) => path.endsWith(`/${name}`));
        if (dataFile) {
          res.setHeader('Content-Type', DATA_FILE_TYPES[extname(dataFile)] ?? 'application/octet-stream');
          res.end(readFileSync(join(elementDist, dataFile)));
          return;
        }
        const file = Object.keys(WORKERS).find((name) => path.endsWith(`/${name}`));
        if (!file) return next();
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
        res.end(`import ${JSON.stringify(`/@fs${here(WORKERS[file]!)}`)};\n`);
      });
    },
  };
}

/**
 * Build: copies the element's script-tag files into `element/` of the output, and emits the
 * element's workers beside the React/Vue chunks too (the element finds it beside the
 * module that loads it, src/image/worker-url.ts).
 */
function elementBundles(elementDist: string): Plugin {
  return {
    name: 'onboarding-kit:demo-element-bundles',
    apply: 'build',
    generateBundle() {
      let files: string[];
      try {
        files = readdirSync(elementDist).filter((f) => SCRIPT_TAG_FILE.test(f) && statSync(join(elementDist, f)).isFile());
      } catch {
        files = [];
      }
      if (!files.includes(BUNDLE_FILE)) {
        this.error(
          `the element's bundle is missing from ${elementDist}: build the element first (npm run build -w @onboarding-kit/element, or npm run build)`,
        );
      }
      for (const file of files) {
        this.emitFile({ type: 'asset', fileName: `element/${file}`, source: readFileSync(join(elementDist, file)) });
      }
      const dataFiles = dataFilesIn(elementDist);
      for (const worker of [...Object.keys(WORKERS), ...dataFiles]) {
        if (!existsSync(join(elementDist, worker)))
          this.error(`the element's ${worker} is missing from ${elementDist}: build the element first`);
        const source = readFileSync(join(elementDist, worker));
        this.emitFile({ type: 'asset', fileName: `assets/${worker}`, source });
        // Beside the script too: the data files are not named onboarding-flow.*.
        if (dataFiles.includes(worker)) this.emitFile({ type: 'asset', fileName: `element/${worker}`, source });
      }
    },
  };
}

/**
 * Vite's logger, less one expected warning: the element locates its image worker with
 * `new URL('./onboarding-flow.image-worker.js', import.meta.url)` at run time, and the build puts
 * the file there (elementBundles), so "doesn't exist at build time" is by design.
 */
function demoLogger(level: LogLevel) {
  const logger = createLogger(level);
  const warnOnce = logger.warnOnce.bind(logger);
  logger.warnOnce = (message, options) => {
    if (!Object.keys(WORKERS).some((file) => message.includes(`./${file}`))) warnOnce(message, options);
  };
  return logger;
}

export function demoConfig(options: DemoBuildOptions = {}): UserConfig {
  const companionUrl = options.companionUrl ?? process.env.DEMO_COMPANION_URL ?? 'http://127.0.0.1:8787';
  return {
    root: here('./demo'),
    publicDir: false,
    customLogger: demoLogger(options.logLevel ?? 'info'),
    // Workspace packages resolve to their TypeScript source, as everywhere else in the repo.
    resolve: { conditions: ['source', ...defaultClientConditions] },
    plugins: [
      react(),
      vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'onboarding-flow' } } }),
      elementFromSource(options.elementDist ?? here('./packages/element/dist')),
      elementBundles(options.elementDist ?? here('./packages/element/dist')),
    ],
    server: {
      proxy: { '/v1': companionUrl, '/sandbox': companionUrl, '/demo': companionUrl },
    },
    build: {
      outDir: options.outDir ?? here('./demo/dist'),
      emptyOutDir: true,
      sourcemap: true,
      target: 'es2022',
      reportCompressedSize: false,
      rolldownOptions: {
        input: {
          index: here('./demo/index.html'),
          react: here('./demo/react/index.html'),
          vue: here('./demo/vue/index.html'),
        },
      },
    },
  };
}

export default defineConfig(demoConfig());
