/**
 * A page that serves the hosting manifest's files but one: `onboarding-flow.photo-steps.js`,
 * the file the integrator missed. In each engine ENGINES picks (all three by default),
 * the module script form walks to the first photo step, where the person reads that the page
 * is at fault (not their internet), in the element's live alert, with focus on the step's
 * heading; the console holds one line naming the file's URL and the manifest, and still one
 * after a Retry that fails again (Firefox's Retry fails without asking: its module map keeps the
 * failed import). Screenshots: test/artifacts/<engine>/missing-file/.
 * In Chromium also: an HTML page served in the file's place (a catch-all route) is the page's
 * fault too; a file lost to a dropped connection keeps the connection's words with no console
 * line, and its Retry, back online, brings the steps; an image worker the page does not serve
 * leaves the photos to the page and is named in the console once, however many photos follow.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDriver, type OpenedDriver } from '@onboarding-kit/testing/driver';
import { selectedEngines } from '@onboarding-kit/testing/engines';
import { serveStatic, type StaticServer } from '@onboarding-kit/testing/static-server';
import { isolatedContext, launchChromium } from '@onboarding-kit/testing/chromium';
import type { Page } from 'playwright-core';
import { BUNDLE_FILE, IMAGE_WORKER_FILE, PHOTO_STEPS_FILE } from '../vite.config.js';
import { HOSTING_MANIFEST } from '../src/lazy/load-failure.js';
import { ptBR } from '../src/messages/pt-BR.js';
import { en } from '../src/messages/en.js';
import { buildDistIntoTemp, hostedFromManifest, type BuiltDist } from './support/built-dist.js';
import { walkToFirstPhoto } from './support/walk.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test/artifacts/', import.meta.url));
const PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>loja</title></head><body>
<onboarding-flow cpf="529.982.247-25" document-types="PASSPORT" locale="pt-BR"></onboarding-flow>
<script type="module" src="/kit/${BUNDLE_FILE}"></script></body></html>`;

let dist: BuiltDist;
let hosted: { dir: string; remove(): Promise<void> };
let server: StaticServer;
before(async () => {
  dist = await buildDistIntoTemp();
  // Only what the manifest lists, less the one file this page forgot.
  hosted = await hostedFromManifest(dist, [PHOTO_STEPS_FILE]);
  server = await serveStatic({ pages: { '/shop/': PAGE }, mount: { prefix: '/kit/', dir: hosted.dir } });
});
after(async () => {
  await server?.close();
  await hosted?.remove();
  await dist?.remove();
});

const within = 'onboarding-flow';
const step = (name: string) => ({ css: `section[data-step="${name}"]`, within });

/** What the element shows and where focus is, read inside its shadow root. */
function failureState(d: OpenedDriver) {
  return d.evaluate(() => {
    const root = document.querySelector('onboarding-flow')!.shadowRoot!;
    const alert = root.querySelector('[data-part-failed]');
    return {
      kind: alert?.getAttribute('data-part-failed') ?? null,
      role: alert?.getAttribute('role') ?? null,
      text: alert?.textContent?.trim() ?? null,
      focused: root.activeElement?.id ?? null,
    };
  });
}

async function tellings(d: OpenedDriver): Promise<string[]> {
  const { console: lines } = await d.errors();
  return lines.filter((line) => line.includes(HOSTING_MANIFEST));
}

