/**
 * Web Test Runner: the element's browser tests, one test source in three engines (ENGINES picks
 * them, all three by default: `ENGINES=chromium npx wtr ...` for a quick run):
 * - Chromium (Debian's /usr/bin/chromium, or CHROME_PATH) through Playwright;
 * - Firefox ESR (FIREFOX_PATH) through puppeteer-core over WebDriver BiDi;
 * - WebKitGTK's MiniBrowser (MINIBROWSER_PATH, WEBKIT_DRIVER_PATH) through WebKitWebDriver
 *   under its own Xvfb.
 * The three browsers run at the same time, one test file each at a time: on 2 cores that is the
 * quickest arrangement measured. Tests that mean something in some engines only say so with
 * `onlyIn`/`skipIn` from @onboarding-kit/testing/engine (skipped with the reason in the title).
 *
 * - Default group: a fake camera. Chromium's loops a generated Y4M of a document-like picture
 *   (@onboarding-kit/testing/card-picture), so tests can check that captured pixels come from it;
 *   Firefox's shows a flat green frame, WebKit's mock device a grey test pattern.
 * - Group `no-camera` (files `*.no-camera.spec.ts`): the same engines with no camera device at
 *   all, where getUserMedia really fails (NotFoundError; WebKit: OverconstrainedError). Named `.spec.ts` so that no
 *   `--files '...*.test.ts'` pattern can pull them into the fake-camera browser. The group runs
 *   with a plain `wtr` run and with `--group no-camera`; a run narrowed by `--files` leaves it out.
 * - Group `gallery` (files `*.gallery.spec.ts`): the fake cameras again, WebKit's window at
 *   1366x960, for the screenshot gallery (@onboarding-kit/testing/gallery: every step at 390 and
 *   1366 px in a frame of that size, test/artifacts/gallery/index.html). Runs like `no-camera`.
 * Camera permission is per browser context in Chromium (no --use-fake-ui-for-media-stream, which
 * would grant everything) and per origin in Firefox: it starts granted; tests flip it with
 * `executeServerCommand('camera-permission', { grant })`, which answers 'unsupported' in WebKit
 * (no WebDriver endpoint for it; MiniBrowser grants every capture in automation).
 * `screenshot` (`{ name }`) saves the page as test/artifacts/<engine>/element/<name>.png for a
 * person to look at (the full page in Chromium and Firefox, the viewport in WebKit).
 * `figure` (`{ name, value }`) writes a measured figure as test/artifacts/<engine>/figures/<name>.json.
 * `clipboard-permission` grants clipboard-read and clipboard-write in Chromium (`{ grant: false }`
 * clears every permission, camera included); Firefox needs no grant for a test's clipboard.
 * Every request to a non-loopback origin is aborted (Chromium) or refused by Firefox itself
 * (MOZ_DISABLE_NONLOCAL_CONNECTIONS) and recorded; tests read the record (`{ external, all }`,
 * entries "METHOD url") with `executeServerCommand('network-log')`, which also clears it (proves
 * nothing is fetched from a CDN); WebKit answers 'unsupported' (its driver shows no network).
 * A file that stalls fails after WTR_FILE_DEADLINE_MS (300 s by default); the failure recap at
 * the end of the run then lists the server commands it last sent and whether they were answered.
 * A screenshot the browser never delivers gives up after 30 s without failing the test; any other
 * server command unanswered for 40 s fails its test, named.
 * Companions: the real companion and sandbox run beside the dev server (`realStack`, commands
 * 'stack', 'stack-record', 'stack-decide') for the paths that work; the companion double
 * (`/test-companion/<namespace>/...`) stays for fault injection only.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { defaultReporter } from '@web/test-runner';
import { writeCardY4m } from '@onboarding-kit/testing/y4m';
import { chromiumLaunchOptions, isLoopback } from '@onboarding-kit/testing/chromium';
import { setCameraPermission } from '@onboarding-kit/testing/firefox';
import { firefoxLauncher, sessionEngine, webkitLauncher } from '@onboarding-kit/testing/wtr-launchers';
import { selectedEngines } from '@onboarding-kit/testing/engines';
import { companionDouble } from '@onboarding-kit/testing/companion-double';
import { realStack } from '@onboarding-kit/testing/stack-plugin';
import { failureRecap } from '@onboarding-kit/testing/failure-recap';
import { commandTrail } from '@onboarding-kit/testing/command-trail';
import { withDeadline } from '@onboarding-kit/testing/deadline';
import { reportableFailuresHtml } from '@onboarding-kit/testing/reportable-failures';
import { galleryPlugin } from '@onboarding-kit/testing/gallery';

const elementTsconfig = fileURLToPath(new URL('./packages/element/tsconfig.json', import.meta.url));
const cardY4m = writeCardY4m();
/** The face model's files as `@vladmandic/face-api` ships them, served beside the liveness worker. */
const TFJS_WASM_DIR = join(dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
const FACE_MODEL_DIR = join(dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'model');

/** Off-host requests seen per Playwright context (a context holds one test file's page). */
const networkLogs = new WeakMap();

async function createBrowserContext({ browser }) {
  const context = await browser.newContext({ permissions: ['camera'] });
  const log = { external: [], all: [] };
  networkLogs.set(context, log);
  context.on('request', (request) => {
    const entry = `${request.method()} ${request.url()}`;
    log.all.push(entry);
    if (!isLoopback(request.url())) log.external.push(entry);
  });
  // The closed network would hang such requests; fail them at once (they are still recorded).
  await context.route(
    (url) => !isLoopback(url),
    (route) => route.abort('blockedbyclient'),
  );
  return context;
}

const launcher = (launchOptions) => playwrightLauncher({ product: 'chromium', launchOptions, createBrowserContext });

/** Requests seen per Firefox page (BiDi network events; Firefox itself refuses off-host ones). */
const firefoxNetworkLogs = new WeakMap();

async function createFirefoxPage({ browser }) {
  const page = await browser.newPage();
  const log = { external: [], all: [] };
  firefoxNetworkLogs.set(page, log);
  page.on('request', (request) => {
    // The launcher reuses a page for the next test file: each file's record starts at its own page.
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      log.external.length = 0;
      log.all.length = 0;
    }
    const entry = `${request.method()} ${request.url()}`;
    log.all.push(entry);
    if (!isLoopback(request.url())) log.external.push(entry);
  });
  return page;
}

