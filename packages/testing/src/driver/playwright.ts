/**
 * Chromium through playwright-core: its locators pierce open shadow roots, so `within` is a plain
 * ancestor locator; page errors from its own events plus the collector (an init script, which no
 * page CSP applies to).
 */
import { writeFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { COLLECTOR_SOURCE, mergeErrors, readCollected } from './collector.js';
import type { Driver, Target } from './types.js';

export async function playwrightDriver(page: Page, onClose: () => Promise<void>): Promise<Driver> {
  const engineErrors: string[] = [];
  page.on('pageerror', (e) => engineErrors.push(String(e)));
  await page.addInitScript({ content: COLLECTOR_SOURCE });
  const locate = (t: Target): Locator => {
    const scope = t.within ? page.locator(t.within) : page;
    return 'role' in t ? scope.getByRole(t.role as Parameters<Page['getByRole']>[0], { name: t.name, exact: true }) : scope.locator(t.css);
  };
  return {
    engine: 'chromium',
    goto: async (url) => void (await page.goto(url)),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    click: (t) => locate(t).click(),
    fill: (t, text) => locate(t).fill(text),
    text: (t) => locate(t).innerText(),
    setFiles: (t, path) => locate(t).setInputFiles(path),
    waitFor: (t, timeoutMs = 30_000) => locate(t).first().waitFor({ state: 'visible', timeout: timeoutMs }),
    async screenshot(path) {
      await writeFile(path, await page.screenshot({ fullPage: true }));
    },
    async setViewport(size) {
      await page.setViewportSize(size);
      return page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
    },
    errors: async () => mergeErrors(await page.evaluate(readCollected), engineErrors),
    close: async () => {
      await page.context().close();
      await onClose();
    },
  };
}
