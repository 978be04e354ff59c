// The one place that says how the kit's tests start WebKit: WebKitGTK (Debian's
// webkit2gtk-driver: WebKitWebDriver, and the MiniBrowser that libwebkit2gtk-4.1 ships) driven
// over plain W3C WebDriver (it speaks no BiDi). MiniBrowser has no headless mode, so each launch
// starts its own Xvfb (the display number chosen by Xvfb itself through -displayfd, so parallel
// runs never collide), then WebKitWebDriver on a free port, then one session. Do not set
// WEBKIT_DISABLE_COMPOSITING_MODE or WEBKIT_DISABLE_DMABUF_RENDERER: screenshots hang with
// either. Plain JavaScript: the Web Test Runner config loads it in a Node process without tsx.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { WebDriverSession } from './webdriver-client.mjs';

/** The WebDriver server of WebKitGTK. */
export function webkitDriverPath() {
  return process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
}

/** MiniBrowser: Debian's libwebkit2gtk-4.1-0 installs it outside PATH (amd64 path by default). */
export function miniBrowserPath() {
  return process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}

/** Height of MiniBrowser's toolbar: the window must be this much taller than the viewport wanted. */
export const TOOLBAR_HEIGHT = 38;
/** MiniBrowser's window is never narrower than this (its toolbar); narrower viewports need an iframe. */
export const MIN_WINDOW_WIDTH = 447;

/**
 * MiniBrowser flags. `--automation` is required whenever `args` is given (without it the
 * session never opens); the rest are WebKitSettings properties.
 */
export function miniBrowserArgs({ camera = true, extra = [] } = {}) {
  return [
    '--automation',
    ...(camera ? ['--enable-mock-capture-devices=true'] : []),
    '--enable-media-stream=true',
    '--enable-webrtc=true',
    // Autoplay without a gesture, as the element starts the preview <video> by itself.
    '--autoplay-policy=allow',
    // No speculative DNS on the closed network.
    '--enable-dns-prefetching=false',
    ...extra,
  ];
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts Xvfb on a display it picks itself. */
export function startXvfb({ screen = '1920x1080x24' } = {}) {
  return new Promise((resolve, reject) => {
    const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp', '-noreset'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d) => (stderr += d));
    proc.on('error', reject);
    proc.on('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${stderr.slice(-500)}`)));
    let out = '';
    proc.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        const display = `:${out.trim()}`;
        resolve({ display, proc, stop: () => stopProcess(proc) });
      }
    });
  });
}

function stopProcess(proc, signal = 'SIGTERM', graceMs = 3000) {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill(signal);
  });
}

async function waitForStatus(base, proc, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (proc.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${proc.exitCode}`);
    try {
      const res = await fetch(`${base}/status`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('WebKitWebDriver did not answer /status');
}

/** Starts WebKitWebDriver on a free port with DISPLAY set. MiniBrowser's stdout lands in `output`. */
export async function startWebKitDriver({ display, timeoutMs = 20_000, browserEnv = {} }) {
  const port = await freePort();
  const proc = spawn(webkitDriverPath(), [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display, GDK_BACKEND: 'x11', ...browserEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  const take = (d) => output.push(...String(d).split('\n').filter(Boolean));
  proc.stdout.on('data', take);
  proc.stderr.on('data', take);
  const base = `http://127.0.0.1:${port}`;
  await waitForStatus(base, proc, timeoutMs);
  return { base, port, proc, output, stop: () => stopProcess(proc) };
}

/**
 * Xvfb + WebKitWebDriver + one MiniBrowser session. Returns the session (see
 * webdriver-client.mjs) with `close()` that ends all three, and `output` (driver + browser
 * stdout). `width`/`height` are the viewport's (the window gets the toolbar on top).
 * camera: true gives the two mock devices (device 2 faces the environment and shows a test
 * pattern); false gives no device at all (getUserMedia: OverconstrainedError).
 */
export async function launchWebKit({
  camera = true,
  extraArgs = [],
  width = 1366,
  height = 768,
  browserEnv = {},
  binary = miniBrowserPath(),
} = {}) {
  if (!existsSync(binary)) throw new Error(`MiniBrowser not found at ${binary}`);
  const xvfb = await startXvfb();
  let driver;
  try {
    driver = await startWebKitDriver({ display: xvfb.display, browserEnv });
    const browserArgs = miniBrowserArgs({ camera, extra: extraArgs });
    const session = await WebDriverSession.create(driver.base, {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary, args: browserArgs },
    });
    await session.setTimeouts({ script: 30_000, pageLoad: 60_000, implicit: 0 });
    if (width && height) await session.setWindowRect({ width, height: height + TOOLBAR_HEIGHT });
    session.output = driver.output;
    session.display = xvfb.display;
    session.close = async () => {
      try {
        await session.delete();
      } catch {
        // the browser may be gone already
      }
      await driver.stop();
      await xvfb.stop();
    };
    return session;
  } catch (e) {
    await driver?.stop();
    await xvfb.stop();
    throw e;
  }
}
