/**
 * Library builds of `<onboarding-flow>` (run them all with `npm run build`, which calls
 * scripts/build.ts). Four Vite builds write into one flat directory (`dist/`), because the
 * lazily loaded files are found *next to* the module that loads them:
 *
 * - `npm`      dist/index.js (+ a lazy `pipeline-*.js` chunk): ES modules for bundlers, every
 *              dependency (lit, contract, browser-image-compression) left as an import.
 * - `pipeline` dist/onboarding-flow.pipeline.js: the image pipeline with browser-image-compression
 *              inlined, one self-contained ES module shared by both script-tag forms.
 * - `bundle`   dist/onboarding-flow.bundle.js: `<script type="module" src>`, lit inlined.
 * - `iife`     dist/onboarding-flow.iife.js: classic `<script src>`, lit inlined.
 *
 * In the two script-tag builds the element's `import('../image/pipeline.js')` is not bundled:
 * it becomes `import('./onboarding-flow.pipeline.js')`, which the browser resolves against the
 * URL of the script that contains it (a module's URL, or a classic script's URL: its base URL
 * per HTML), so the pipeline always comes from beside the script and never from the page's
 * directory or a CDN. An IIFE cannot code-split, but a classic script may `import()` a module.
 * The pipeline module finds `browser-image-compression.js` beside itself the same way
 * (src/image/lib-url.ts, `import.meta.url` of a real ES module).
 */
import { fileURLToPath } from 'node:url';
import { createLogger, defineConfig, type InlineConfig, type Plugin } from 'vite';

export const BUNDLE_FILE = 'onboarding-flow.bundle.js';
export const IIFE_FILE = 'onboarding-flow.iife.js';
export const PIPELINE_FILE = 'onboarding-flow.pipeline.js';
/** Loaded by the compression worker with importScripts (a UMD file, not a module). */
export const COMPRESSION_LIB_FILE = 'browser-image-compression.js';
/** The global the classic script assigns its exports to. */
export const IIFE_GLOBAL = 'OnboardingKit';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ENTRY = here('./src/index.ts');
/** `@onboarding-kit/element/event-names`: the event names alone, for pages that only listen. */
const EVENT_NAMES_ENTRY = here('./src/event-names.ts');
const PIPELINE_SOURCE = here('./src/image/pipeline.ts');

/** Everything in package.json `dependencies`, and their subpaths (`lit/decorators.js`). */
const NPM_EXTERNAL = [/^lit(\/|$)/, /^@lit\//, /^@onboarding-kit\/contract(\/|$)/, /^browser-image-compression(\/|$)/];

/**
 * Script-tag builds: the runtime import of the pipeline stays an import of the separately
 * built pipeline module beside the script. Type-only imports of pipeline.ts are erased before
 * resolution, so only the element's dynamic import reaches this hook.
 */
function pipelineBesideScript(): Plugin {
  return {
    name: 'onboarding-kit:pipeline-beside-script',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.includes('pipeline')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved?.id !== PIPELINE_SOURCE) return null;
      return { id: `./${PIPELINE_FILE}`, external: true };
    },
  };
}

/**
 * Vite warns that `new URL('./browser-image-compression.js', import.meta.url)` (lib-url.ts) has
 * no file at build time and stays as written: that is the intent (the build copies the file
 * beside the output afterwards), so that one warning is silenced and every other one kept.
 */
function buildLogger() {
  const logger = createLogger('warn');
  const expected = (message: string) =>
    message.includes('browser-image-compression.js", import.meta.url) doesn\'t exist at build time');
  const { warn, warnOnce } = logger;
  logger.warn = (message, options) => {
    if (!expected(message)) warn(message, options);
  };
  logger.warnOnce = (message, options) => {
    if (!expected(message)) warnOnce(message, options);
  };
  return logger;
}

/** browser-image-compression's fallback worker library URL (used only when no libURL is given). */
const CDN_DEFAULT_LIB_URL = /"https:\/\/cdn\.jsdelivr\.net\/npm\/browser-image-compression@[^"]*"/g;

