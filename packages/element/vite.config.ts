/**
 * Library builds of `<onboarding-flow>` (run them all with `npm run build`, which calls
 * scripts/build.ts). Five Vite builds write into one flat directory (`dist/`), because the
 * lazily loaded files are found *next to* the module that loads them:
 *
 * - `npm`      dist/index.js (+ lazy chunks: `photo-steps-*.js`, `pipeline-*.js`, ...): ES modules for bundlers, every
 *              dependency (lit, contract) left as an import.
 * - `pipeline` dist/onboarding-flow.pipeline.js: the image pipeline, one self-contained ES
 *              module shared by both script-tag forms.
 * - `after-send` dist/onboarding-flow.after-send.js: the waiting and outcome texts, loaded the
 *              same way once the person nears sending.
 * - `photo-steps` dist/onboarding-flow.photo-steps.js: everything after the data steps (capture
 *              steps with the camera, review, upload, wait, outcome, and the companion client
 *              that sends and follows), fetched while the person fills in the consent and data.
 *              It holds no Lit and no event class of its own: the element hands its own in
 *              (src/onboarding-flow/lazy-kit.ts).
 * - `handoff`  dist/onboarding-flow.handoff.js: the hand-off panel (QR code, short code, the
 *              phone's progress) with its QR encoder, loaded when the person asks for it.
 * - `worker`   dist/onboarding-flow.image-worker.js: the image worker (decode, checks, encode,
 *              browser-image-compression inlined), self-contained, started by every form's
 *              pipeline from beside itself.
 * - `reader-worker` dist/onboarding-flow.reader-worker.js: the document reader's worker (QR decoder
 *              and MRZ reader inlined), self-contained, started by the photo steps from beside
 *              themselves while the person fills in the data steps.
 * - `liveness-worker` dist/onboarding-flow.liveness-worker.js: the selfie's face check and the
 *              liveness challenge's face model (face-api with TensorFlow.js inlined), its model
 *              files and TensorFlow.js's `.wasm` beside it, started during the document steps.
 * - `bundle`   dist/onboarding-flow.bundle.js: `<script type="module" src>`, lit inlined.
 * - `iife`     dist/onboarding-flow.iife.js: classic `<script src>`, lit inlined.
 *
 * In the two script-tag builds the element's `import('../image/pipeline.js')` is not bundled:
 * it becomes `import('./onboarding-flow.pipeline.js')`, which the browser resolves against the
 * URL of the script that contains it (a module's URL, or a classic script's URL: its base URL
 * per HTML), so the pipeline always comes from beside the script and never from the page's
 * directory or a CDN. An IIFE cannot code-split, but a classic script may `import()` a module.
 * The pipeline module finds `onboarding-flow.image-worker.js` beside itself the same way
 * (src/image/worker-url.ts, `import.meta.url` of a real ES module).
 */
import { readFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, defineConfig, type InlineConfig, type Plugin } from 'vite';
import { templateWhitespace } from './scripts/template-whitespace.js';
import { LIVENESS_FILES } from './src/liveness/model-files.js';

