/**
 * Firefox through puppeteer-core over WebDriver BiDi. Under BiDi a page-wide `::-p-aria(...)` does
 * not enter shadow roots, so targets are scoped: `within >>> ::-p-aria([name=..][role=..])` or
 * `within >>> css` (`>>>` pierces open shadow roots below the host). Page errors from its own
 * events plus the collector (a preload script, which no page CSP applies to).
 */
import { writeFile } from 'node:fs/promises';
import type { ElementHandle, Page } from 'puppeteer-core';
import { COLLECTOR_SOURCE, mergeErrors, readCollected } from './collector.js';
import type { Driver, Target } from './types.js';

function puppeteerSelector(t: Target): string {
  const scope = t.within ? `${t.within} >>> ` : '';
  if (!('role' in t)) return `${scope}${t.css}`;
  return `${scope}::-p-aria([name=${JSON.stringify(t.name)}][role="${t.role}"])`;
}

export async function puppeteerDriver(page: Page, onClose: () => Promise<void>): Promise<Driver> {
  const engineErrors: string[] = [];
  page.on('pageerror', (e) => engineErrors.push(String((e as Error)?.message ?? e)));
  await page.evaluateOnNewDocument(COLLECTOR_SOURCE);
  const locate = (t: Target, timeoutMs = 30_000) => page.locator(puppeteerSelector(t)).setTimeout(timeoutMs);
  return {
    engine: 'firefox',
    goto: async (url) => void (await page.goto(url)),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    click: (t) => locate(t).click(),
    fill: (t, text) => locate(t).fill(text),
    text: (t) =>
      locate(t)
        .map((el) => (el as HTMLElement).innerText)
        .wait(),
    async setFiles(t, path) {
      const handle = (await page.waitForSelector(puppeteerSelector(t), { timeout: 30_000 })) as ElementHandle<HTMLInputElement> | null;
      if (!handle) throw new Error(`firefox: no ${puppeteerSelector(t)}`);
      await handle.uploadFile(path);
    },
    waitFor: async (t, timeoutMs = 30_000) =>
      void (await page.waitForSelector(puppeteerSelector(t), { visible: true, timeout: timeoutMs })),
    async screenshot(path) {
      await writeFile(path, await page.screenshot({ fullPage: true }));
    },
    async setViewport(size) {
      await page.setViewport(size);
      return page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
    },
    errors: async () => mergeErrors(await page.evaluate(readCollected), engineErrors),
    close: async () => {
      await page.close();
      await onClose();
    },
  };
}
