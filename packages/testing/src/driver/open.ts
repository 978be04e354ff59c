/**
 * Opens one Driver per engine. `camera`: 'granted' (a fake camera the page may use) or 'denied'
 * (the page's getUserMedia is refused: Chromium per context, Firefox per origin). WebKit cannot
 * deny (no WebDriver endpoint, MiniBrowser grants every capture in automation; only an
 * `<iframe allow="camera 'none'">` can, which a page with `frame-ancestors 'none'` forbids):
 * `canDenyCamera('webkit')` is false and opening it with 'denied' throws.
 */
import { isLoopback, launchChromium } from '../chromium.mjs';
import { launchFirefox, setCameraPermission } from '../firefox.mjs';
import { launchWebKit } from '../webkit.mjs';
import { playwrightDriver } from './playwright.js';
import { puppeteerDriver } from './puppeteer.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import type { Driver, EngineName, Viewport } from './types.js';
import { webdriverDriver } from './webdriver.js';

export interface OpenOptions {
  camera: 'granted' | 'denied';
  /** The origin the camera answer is for (Firefox keeps it per origin). */
  origin: string;
  viewport?: Viewport;
  locale?: string;
}

export function canDenyCamera(engine: EngineName): boolean {
  return engine !== 'webkit';
}

export type OpenedDriver = Driver & {
  /** Requests to other hosts (refused), as the engine or the proxy saw them. */
  external(): string[];
  /** WebKit only: every exchange through the recording proxy. */
  proxy?: RecordingProxy;
};

export async function openDriver(engine: EngineName, options: OpenOptions): Promise<OpenedDriver> {
  const viewport = options.viewport ?? { width: 1366, height: 768 };
  if (engine === 'chromium') {
    // The card picture in the fake camera; permission per context so that a denial is testable.
    const browser = await launchChromium({ camera: 'card' });
    const context = await browser.newContext({
      viewport,
      locale: options.locale,
      permissions: options.camera === 'granted' ? ['camera'] : [],
    });
    const external: string[] = [];
    await context.route(
      (url) => !isLoopback(url),
      (route) => {
        external.push(`${route.request().method()} ${route.request().url()}`);
        return route.abort('blockedbyclient');
      },
    );
    const driver = await playwrightDriver(await context.newPage(), () => browser.close());
    return { ...driver, external: () => [...external] };
  }
  if (engine === 'firefox') {
    const browser = await launchFirefox({
      camera: options.camera,
      prefs: options.locale ? { 'intl.accept_languages': options.locale } : {},
    });
    try {
      await setCameraPermission(browser, options.origin, options.camera);
      const page = await browser.newPage();
      await page.setViewport(viewport);
      const external: string[] = [];
      page.on('request', (r) => {
        if (!isLoopback(r.url())) external.push(`${r.method()} ${r.url()}`);
      });
      const driver = await puppeteerDriver(page, () => browser.close());
      return { ...driver, external: () => [...external] };
    } catch (error) {
      await browser.close();
      throw error;
    }
  }
  if (options.camera === 'denied') throw new Error('WebKit cannot deny the camera to a page (see canDenyCamera)');
  // All traffic through the recording proxy: the off-host refusal and the error collector.
  const proxy = await startRecordingProxy();
  const wk = await launchWebKit({ ...viewport, extraArgs: [`--proxy=${proxy.url}`] }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  const driver = webdriverDriver(wk, async () => {
    await wk.close();
    await proxy.close();
  });
  return { ...driver, external: () => [...proxy.external], proxy };
}
