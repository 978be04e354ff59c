import type { BrowserLauncher, TestSession } from '@web/test-runner';
import type { FirefoxCamera } from './firefox.mjs';
import type { LaunchWebKitOptions } from './webkit.mjs';

export declare function firefoxLauncher(options?: {
  camera?: FirefoxCamera;
  prefs?: Record<string, string | number | boolean>;
  createPage?: (args: { config: unknown; browser: import('puppeteer-core').Browser }) => Promise<import('puppeteer-core').Page>;
}): BrowserLauncher;
export declare function webkitLauncher(options?: { concurrency?: number; launchOptions?: LaunchWebKitOptions }): BrowserLauncher;
export declare function sessionEngine(session: TestSession): 'chromium' | 'firefox' | 'webkit';