for (const engine of selectedEngines()) {
  test(`${engine}: a lazy file the page does not serve is the page's fault, told to the developer once`, async () => {
    const d = await openDriver(engine, { camera: 'granted', origin: server.url });
    const shots = join(ARTIFACTS, engine, 'missing-file');
    await mkdir(shots, { recursive: true });
    try {
      await d.goto(`${server.url}/shop/`);
      await d.waitFor(step('intro'));
      await d.click({ css: 'button.primary', within });
      await d.waitFor(step('consent'));
      await d.click({ css: '#consent', within });
      await d.click({ css: 'button[type=submit]', within });
      await d.waitFor(step('cpf'));
      await d.click({ css: 'button[type=submit]', within });
      await d.waitFor(step('document-type'));
      await d.click({ css: 'button[type=submit]', within });
      await d.waitFor(step('document-front'));
      await d.waitFor({ css: '[data-part-failed]', within });
      const state = await failureState(d);
      // Two frames for the engine to paint what the page holds (WebKit's screenshot can lag behind).
      await d.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await d.screenshot(join(shots, '01-missing.png'));
      assert.deepEqual(state, { kind: 'missing', role: 'alert', text: ptBR.flow.partMissing, focused: 'heading' });

      const url = `${server.url}/kit/${PHOTO_STEPS_FILE}`;
      const told = await tellings(d);
      assert.equal(told.length, 1, told.join('\n'));
      assert.ok(told[0]!.startsWith('error: '), told[0]);
      assert.ok(told[0]!.includes(url), `${told[0]} names ${url}`);

      // Retry: asked for again, missing again; the person reads the same, the developer is not told twice.
      const asked = server.requests.filter((r) => r === `GET /kit/${PHOTO_STEPS_FILE}`).length;
      await d.click({ role: 'button', name: ptBR.session.retry, within });
      await d.waitFor({ css: '[data-part-failed="missing"]', within });
      assert.deepEqual(await failureState(d), state);
      assert.equal((await tellings(d)).length, 1);
      // Firefox's module map keeps a failed import for the page's life: its Retry never reaches the server.
      if (engine !== 'firefox') {
        assert.ok(server.requests.filter((r) => r === `GET /kit/${PHOTO_STEPS_FILE}`).length > asked, 'the Retry asked for the file again');
      }

      // Nothing else went wrong: no uncaught error, no CSP violation (Firefox reports the 404's own
      // refusal of the file as an engine error: it names the missing file).
      const { errors, csp } = await d.errors();
      assert.deepEqual({ errors: errors.filter((e) => !e.includes(url)), csp }, { errors: [], csp: [] });
    } finally {
      await d.close();
    }
  });
}

/** The tests below need Playwright's Chromium: they run when ENGINES picks it. */
const inChromium = selectedEngines().includes('chromium') ? test : test.skip;

/** Chromium through Playwright, for what the engine-neutral driver cannot do (go offline, read the console as it comes). */
async function chromiumPage(run: (p: Page, consoleErrors: string[]) => Promise<void>): Promise<void> {
  const browser = await launchChromium();
  try {
    const { context } = await isolatedContext(browser);
    const p = await context.newPage();
    const consoleErrors: string[] = [];
    p.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));
    await run(p, consoleErrors);
  } finally {
    await browser.close();
  }
}

inChromium("chromium: an HTML page served in place of a lazy file (a catch-all route) is the page's fault too", async () => {
  const html = '<!doctype html><html><head><title>Loja</title></head><body>Página não encontrada</body></html>';
  const full = await hostedFromManifest(dist);
  const spa = await serveStatic({
    pages: { '/shop/': PAGE, [`/kit/${PHOTO_STEPS_FILE}`]: html },
    mount: { prefix: '/kit/', dir: full.dir },
  });
  try {
    await chromiumPage(async (p, consoleErrors) => {
      await p.goto(`${spa.url}/shop/`);
      await walkToFirstPhoto(p);
      const alert = p.locator('onboarding-flow [data-part-failed]');
      await alert.waitFor();
      assert.equal(await alert.getAttribute('data-part-failed'), 'missing');
      assert.equal((await alert.textContent())?.trim(), ptBR.flow.partMissing);
      const told = consoleErrors.filter((line) => line.includes(HOSTING_MANIFEST));
      assert.deepEqual(told.length, 1, consoleErrors.join('\n'));
      assert.ok(told[0]!.includes(`${spa.url}/kit/${PHOTO_STEPS_FILE}`), told[0]);
    });
  } finally {
    await spa.close();
    await full.remove();
  }
});

