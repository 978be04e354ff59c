// The one place that says how the kit's tests and benchmarks start Chromium: Debian's
// /usr/bin/chromium unless CHROME_PATH names another Chrome, and the flags that keep it off
// this machine's closed network. Web Test Runner (through chromiumLaunchOptions, since it
// launches the browser itself), the node-side browser tests, the end-to-end tests and the
// benchmarks (through launchChromium) all read it. Plain JavaScript: the Web Test Runner
// config loads it in a Node process without tsx.
import { chromium } from 'playwright-core';
import { writeCardY4m } from './y4m.mjs';

/** The Chromium (or Chrome) binary to drive. */
export function chromiumPath() {
  return process.env.CHROME_PATH || '/usr/bin/chromium';
}

/** Launch flags; headless is set by the launcher's own option. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Flags for a fake camera looping `y4mPath` (no fake permission UI: permission is per context). */
export function fakeCameraArgs(y4mPath) {
  return ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4mPath}`];
}

/**
 * Playwright launch options: headless, the flags above, and with `cameraY4m` a fake camera
 * looping that file. `grantCameraEverywhere` adds the fake permission UI, which answers every
 * camera prompt with yes; tests that check the refusal path grant per context instead.
 */
export function chromiumLaunchOptions({ cameraY4m, grantCameraEverywhere = false, timeout } = {}) {
  const args = [...CHROMIUM_ARGS];
  if (cameraY4m) args.push(...fakeCameraArgs(cameraY4m));
  if (grantCameraEverywhere) args.push('--use-fake-ui-for-media-stream');
  return { executablePath: chromiumPath(), headless: true, args, ...(timeout === undefined ? {} : { timeout }) };
}

/**
 * Launches headless Chromium. `camera: 'card'` gives it a fake camera that loops the card
 * picture (written as Y4M to a temp file removed at exit); without it there is no camera at all.
 */
export function launchChromium({ camera, grantCameraEverywhere, timeout } = {}) {
  const cameraY4m = camera === 'card' ? writeCardY4m() : undefined;
  return chromium.launch(chromiumLaunchOptions({ cameraY4m, grantCameraEverywhere, timeout }));
}

/**
 * True for loopback hosts and for URLs that never reach a network (data:, blob:, about:):
 * the requests tests let through; everything else is aborted and recorded.
 */
export function isLoopback(url) {
  const { protocol, hostname } = typeof url === 'string' ? new URL(url) : url;
  if (!/^(https?|wss?):$/.test(protocol)) return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/** A fresh context whose off-host requests are aborted (the network here is closed) and listed in `external`. */
export async function isolatedContext(browser, options = {}) {
  const context = await browser.newContext(options);
  const external = [];
  await context.route(
    (url) => !isLoopback(url),
    (route) => {
      external.push(`${route.request().method()} ${route.request().url()}`);
      return route.abort('blockedbyclient');
    },
  );
  return { context, external };
}
