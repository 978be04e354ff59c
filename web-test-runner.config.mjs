/**
 * Web Test Runner: the element's browser tests in real Chromium (Debian's /usr/bin/chromium, or
 * CHROME_PATH) through Playwright.
 *
 * - Default group: a fake camera that loops a generated Y4M of a document-like picture
 *   (@onboarding-kit/testing/card-picture), so tests can check that captured pixels come from it.
 * - Group `no-camera` (files `*.no-camera.spec.ts`): the same Chromium with no fake device at
 *   all, where getUserMedia really fails with NotFoundError. Named `.spec.ts` so that no
 *   `--files '...*.test.ts'` pattern can pull them into the fake-camera browser. The group runs
 *   with a plain `wtr` run and with `--group no-camera`; a run narrowed by `--files` leaves it out.
 * Camera permission is per browser context (no --use-fake-ui-for-media-stream, which would grant
 * everything): each context starts with ['camera'] granted; tests flip it with
 * `executeServerCommand('camera-permission', { grant })`; `clipboard-permission` likewise grants
 * clipboard-read and clipboard-write (and `{ grant: false }` clears every permission, camera included).
 * Every request to a non-loopback origin is aborted and recorded; tests read the record
 * (`{ external, all }`, entries "METHOD url", page and worker requests) with
 * `executeServerCommand('network-log')`, which also clears it (proves nothing is fetched from a CDN).
 * Companions: the real companion and sandbox run beside the dev server (`realStack`, commands
 * 'stack', 'stack-record', 'stack-decide') for the paths that work; the companion double
 * (`/test-companion/<namespace>/...`) stays for fault injection only.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { writeCardY4m } from '@onboarding-kit/testing/y4m';
import { chromiumLaunchOptions, isLoopback } from '@onboarding-kit/testing/chromium';
import { companionDouble } from '@onboarding-kit/testing/companion-double';
import { realStack } from '@onboarding-kit/testing/stack-plugin';

const elementTsconfig = fileURLToPath(new URL('./packages/element/tsconfig.json', import.meta.url));
const imageCompressionUmd = fileURLToPath(
  new URL('./node_modules/browser-image-compression/dist/browser-image-compression.js', import.meta.url),
);
const cardY4m = writeCardY4m();


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
  await context.route((url) => !isLoopback(url), (route) => route.abort('blockedbyclient'));
  return context;
}

const launcher = (launchOptions) => playwrightLauncher({ product: 'chromium', launchOptions, createBrowserContext });

function playwrightContext(session) {
  if (session.browser.type !== 'playwright') throw new Error('camera commands need the Playwright launcher');
  return session.browser.getPage(session.id).context();
}

/** Server commands for tests (`executeServerCommand` from @web/test-runner-commands). */
const testCommandsPlugin = {
  name: 'onboarding-kit-test-commands',
  async executeCommand({ command, payload, session }) {
    if (command === 'camera-permission') {
      const context = playwrightContext(session);
      if (payload?.grant) await context.grantPermissions(['camera']);
      else await context.clearPermissions();
      return true;
    }
    if (command === 'clipboard-permission') {
      // Reading the clipboard back needs clipboard-read; writing from a click, clipboard-write.
      const context = playwrightContext(session);
      if (payload?.grant) await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      else await context.clearPermissions();
      return true;
    }
    if (command === 'network-log') {
      const log = networkLogs.get(playwrightContext(session)) ?? { external: [], all: [] };
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
 * The image pipeline's default libURL is `./browser-image-compression.js` next to the module
 * (the build copies the UMD file there); in the test server that file is served from
 * node_modules at the same place.
 */
const imageCompressionLibPlugin = {
  name: 'serve-browser-image-compression-umd',
  async serve(context) {
    if (context.path.endsWith('/packages/element/src/image/browser-image-compression.js')) {
      return { body: await readFile(imageCompressionUmd, 'utf8'), type: 'js' };
    }
    return undefined;
  },
};

/**
 * The image pipeline starts its worker from `./onboarding-flow.image-worker.js` beside the
 * module (the build emits that file there); in the test server it is a one-line module worker
 * that imports the TypeScript source, which the server compiles like any other module.
 */
const imageWorkerPlugin = {
  name: 'serve-image-worker',
  serve(context) {
    if (context.path.endsWith('/packages/element/src/image/onboarding-flow.image-worker.js')) {
      return { body: "import './image-worker.ts';\n", type: 'js' };
    }
    return undefined;
  },
};

const noCameraFiles = 'packages/element/src/**/*.no-camera.spec.ts';
const argv = process.argv.slice(2);
const narrowedByFiles = argv.some((a) => a === '--files' || a.startsWith('--files='));
const groupChosen = argv.some((a) => a === '--group' || a.startsWith('--group='));

export default {
  rootDir: fileURLToPath(new URL('.', import.meta.url)),
  files: ['packages/element/src/**/*.test.ts'],
  nodeResolve: { exportConditions: ['source', 'browser'] },
  concurrency: 1,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 30_000 } },
  browsers: [
    launcher(chromiumLaunchOptions({ cameraY4m: cardY4m })),
  ],
  groups:
    narrowedByFiles && !groupChosen ? [] : [{ name: 'no-camera', files: [noCameraFiles], browsers: [launcher(chromiumLaunchOptions())] }],
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: elementTsconfig, target: 'es2022' }),
    testCommandsPlugin,
    imageCompressionLibPlugin,
    imageWorkerPlugin,
    companionDouble(),
    realStack({ processingMs: 300 }),
  ],
};
