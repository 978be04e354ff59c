/**
 * WebKit over classic W3C WebDriver (WebKitWebDriver speaks no BiDi): a script finds candidates
 * through open shadow roots and returns them as element references; for role targets WebKit's
 * own computedrole and computedlabel answers choose the one with the accessible name (the
 * engine's accessibility computation, not a guess made in the page); clicks and typing are real
 * WebDriver element commands. The driver has no console: errors come from the collector that the
 * recording proxy injects into every page.
 */
import { writeFile } from 'node:fs/promises';
import type { ElementRef } from '../webdriver-client.mjs';
import { TOOLBAR_HEIGHT, type WebKitSession } from '../webkit.mjs';
import { readCollected } from './collector.js';
import { deepQueryAll, ROLE_CSS } from './deep.js';
import type { Driver, Target } from './types.js';

function describe(t: Target): string {
  return `${'role' in t ? `${t.role} "${t.name}"` : t.css}${t.within ? ` in ${t.within}` : ''}`;
}

const sameName = (actual: string, wanted: string) => actual.replace(/\s+/g, ' ').trim() === wanted;

/**
 * A function's source as a WebDriver script body. tsx (esbuild, keepNames) compiles named inner
 * functions into `__name(fn, "name")` calls; the page has no `__name`, so the body brings its own.
 */
function script(fn: (...args: never[]) => unknown): string {
  return `const __name = (f) => f; return (${fn.toString()}).apply(null, arguments);`;
}

export function webdriverDriver(wk: WebKitSession, onClose: () => Promise<void>): Driver {
  async function find(t: Target, { timeoutMs = 30_000, visibleOnly = true } = {}): Promise<ElementRef> {
    const end = Date.now() + timeoutMs;
    const css = 'role' in t ? [ROLE_CSS[t.role], `[role="${t.role}"]`].filter(Boolean).join(', ') : t.css;
    for (;;) {
      let candidates: ElementRef[];
      try {
        candidates = (await wk.execute(script(deepQueryAll), css, t.within ?? null, visibleOnly)) as unknown as ElementRef[];
      } catch (error) {
        // A re-render removed a match while WebKit was handing it back: not there yet, look again.
        if (!String((error as Error).message).includes('stale element reference') || Date.now() > end) throw error;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (!('role' in t) && candidates.length) return candidates[0]!;
      if ('role' in t) {
        for (const el of candidates) {
          const [role, label] = await Promise.all([wk.computedRole(el), wk.computedLabel(el)]);
          if (role === t.role && sameName(label, t.name)) return el;
        }
      }
      if (Date.now() > end) throw new Error(`webkit: no ${describe(t)} after ${timeoutMs} ms (candidates: ${candidates.length})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    engine: 'webkit',
    goto: (url) => wk.goto(url),
    evaluate: (fn, arg) => wk.execute(script(fn as never), arg),
    click: async (t) => wk.click(await find(t)),
    async fill(t, text) {
      const el = await find(t);
      await wk.clear(el);
      await wk.sendKeys(el, text);
    },
    text: async (t) => wk.text(await find(t)),
    // WebDriver sets a file input's files through Send Keys with the path (no interactability check).
    setFiles: async (t, path) => wk.sendKeys(await find(t, { visibleOnly: false }), path),
    waitFor: async (t, timeoutMs) => void (await find(t, { timeoutMs })),
    async screenshot(path) {
      // W3C WebDriver screenshots are of the viewport only.
      await writeFile(path, await wk.screenshot());
    },
    async setViewport({ width, height }) {
      await wk.setWindowRect({ width, height: height + TOOLBAR_HEIGHT });
      return wk.execute(script(() => ({ width: innerWidth, height: innerHeight })));
    },
    errors: async () => wk.execute(script(readCollected)),
    close: onClose,
  };
}
