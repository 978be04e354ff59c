/**
 * Real Chromium for node-side tests: Debian's /usr/bin/chromium or CHROME_PATH, with the flags
 * that keep it off the (closed) network, and a context that aborts and records every request
 * to a non-loopback origin.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../test-support/chromium.mjs';

export { CHROMIUM_ARGS };


export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_ARGS] });
}

const isLoopback = (url: URL) =>
  !/^(https?|wss?):$/.test(url.protocol) || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** A context whose off-host requests are aborted and listed in `external`. */
export async function isolatedContext(browser: Browser): Promise<{ context: BrowserContext; external: string[] }> {
  const context = await browser.newContext();
  const external: string[] = [];
  await context.route(
    (url) => !isLoopback(url),
    (route) => {
      external.push(`${route.request().method()} ${route.request().url()}`);
      return route.abort('blockedbyclient');
    },
  );
  return { context, external };
}
