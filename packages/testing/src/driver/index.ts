/**
 * The engine-neutral Driver for end-to-end tests: `openDriver(engine, options)` gives a Driver
 * for Chromium (playwright-core), Firefox (puppeteer-core over WebDriver BiDi) or WebKit
 * (WebKitWebDriver behind a recording proxy).
 */
export type { Driver, EngineName, PageErrors, Target, Viewport } from './types.js';
export { canDenyCamera, openDriver, type OpenedDriver, type OpenOptions } from './open.js';