/** One browser per engine ENGINES names; `camera: false` gives each one without any camera device. */
function engineBrowsers({ camera, window }) {
  const make = {
    chromium: () => launcher(chromiumLaunchOptions(camera ? { cameraY4m: cardY4m } : {})),
    firefox: () => firefoxLauncher({ camera: camera ? 'granted' : 'none', createPage: createFirefoxPage }),
    webkit: () => webkitLauncher({ launchOptions: { camera, ...window } }),
  };
  return selectedEngines().map((engine) => make[engine]());
}

function playwrightContext(session) {
  return session.browser.getPage(session.id).context();
}

const SCREENSHOT_DEADLINE_MS = 30_000;

/** Server commands for tests (`executeServerCommand` from @web/test-runner-commands). */
const testCommandsPlugin = {
  name: 'onboarding-kit-test-commands',
  async executeCommand({ command, payload, session }) {
    const engine = sessionEngine(session);
    if (command === 'camera-permission') {
      if (engine === 'webkit') return 'unsupported';
      if (engine === 'firefox') {
        const page = session.browser.getPage(session.id);
        await setCameraPermission(page.browser(), new URL(page.url()).origin, payload?.grant ? 'granted' : 'denied');
        return true;
      }
      const context = playwrightContext(session);
      if (payload?.grant) await context.grantPermissions(['camera']);
      else await context.clearPermissions();
      return true;
    }
    if (command === 'clipboard-permission') {
      if (engine !== 'chromium') return 'unsupported';
      // Reading the clipboard back needs clipboard-read; writing from a click, clipboard-write.
      const context = playwrightContext(session);
      if (payload?.grant) await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      else await context.clearPermissions();
      return true;
    }
    if (command === 'screenshot') {
      // For a person to look at (test/artifacts/<engine>/element/<name>.png), never compared.
      const name = String(payload?.name ?? 'screenshot').replace(/[^a-z0-9-]+/gi, '-');
      const dir = fileURLToPath(new URL(`./test/artifacts/${engine}/element/`, import.meta.url));
      await mkdir(dir, { recursive: true });
      // WebKitWebDriver shoots the viewport only (no full-page screenshot in W3C WebDriver).
      const shot =
        engine === 'webkit'
          ? session.browser
              .getSession(session.id)
              .screenshot()
              .then((png) => writeFile(`${dir}${name}.png`, png))
          : session.browser.getPage(session.id).screenshot({ path: `${dir}${name}.png`, fullPage: true });
      // A screenshot is for a person to look at, never a verdict: one the browser never delivers
      // (full-page captures are known to hang now and then) must not hold the test until its file
      // runs out of time. The test goes on and the log says the picture is missing.
      const missing = await withDeadline(shot, 'no answer', SCREENSHOT_DEADLINE_MS).then(
        () => undefined,
        (error) => error.message,
      );
      if (missing) return `(no screenshot ${name}: ${missing})`;
      return `test/artifacts/${engine}/element/${name}.png`;
    }
    if (command === 'figure') {
      // A measured figure for a person to read (test/artifacts/<engine>/figures/<name>.json), never a verdict.
      const name = String(payload?.name ?? 'figure').replace(/[^a-z0-9-]+/gi, '-');
      const dir = fileURLToPath(new URL(`./test/artifacts/${engine}/figures/`, import.meta.url));
      await mkdir(dir, { recursive: true });
      await writeFile(`${dir}${name}.json`, `${JSON.stringify(payload?.value ?? null, null, 2)}\n`);
      return `test/artifacts/${engine}/figures/${name}.json`;
    }
    if (command === 'network-log') {
      if (engine === 'webkit') return 'unsupported';
      const logs =
        engine === 'firefox' ? firefoxNetworkLogs.get(session.browser.getPage(session.id)) : networkLogs.get(playwrightContext(session));
      const log = logs ?? { external: [], all: [] };
      const taken = { external: [...log.external], all: [...log.all] };
      if (payload?.clear !== false) {
        log.external.length = 0;
        log.all.length = 0;
      }
      return taken;
    }
    return undefined;
  },
};