export const BUNDLE_FILE = 'onboarding-flow.bundle.js';
export const IIFE_FILE = 'onboarding-flow.iife.js';
export const PIPELINE_FILE = 'onboarding-flow.pipeline.js';
/** The waiting and outcome texts (src/messages/after-send.ts), beside the script-tag bundles. */
export const AFTER_SEND_FILE = 'onboarding-flow.after-send.js';
/** The full consent text behind "Ler detalhes" (src/messages/consent-text.ts), beside the script-tag bundles. */
export const CONSENT_TEXT_FILE = 'onboarding-flow.consent-text.js';
/** The full-screen capture view with its live guidance (src/capture-view/capture-view.ts), fetched ahead on a capture step. */
export const CAPTURE_VIEW_FILE = 'onboarding-flow.capture-view.js';
/** Everything after the data steps (src/onboarding-flow/photo-steps.ts), fetched while the person fills in the consent and data. */
export const PHOTO_STEPS_FILE = 'onboarding-flow.photo-steps.js';
/** The hand-off to a phone (src/handoff/handoff-panel.ts, with uqr), loaded when it is asked for or followed. */
export const HANDOFF_FILE = 'onboarding-flow.handoff.js';
/** The image worker script (src/image/worker-url.ts names the same file). */
export const IMAGE_WORKER_FILE = 'onboarding-flow.image-worker.js';
/** The document reader's worker script (src/reader/reader-url.ts names the same file). */
export const READER_WORKER_FILE = 'onboarding-flow.reader-worker.js';
/** The liveness challenge's worker script (src/liveness/liveness-url.ts names the same file). */
export const LIVENESS_WORKER_FILE = 'onboarding-flow.liveness-worker.js';
/** The global the classic script assigns its exports to. */
export const IIFE_GLOBAL = 'OnboardingKit';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ENTRY = here('./src/index.ts');
/** `@onboarding-kit/element/event-names`: the event names alone, for pages that only listen. */
const EVENT_NAMES_ENTRY = here('./src/event-names.ts');
const PIPELINE_SOURCE = here('./src/image/pipeline.ts');
const AFTER_SEND_SOURCE = here('./src/messages/after-send.ts');
const CONSENT_TEXT_SOURCE = here('./src/messages/consent-text.ts');
const CAPTURE_VIEW_SOURCE = here('./src/capture-view/capture-view.ts');
const FACE_MODEL_SOURCE = here('./src/face/frontal-face-cascade.ts');
const HANDOFF_SOURCE = here('./src/handoff/handoff-panel.ts');
const PHOTO_STEPS_SOURCE = here('./src/onboarding-flow/photo-steps.ts');
/** What the element hands to the photo steps: Lit, the `cssProperty` directive, the event classes and `CompanionError`. */
const LAZY_KIT_SOURCE = here('./src/onboarding-flow/lazy-kit.ts');
const KIT_PROVIDED_SOURCES = new Set([here('./src/events.ts'), here('./src/directives/css-property.ts'), here('./src/api/errors.ts')]);
/** Each lazily loaded source of the script-tag builds, and the file beside the script it becomes. */
const BESIDE_SCRIPT = new Map([
  [PIPELINE_SOURCE, PIPELINE_FILE],
  [AFTER_SEND_SOURCE, AFTER_SEND_FILE],
  [CONSENT_TEXT_SOURCE, CONSENT_TEXT_FILE],
  [CAPTURE_VIEW_SOURCE, CAPTURE_VIEW_FILE],
  [HANDOFF_SOURCE, HANDOFF_FILE],
  [PHOTO_STEPS_SOURCE, PHOTO_STEPS_FILE],
]);
/** The module names (without extension) of those sources: only imports naming one are resolved by the hook below. */
const BESIDE_SCRIPT_NAMES = [...BESIDE_SCRIPT.keys()].map((source) => source.replace(/^.*\/(.*)\.ts$/, '$1'));
const IMAGE_WORKER_SOURCE = here('./src/image/image-worker.ts');
const READER_WORKER_SOURCE = here('./src/reader/reader-worker.ts');
const LIVENESS_WORKER_SOURCE = here('./src/liveness/liveness-worker.ts');

/** Everything in package.json `dependencies`, and their subpaths (`lit/decorators.js`). */
const NPM_EXTERNAL = [/^lit(\/|$)/, /^@lit\//, /^@onboarding-kit\/contract(\/|$)/];

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
      if (!importer || !BESIDE_SCRIPT_NAMES.some((name) => source.includes(name))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const file = resolved ? BESIDE_SCRIPT.get(resolved.id) : undefined;
      return file ? { id: `./${file}`, external: true } : null;
    },
  };
}

/**
 * The photo steps' script-tag build: `lit` (every entry point the lazy sources use), the
 * `cssProperty` directive, the event classes and `CompanionError` resolve to lazy-kit.ts, whose live bindings the
 * element sets from its own copies once the file has loaded. The rest is bundled as usual.
 */
