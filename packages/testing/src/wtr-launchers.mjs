// Web Test Runner launchers for Firefox and WebKit, next to the Playwright one for Chromium
// (chromium.mjs), so that one test source runs in all three engines.
//
// - Firefox: @web/test-runner-chrome's ChromeLauncher (already a dependency of @web/test-runner)
//   accepts a custom puppeteer; given puppeteer-core 24.43 with `browser: 'firefox'` it drives
//   firefox-esr over WebDriver BiDi. (@web/test-runner-puppeteer is the same class with the full
//   `puppeteer` 25 hard-wired, which needs Node >= 22.12 and downloads Chrome at install.)
// - WebKit: a small launcher over our fetch-based WebDriver client: a pool of up to `concurrency`
//   MiniBrowsers, each with its own Xvfb and WebKitWebDriver (a driver holds one session).
//   (@web/test-runner-webdriver works too, but pulls webdriverio 9: ~100 MB, Node >= 22.)
import { chromeLauncher } from '@web/test-runner-chrome';
import puppeteer from 'puppeteer-core';
import { cameraPrefs, firefoxEnv, firefoxPath, QUIET_PREFS } from './firefox.mjs';
import { launchWebKit } from './webkit.mjs';

/**
 * Firefox with a fake camera (a flat green frame: it cannot show a chosen picture) whose
 * permission starts as `camera` ('granted' | 'denied') and is flipped per origin with
 * setCameraPermission (firefox.mjs). `createPage` lets the config wrap every test page
 * (request interception, say).
 */
export function firefoxLauncher({ camera = 'granted', prefs = {}, createPage } = {}) {
  return chromeLauncher({
    puppeteer,
    launchOptions: {
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: firefoxPath(),
      headless: true,
      timeout: 60_000,
      extraPrefsFirefox: { ...QUIET_PREFS, ...cameraPrefs(camera), ...prefs },
      // Lets setCameraPermission evaluate in the parent process (BiDi cannot set "camera").
      args: ['-remote-allow-system-access'],
      env: firefoxEnv(),
    },
    ...(createPage ? { createPage } : {}),
  });
}

class WebKitWebDriverLauncher {
  name = 'WebKit';
  type = 'webkit-webdriver';

  constructor({ concurrency = 1, launchOptions = {} } = {}) {
    this.concurrency = concurrency;
    this.launchOptions = launchOptions;
    /** @type {Map<string, { wk: any, url: string }>} */
    this.active = new Map();
    this.idle = [];
    this.all = [];
  }

  async initialize(config) {
    this.config = config;
  }

  /** The WebDriver session running a test session (for server commands). */
  getSession(sessionId) {
    return this.active.get(sessionId)?.wk;
  }

  async #acquire() {
    const reused = this.idle.pop();
    if (reused) return reused;
    const wk = await launchWebKit({ width: 800, height: 600, ...this.launchOptions });
    this.all.push(wk);
    return wk;
  }

  async startSession(sessionId, url) {
    const wk = await this.#acquire();
    this.active.set(sessionId, { wk, url });
    await wk.goto(url);
  }

  isActive(sessionId) {
    return this.active.has(sessionId);
  }

  getBrowserUrl(sessionId) {
    return this.active.get(sessionId)?.url;
  }

  async stopSession(sessionId) {
    const entry = this.active.get(sessionId);
    if (!entry) throw new Error(`No WebKit session for ${sessionId}`);
    let testCoverage;
    try {
      testCoverage = await entry.wk.execute(() => window.__coverage__ ?? null);
    } catch {
      // the test may have navigated away
    }
    // Stops the finished page's timers, streams and camera before the next file reuses the browser.
    await entry.wk.goto('about:blank');
    this.active.delete(sessionId);
    this.idle.push(entry.wk);
    return { testCoverage: this.config?.coverage && testCoverage ? testCoverage : undefined };
  }

  async startDebugSession() {
    throw new Error('WebKit debugging: run MiniBrowser on a real display instead');
  }

  async stop() {
    await Promise.all(this.all.map((wk) => wk.close()));
    this.all = [];
    this.idle = [];
    this.active.clear();
  }
}

/** WebKitGTK's MiniBrowser with the mock cameras (their permission is always granted). */
export function webkitLauncher(options) {
  return new WebKitWebDriverLauncher(options);
}

/** Which engine a Web Test Runner session runs in: 'chromium' | 'firefox' | 'webkit'. */
export function sessionEngine(session) {
  const { type, name } = session.browser;
  if (type === 'playwright') return 'chromium';
  if (type === 'puppeteer' && name === 'Firefox') return 'firefox';
  if (type === 'webkit-webdriver') return 'webkit';
  throw new Error(`unknown launcher ${type} ${name}`);
}