/**
 * The image pipeline starts its worker from `./onboarding-flow.image-worker.js` beside the
 * module (the build emits that file there), the document reader its own from
 * `./onboarding-flow.reader-worker.js`, the liveness challenge `./onboarding-flow.liveness-worker.js`
 * and its face model's files; in the test server each worker is a one-line module worker that
 * imports the TypeScript source, which the server compiles like any other module, and the model's
 * files come from the npm package.
 */
const workerScriptsPlugin = {
  name: 'serve-worker-scripts',
  serve(context) {
    if (context.path.endsWith('/packages/element/src/image/onboarding-flow.image-worker.js')) {
      return { body: "import './image-worker.ts';\n", type: 'js' };
    }
    if (context.path.endsWith('/packages/element/src/reader/onboarding-flow.reader-worker.js')) {
      return { body: "import './reader-worker.ts';\n", type: 'js' };
    }
    if (context.path.endsWith('/packages/element/src/liveness/onboarding-flow.liveness-worker.js')) {
      return { body: "import './liveness-worker.ts';\n", type: 'js' };
    }
    // The worker where no model is hosted beside it: the model's files answer 404, the worker runs.
    if (context.path.endsWith('/liveness-without-model/onboarding-flow.liveness-worker.js')) {
      return { body: "import '/packages/element/src/liveness/liveness-worker.ts';\n", type: 'js' };
    }
    const modelFile = /\/packages\/element\/src\/liveness\/((?:tiny_face_detector|face_landmark_68_tiny)_model[\w-]*\.(?:json|bin))$/.exec(
      context.path,
    );
    if (modelFile) {
      const body = readFileSync(join(FACE_MODEL_DIR, modelFile[1]));
      return { body, type: modelFile[1].endsWith('.json') ? 'json' : 'application/octet-stream' };
    }
    const wasmFile = /\/packages\/element\/src\/liveness\/(tfjs-backend-wasm[\w-]*\.wasm)$/.exec(context.path);
    if (wasmFile) return { body: readFileSync(join(TFJS_WASM_DIR, wasmFile[1])), type: 'application/wasm' };
    return undefined;
  },
};