function kitFromElement(): Plugin {
  return {
    name: 'onboarding-kit:kit-from-element',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer) return null;
      if (source === 'lit' || source.startsWith('lit/')) return LAZY_KIT_SOURCE;
      if (!/(^|\/)(events|css-property|errors)\.js$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && KIT_PROVIDED_SOURCES.has(resolved.id) ? LAZY_KIT_SOURCE : null;
    },
  };
}

/**
 * One file loaded lazily from beside the script (the image worker, the consent text, the waiting
 * and outcome texts): a single minified ES module with nothing split out of it.
 */
function besideScriptBuild(target: Target, entry: string, file: string, plugins: Plugin[] = []): InlineConfig {
  const base = common(target);
  return {
    ...base,
    ...(plugins.length > 0 && { plugins }),
    build: {
      ...base.build,
      minify: true,
      lib: { entry, formats: ['es'], fileName: () => file },
      rolldownOptions: { output: { minify: true, codeSplitting: false } },
    },
  };
}

/** The lazily loaded full consent text for both script-tag forms: data only, minified. */
export function consentTextBuild(target: Target): InlineConfig {
  return besideScriptBuild(target, CONSENT_TEXT_SOURCE, CONSENT_TEXT_FILE);
}

/** The lazily loaded waiting and outcome texts for both script-tag forms: data only, minified. */
export function afterSendBuild(target: Target): InlineConfig {
  return besideScriptBuild(target, AFTER_SEND_SOURCE, AFTER_SEND_FILE);
}

/** The lazily loaded capture view for both script-tag forms (its Lit is the element's, handed in). */
export function captureViewBuild(target: Target): InlineConfig {
  return besideScriptBuild(target, CAPTURE_VIEW_SOURCE, CAPTURE_VIEW_FILE, [pipelineBesideScript(), templateWhitespace()]);
}

/** The lazily loaded photo steps for both script-tag forms (Lit and the event classes are the element's, handed in). */
export function photoStepsBuild(target: Target): InlineConfig {
  // The capture view and the pipeline stay their own files beside the script.
  return besideScriptBuild(target, PHOTO_STEPS_SOURCE, PHOTO_STEPS_FILE, [kitFromElement(), pipelineBesideScript(), templateWhitespace()]);
}

/** The lazily loaded hand-off panel for both script-tag forms (its Lit is the element's, handed in). */
export function handoffBuild(target: Target): InlineConfig {
  return besideScriptBuild(target, HANDOFF_SOURCE, HANDOFF_FILE, [templateWhitespace()]);
}

/**
 * The face check's cascade has a BSD licence that asks redistributions to keep its notice: the
 * minified liveness worker drops every comment, so the notice heads the file instead.
 */
function faceModelNotice(): string {
  const notice = /\/\*![\s\S]*?\*\//.exec(readFileSync(FACE_MODEL_SOURCE, 'utf8'))?.[0];
  if (!notice) throw new Error(`no licence notice in ${FACE_MODEL_SOURCE}`);
  return `${notice}\n/*! @vladmandic/face-api (MIT, Vladimir Mandic) with TensorFlow.js (Apache-2.0, Google LLC) inside. */`;
}

/**
 * Vite warns that `new URL('./onboarding-flow.image-worker.js', import.meta.url)` (worker-url.ts),
 * and the same of the reader's and the liveness worker (reader-url.ts, liveness-url.ts),
 * has no file at build time and stays as written: that is the intent (the worker build writes
 * the file beside the output), so that one warning is silenced and every other one kept.
 */
function buildLogger() {
  const logger = createLogger('warn');
  const expected = (message: string) =>
    [IMAGE_WORKER_FILE, READER_WORKER_FILE, LIVENESS_WORKER_FILE].some((file) =>
      message.includes(`${file}", import.meta.url) doesn't exist at build time`),
    );
  const { warn, warnOnce } = logger;
  logger.warn = (message, options) => {
    if (!expected(message)) warn(message, options);
  };
  logger.warnOnce = (message, options) => {
    if (!expected(message)) warnOnce(message, options);
  };
  return logger;
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
    build: {
      ...base.build,
      minify: true,
      lib: { entry: PIPELINE_SOURCE, formats: ['es'], fileName: () => PIPELINE_FILE },
      // One file, so a page hosts a fixed set of files with no hashed names.
      rolldownOptions: { output: { minify: true, codeSplitting: false } },
    },
  };
}