/**
 * Removes browser-image-compression's public-CDN default libURL. The pipeline always passes
 * its self-hosted libURL, so the default is dead code; without it even a forgotten libURL
 * cannot make a browser fetch code from a CDN (the worker would fail and the library would
 * compress on the main thread instead). Throws when the library no longer has that default,
 * so an upgrade that moves it is noticed at build time.
 */
export function withoutCdnDefault(code: string, file: string): string {
  const replaced = code.replace(CDN_DEFAULT_LIB_URL, '""');
  if (replaced === code) throw new Error(`${file}: browser-image-compression's CDN default libURL was not found`);
  return replaced;
}

function compressionLibWithoutCdn(): Plugin {
  return {
    name: 'onboarding-kit:compression-lib-without-cdn',
    transform(code, id) {
      if (!/[\\/]browser-image-compression[\\/]dist[\\/]/.test(id)) return null;
      return { code: withoutCdnDefault(code, id), map: null };
    },
  };
}

interface Target {
  /** Output directory (flat: every lazy file sits beside the module that loads it). */
  outDir: string;
}

const common = ({ outDir }: Target): InlineConfig => ({
  configFile: false,
  root: here('.'),
  logLevel: 'warn',
  customLogger: buildLogger(),
  publicDir: false,
  // Resolve the workspace's own packages (contract) to their TypeScript source.
  resolve: { conditions: ['source', 'module', 'browser', 'production', 'default'] },
  build: {
    outDir,
    emptyOutDir: false,
    sourcemap: true,
    // Lit and the element use ES2022 (class fields, private methods); every browser with
    // getUserMedia + custom elements v1 + adoptedStyleSheets that we support has it.
    target: 'es2022',
    copyPublicDir: false,
    reportCompressedSize: false,
  },
});

/** The ES modules published to npm: dist/index.js and dist/event-names.js, dependencies external, not minified. */
export function npmBuild(target: Target): InlineConfig {
  const base = common(target);
  return {
    ...base,
    build: {
      ...base.build,
      minify: false,
      lib: { entry: { index: ENTRY, 'event-names': EVENT_NAMES_ENTRY }, formats: ['es'] },
      rolldownOptions: {
        external: NPM_EXTERNAL,
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  };
}

/** The lazily loaded pipeline for both script-tag forms, self-contained, minified. */
export function pipelineBuild(target: Target): InlineConfig {
  const base = common(target);
  return {
    ...base,
    plugins: [compressionLibWithoutCdn()],
    build: {
      ...base.build,
      minify: true,
      lib: { entry: PIPELINE_SOURCE, formats: ['es'], fileName: () => PIPELINE_FILE },
      // One file: browser-image-compression (imported lazily by the pipeline) is inlined, so
      // a page hosts a fixed set of files with no hashed names.
      rolldownOptions: { output: { minify: true, codeSplitting: false } },
    },
  };
}

/** `<script type="module" src>`: one ES module, lit inlined, the pipeline beside it. */
export function bundleBuild(target: Target): InlineConfig {
  const base = common(target);
  return {
    ...base,
    plugins: [pipelineBesideScript()],
    build: {
      ...base.build,
      minify: true,
      lib: { entry: ENTRY, formats: ['es'], fileName: () => BUNDLE_FILE },
      rolldownOptions: { output: { minify: true } },
    },
  };
}

/** Classic `<script src>`: lit inlined, exports on `window.OnboardingKit`, the pipeline beside it. */
export function iifeBuild(target: Target): InlineConfig {
  const base = common(target);
  return {
    ...base,
    plugins: [pipelineBesideScript()],
    build: {
      ...base.build,
      minify: true,
      lib: { entry: ENTRY, formats: ['iife'], name: IIFE_GLOBAL, fileName: () => IIFE_FILE },
      rolldownOptions: { output: { minify: true } },
    },
  };
}

/** Every build of the distribution, in the order scripts/build.ts runs them. */
export function distributionBuilds(target: Target): InlineConfig[] {
  return [npmBuild(target), pipelineBuild(target), bundleBuild(target), iifeBuild(target)];
}

// `vite build` on its own gives the npm modules; `npm run build` gives everything.
export default defineConfig(npmBuild({ outDir: here('./dist') }));