/**
 * `/__csp-page?policy=<policy>`: an empty page that loads the element, served with that policy
 * as a real Content-Security-Policy header (every engine honours a header; a srcdoc frame's meta
 * policy is not applied the same way everywhere).
 */
const cspPagePlugin = {
  name: 'serve-csp-page',
  serve(context) {
    if (context.path !== '/__csp-page') return undefined;
    context.set('Content-Security-Policy', String(context.query.policy ?? ''));
    return {
      body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CSP</title><script type="module" src="/packages/element/src/index.ts"></script></head><body></body></html>',
      type: 'html',
    };
  },
};

/**
 * Each test session's last server commands, for the recap of a file that stalled. A command left
 * unanswered for 40 s (a browser that stopped answering its driver) fails its test with its name,
 * rather than holding it and the file's next tests until their own timeouts add up past the
 * file's deadline (where every result of the file is lost). Screenshots give up sooner by
 * themselves (30 s) and do not fail.
 */
const trail = commandTrail({ deadlineMs: 40_000 });

const noCameraFiles = 'packages/element/src/**/*.no-camera.spec.ts';
// The gallery's frame is as large as a laptop's viewport: WebKit's window cannot be resized mid-session.
const galleryFiles = 'packages/element/src/**/*.gallery.spec.ts';
const argv = process.argv.slice(2);
const narrowedByFiles = argv.some((a) => a === '--files' || a.startsWith('--files='));
const groupChosen = argv.some((a) => a === '--group' || a.startsWith('--group='));

export default {
  rootDir: fileURLToPath(new URL('.', import.meta.url)),
  files: ['packages/element/src/**/*.test.ts'],
  nodeResolve: { exportConditions: ['source', 'browser'] },
  concurrency: 1,
  concurrentBrowsers: 3,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: Number(process.env.WTR_FILE_DEADLINE_MS ?? 300_000),
  testFramework: { config: { timeout: 30_000 } },
  testRunnerHtml: reportableFailuresHtml,
  browsers: engineBrowsers({ camera: true }),
  // The default reporter, then every failure once more at the very end (CI logs keep their tail),
  // with the last server commands of a file that stalled.
  reporters: [defaultReporter(), failureRecap({ notes: trail.describe })],
  groups:
    narrowedByFiles && !groupChosen
      ? []
      : [
          { name: 'no-camera', files: [noCameraFiles], browsers: engineBrowsers({ camera: false }) },
          { name: 'gallery', files: [galleryFiles], browsers: engineBrowsers({ camera: true, window: { width: 1366, height: 960 } }) },
        ],
  plugins: [
    trail,
    esbuildPlugin({ ts: true, tsconfig: elementTsconfig, target: 'es2022' }),
    testCommandsPlugin,
    workerScriptsPlugin,
    cspPagePlugin,
    companionDouble(),
    realStack({ processingMs: 300 }),
    galleryPlugin({ root: fileURLToPath(new URL('.', import.meta.url)) }),
  ],
};
