/**
 * The wrapper in real Chromium with React 19 and React 18 (the same source, bundled by Vite
 * once per React): properties reach the element, slotted children are assigned, every callback
 * receives its event (the element's own class and detail), re-rendering updates properties,
 * and removing a callback removes its listener; and hydration of server-rendered markup keeps
 * the server's element without a mismatch.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type AliasOptions } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { isolatedContext, launchChromium } from '@onboarding-kit/testing/chromium';
import { serveStatic, type StaticServer } from '@onboarding-kit/testing/static-server';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REACT_18: AliasOptions = [
  { find: /^react$/, replacement: 'react-18' },
  { find: /^react\/(.*)$/, replacement: 'react-18/$1' },
  { find: /^react-dom$/, replacement: 'react-dom-18' },
  { find: /^react-dom\/(.*)$/, replacement: 'react-dom-18/$1' },
];
const VERSIONS = { '19': [], '18': REACT_18 } satisfies Record<string, AliasOptions>;
/** The version each bundle must report: the React installed under the name it was bundled from. */
const requireHere = createRequire(import.meta.url);
const INSTALLED: Record<string, string> = {
  '19': (requireHere('react/package.json') as { version: string }).version,
  '18': (requireHere('react-18/package.json') as { version: string }).version,
};
/** What renderToString gives for the fixture's tree (ssr.test.ts checks that shape). */
const SERVER_MARKUP = '<onboarding-flow id="kyc" class="kyc-flow"><span slot="logo" id="shop-logo">Shop</span></onboarding-flow>';

declare global {
  interface Window {
    __serverNode: Element | null;
  }
}