inChromium(
  "chromium: a lazy file lost to a dropped connection is the connection's (the old words, no console line), and Retry brings it once back online",
  async () => {
    const full = await hostedFromManifest(dist);
    const english = PAGE.replaceAll('pt-BR', 'en');
    const online = await serveStatic({ pages: { '/shop/': english }, mount: { prefix: '/kit/', dir: full.dir } });
    try {
      await chromiumPage(async (p, consoleErrors) => {
        await p.goto(`${online.url}/shop/`);
        await p.locator('onboarding-flow section[data-step="intro"]').waitFor();
        // The script and the consent text are in; the photo steps, fetched once the intro is left, are not.
        await p.context().setOffline(true);
        await walkToFirstPhoto(p);
        const alert = p.locator('onboarding-flow [data-part-failed]');
        await alert.waitFor();
        assert.equal(await alert.getAttribute('data-part-failed'), 'offline');
        assert.equal((await alert.textContent())?.trim(), en.flow.partFailed);
        assert.deepEqual(
          consoleErrors.filter((line) => line.includes(HOSTING_MANIFEST)),
          [],
        );

        await p.context().setOffline(false);
        await p.locator('onboarding-flow').getByRole('button', { name: en.session.retry }).click();
        await p.locator('onboarding-flow section[data-step="document-front"] input[type=file]').waitFor({ state: 'attached' });
        assert.equal(await alert.count(), 0);
      });
    } finally {
      await online.close();
      await full.remove();
    }
  },
);

/** A document-like PNG (sharp text and bars, mid exposure) drawn by the page's canvas. */
async function cardPng(p: Page): Promise<Buffer> {
  const bytes = await p.evaluate(async () => {
    const canvas = Object.assign(document.createElement('canvas'), { width: 1280, height: 720 });
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#707070';
    ctx.fillRect(0, 0, 1280, 720);
    ctx.fillStyle = '#e8e8e8';
    ctx.fillRect(190, 80, 900, 560);
    ctx.fillStyle = '#202020';
    ctx.font = 'bold 44px sans-serif';
    for (let line = 0; line < 6; line++) ctx.fillText(`DOCUMENTO ${line} 529.982.247-25`, 240, 170 + line * 80);
    for (let x = 240; x < 1040; x += 24) ctx.fillRect(x, 600, 12, 24);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  });
  return Buffer.from(bytes);
}

inChromium(
  'chromium: an image worker the page does not serve: photos are still prepared (on the page), and the developer is told once',
  async () => {
    const noWorker = await hostedFromManifest(dist, [IMAGE_WORKER_FILE]);
    const page = await serveStatic({ pages: { '/shop/': PAGE }, mount: { prefix: '/kit/', dir: noWorker.dir } });
    try {
      await chromiumPage(async (p, consoleErrors) => {
        await p.goto(`${page.url}/shop/`);
        await walkToFirstPhoto(p);
        const flow = p.locator('onboarding-flow');
        const png = await cardPng(p);
        const preview = flow.locator('img[part=preview]');
        for (const name of ['first.png', 'second.png']) {
          await flow.locator('input[type=file]').setInputFiles({ name, mimeType: 'image/png', buffer: png });
          await preview.waitFor();
          const told = consoleErrors.filter((line) => line.includes(HOSTING_MANIFEST));
          assert.equal(told.length, 1, consoleErrors.join('\n'));
          assert.ok(told[0]!.includes(`${page.url}/kit/${IMAGE_WORKER_FILE}`), told[0]);
          if (name === 'first.png') {
            await flow.getByRole('button', { name: ptBR.capture.retake }).click();
            await preview.waitFor({ state: 'detached' });
          }
        }
      });
    } finally {
      await page.close();
      await noWorker.remove();
    }
  },
);