/**
 * browser-image-compression names a CDN copy of itself as the default `libURL`, which only its
 * own `blob:` worker would load. The image worker calls it with `useWebWorker: false` (it is
 * already in a worker), so that path never runs; the URL is left out of the built file so that
 * nothing the element hosts points at a public CDN (test/size.test.ts checks every file).
 */
const LIBRARY_CDN_URL = /"https:\/\/cdn\.jsdelivr\.net\/npm\/browser-image-compression@[^"]*"/g;

function libraryWithoutCdn(): Plugin {
  return {
    name: 'onboarding-kit:library-without-cdn',
    transform(code, id) {
      if (!id.includes('browser-image-compression')) return null;
      const stripped = code.replace(LIBRARY_CDN_URL, '""');
      return stripped === code ? null : { code: stripped, map: null };
    },
  };
}

/**
 * The image worker for every form (the npm chunk, bundlers that copy `new URL(..., import.meta.url)`
 * assets, and both script-tag forms): one self-contained file with no import or export, so it
 * runs as a module worker and would as a classic one.
 */
export function workerBuild(target: Target): InlineConfig {
  return besideScriptBuild(target, IMAGE_WORKER_SOURCE, IMAGE_WORKER_FILE, [libraryWithoutCdn()]);
}

/** The document reader's worker for every form: one self-contained file, like the image worker. */
export function readerWorkerBuild(target: Target): InlineConfig {
  return besideScriptBuild(target, READER_WORKER_SOURCE, READER_WORKER_FILE);
}

/** Where each file the liveness worker fetches from beside itself is, as its npm package ships it. */
function livenessFileSource(file: string): string {
  const require = createRequire(import.meta.url);
  return file.endsWith('.wasm')
    ? join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist', file)
    : join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model', file);
}

/** The files the liveness worker fetches, copied beside it. */
function livenessFilesBesideWorker(): Plugin {
  return {
    name: 'onboarding-kit:liveness-files',
    async writeBundle({ dir }) {
      if (!dir) return;
      for (const file of LIVENESS_FILES) await copyFile(livenessFileSource(file), join(dir, file));
    },
  };
}

/**
 * The liveness worker for every form: one self-contained file (face-api with TensorFlow.js, the
 * face check's cascade), the face model's files and TensorFlow.js's `.wasm` copied beside it.
 */
export function livenessWorkerBuild(target: Target): InlineConfig {
  const config = besideScriptBuild(target, LIVENESS_WORKER_SOURCE, LIVENESS_WORKER_FILE, [livenessFilesBesideWorker()]);
  config.build!.rolldownOptions!.output = { minify: true, codeSplitting: false, postBanner: faceModelNotice };
  return config;
}

/** `<script type="module" src>`: one ES module, lit inlined, the pipeline beside it. */
export function bundleBuild(target: Target): InlineConfig {
  const base = common(target);
  return {
    ...base,
    plugins: [pipelineBesideScript(), templateWhitespace()],
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
    plugins: [pipelineBesideScript(), templateWhitespace()],
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
  return [
    npmBuild(target),
    pipelineBuild(target),
    afterSendBuild(target),
    consentTextBuild(target),
    captureViewBuild(target),
    photoStepsBuild(target),
    handoffBuild(target),
    workerBuild(target),
    readerWorkerBuild(target),
    livenessWorkerBuild(target),
    bundleBuild(target),
    iifeBuild(target),
  ];
}

// `vite build` on its own gives the npm modules; `npm run build` gives everything.
export default defineConfig(npmBuild({ outDir: here('./dist') }));