let dir: string;
let server: StaticServer;
let browser: Browser;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onboarding-react-'));
  for (const [major, alias] of Object.entries(VERSIONS)) {
    await build({
      configFile: false,
      root: PACKAGE_DIR,
      logLevel: 'warn',
      publicDir: false,
      resolve: { conditions: ['source', 'module', 'browser', 'production', 'default'], alias },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir: dir,
        emptyOutDir: false,
        minify: false,
        target: 'es2022',
        reportCompressedSize: false,
        lib: { entry: join(PACKAGE_DIR, 'test/fixtures/app.ts'), formats: ['es'], fileName: () => `app-${major}.js` },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
  }
  // The bundles are built from the element's source, where its workers' files are not beside the
  // chunks that reference them: copy them from its dist, as docs/distribution.md asks of a bundler
  // that does not emit them.
  const elementDist = fileURLToPath(new URL('../../element/dist/', import.meta.url));
  for (const file of await readdir(elementDist)) if (file.endsWith('-worker.js')) await copyFile(join(elementDist, file), join(dir, file));
  const page = (major: string, root = '') =>
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>react ${major}</title><div id="root">${root}</div>` +
    `<script>window.__serverNode = document.querySelector('onboarding-flow');</script>` +
    `<script type="module" src="/app/app-${major}.js"></script></html>`;
  const pages: Record<string, string> = {};
  for (const major of Object.keys(VERSIONS)) {
    pages[`/react-${major}.html`] = page(major);
    pages[`/react-${major}-ssr.html`] = page(major, SERVER_MARKUP);
  }
  server = await serveStatic({ pages, mount: { prefix: '/app/', dir } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const log = (p: Page) => p.evaluate(() => window.__log.splice(0));

for (const major of Object.keys(VERSIONS)) {
  test(`React ${major}: props reach the element, events reach the callbacks`, async () => {
    const { context, external } = await isolatedContext(browser);
    try {
      const p = await context.newPage();
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(String(e)));
      p.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await p.goto(`${server.url}/react-${major}.html`);
      await p.waitForFunction(() => !!document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('section[data-step]'));
      assert.equal(await p.evaluate(() => window.__reactVersion), INSTALLED[major]);

      const state = () =>
        p.evaluate(() => {
          const el = document.querySelector('onboarding-flow')!;
          return {
            upgraded: el instanceof customElements.get('onboarding-flow')!,
            endpoint: el.endpoint,
            locale: el.locale,
            cpf: el.cpf,
            name: el.name,
            documentTypes: el.documentTypes,
            maxImageBytes: el.maxImageBytes,
            maxLongEdge: el.maxLongEdge,
            id: el.id,
            className: el.getAttribute('class'),
            slotted: el
              .shadowRoot!.querySelector<HTMLSlotElement>('slot[name=logo]')!
              .assignedElements()
              .map((e) => e.id),
            heading: el.shadowRoot!.querySelector('h2')!.textContent,
            lang: el.shadowRoot!.querySelector('[part=base]')!.getAttribute('lang'),
          };
        });
      const first = await state();
      assert.deepEqual(
        { ...first, heading: undefined },
        {
          upgraded: true,
          endpoint: '/kyc',
          locale: 'en',
          cpf: '529.982.247-25',
          name: 'Maria Silva',
          documentTypes: 'PASSPORT',
          maxImageBytes: 400_000,
          maxLongEdge: 1600,
          id: 'kyc',
          className: 'kyc-flow',
          slotted: ['shop-logo'],
          heading: undefined,
          lang: 'en',
        },
      );

      // Real events from the element's own UI.
      const flow = p.locator('onboarding-flow');
      await flow.locator('section[data-step=intro] button.primary').click();
      await flow.locator('section[data-step=consent] button:not(.primary)').click();
      await flow.locator('#consent').check();
      await flow.locator('button[type=submit]').click();
      await flow.locator('section[data-step=cpf]').waitFor();
      assert.deepEqual(await log(p), [
        { callback: 'onStepChange', type: 'onboarding-step-change', detail: { step: 'consent', previous: 'intro' }, sameClass: true },
        { callback: 'onCancel', type: 'onboarding-cancel', detail: { step: 'consent' }, sameClass: true },
        { callback: 'onStepChange', type: 'onboarding-step-change', detail: { step: 'cpf', previous: 'consent' }, sameClass: true },
      ]);
      // The CPF prefill (a property) is in the field.
      assert.equal(await flow.locator('#cpf').inputValue(), '529.982.247-25');

      // The other six events, dispatched as the element dispatches them.
      await p.evaluate(() => {
        const el = document.querySelector('onboarding-flow')!;
        const e = window.__elementModule;
        el.dispatchEvent(
          new e.OnboardingCaptureEvent({
            role: 'selfie',
            bytes: 1,
            width: 640,
            height: 480,
            processedIn: 'worker',
            processedBy: 'library',
          }),
        );
        el.dispatchEvent(new e.OnboardingHandoffEvent({ state: 'claimed' }));
        el.dispatchEvent(new e.OnboardingSubmittedEvent({ tokenOnboarding: 't-1' }));
        el.dispatchEvent(new e.OnboardingCompleteEvent({ tokenOnboarding: 't-1', status: 'ERROR', externalId: 'x-9' }));
        el.dispatchEvent(new e.OnboardingErrorEvent({ code: 'network', message: 'offline' }));
        el.dispatchEvent(new e.OnboardingContinueEvent({ tokenOnboarding: 't-1', status: 'APPROVED' }));
      });
      assert.deepEqual(await log(p), [
        {
          callback: 'onCapture',
          type: 'onboarding-capture',
          detail: { role: 'selfie', bytes: 1, width: 640, height: 480, processedIn: 'worker', processedBy: 'library' },
          sameClass: true,
        },
        { callback: 'onHandoff', type: 'onboarding-handoff', detail: { state: 'claimed' }, sameClass: true },
        { callback: 'onSubmitted', type: 'onboarding-submitted', detail: { tokenOnboarding: 't-1' }, sameClass: true },
        {
          callback: 'onComplete',
          type: 'onboarding-complete',
          detail: { tokenOnboarding: 't-1', status: 'ERROR', externalId: 'x-9' },
          sameClass: true,
        },
        { callback: 'onError', type: 'onboarding-error', detail: { code: 'network', message: 'offline' }, sameClass: true },
        { callback: 'onContinue', type: 'onboarding-continue', detail: { tokenOnboarding: 't-1', status: 'APPROVED' }, sameClass: true },
      ]);

      // Re-render: a changed property reaches the element; a removed callback stops listening.
      await p.evaluate(() => window.__render({ locale: 'es', onStepChange: undefined }));
      const second = await state();
      assert.equal(second.locale, 'es');
      assert.equal(second.lang, 'es');
      assert.notEqual(second.heading, first.heading);
      await flow.locator('button[type=submit]').click();
      await flow.locator('section[data-step=document-type]').waitFor();
      assert.deepEqual(await log(p), []);

      assert.deepEqual(errors, []);
      assert.deepEqual(external, []);
    } finally {
      await context.close();
    }
  });
}

for (const major of Object.keys(VERSIONS)) {
  test(`React ${major}: hydrating server-rendered markup keeps the element, sets its properties, wires the callbacks`, async () => {
    const { context, external } = await isolatedContext(browser);
    try {
      const p = await context.newPage();
      const errors: string[] = [];
      p.on('pageerror', (e) => errors.push(String(e)));
      p.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      await p.goto(`${server.url}/react-${major}-ssr.html`);
      await p.waitForFunction(() => !!document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('section[data-step]'));
      await p.waitForFunction(() => document.querySelector('onboarding-flow')!.endpoint === '/kyc');
      const hydrated = await p.evaluate(() => {
        const el = document.querySelector('onboarding-flow')!;
        return { sameNode: el === window.__serverNode, version: window.__reactVersion, locale: el.locale, documentTypes: el.documentTypes };
      });
      assert.deepEqual(hydrated, { sameNode: true, version: INSTALLED[major], locale: 'en', documentTypes: 'PASSPORT' });
      assert.equal(hydrated.version.split('.')[0], major);
      const flow = p.locator('onboarding-flow');
      await flow.locator('section[data-step=intro] button.primary').click();
      await flow.locator('#consent').check();
      await flow.locator('button[type=submit]').click();
      await flow.locator('section[data-step=cpf]').waitFor();
      assert.deepEqual(await log(p), [
        { callback: 'onStepChange', type: 'onboarding-step-change', detail: { step: 'consent', previous: 'intro' }, sameClass: true },
        { callback: 'onStepChange', type: 'onboarding-step-change', detail: { step: 'cpf', previous: 'consent' }, sameClass: true },
      ]);
      // No hydration mismatch (reported as an error) and nothing off-host.
      assert.deepEqual(errors, []);
      assert.deepEqual(external, []);
    } finally {
      await context.close();
    }
  });
}
