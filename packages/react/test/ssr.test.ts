/**
 * Server-side rendering (as in Next.js or Remix): the wrapper imports under plain Node with no
 * DOM, and renderToString gives the element's tag, with the HTML attributes React renders
 * (id, class) and without the properties and callbacks, which only the browser can set. React 19
 * directly under Node; React 18 through a Vite server bundle (react-dom-18 cannot load its own
 * React under plain Node, where its `require('react')` finds the workspace's React 19).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SERVER_CONDITIONS = ['source', 'node', 'import', 'module', 'default'];

test('importing the wrapper during SSR does not throw and touches no DOM', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  const mod = await import('@onboarding-kit/react');
  assert.equal(typeof mod.OnboardingFlow, 'object', 'a forwardRef component');
  assert.equal(mod.OnboardingFlow.displayName, 'OnboardingFlow');
  assert.equal(typeof mod.createOnboardingFlow, 'function');
  assert.equal(mod.ONBOARDING_FLOW_EVENTS.onComplete, 'onboarding-complete');
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
});

test('one callback per element event, named after it', async () => {
  const { ONBOARDING_FLOW_EVENTS } = await import('@onboarding-kit/react');
  const { ONBOARDING_EVENTS } = await import('@onboarding-kit/element');
  assert.deepEqual(Object.values(ONBOARDING_FLOW_EVENTS), [...ONBOARDING_EVENTS]);
  for (const [callback, event] of Object.entries(ONBOARDING_FLOW_EVENTS)) {
    // onboarding-step-change -> onStepChange
    const words = event.split('-').slice(1);
    assert.equal(callback, `on${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`);
  }
  assert.equal(ONBOARDING_FLOW_EVENTS.onStepChange, 'onboarding-step-change');
  assert.equal(ONBOARDING_FLOW_EVENTS.onContinue, 'onboarding-continue');
});

test('renderToString gives <onboarding-flow> with its attributes and slotted children (React 19)', async () => {
  const { OnboardingFlow } = await import('@onboarding-kit/react');
  const html = renderToString(
    createElement(
      OnboardingFlow,
      {
        id: 'kyc',
        className: 'checkout-kyc',
        endpoint: 'https://api.example.com/v1',
        locale: 'en',
        onComplete: () => {},
      },
      createElement('img', { slot: 'logo', src: '/logo.svg', alt: 'Shop' }),
    ),
  );
  // React 19 may put a resource hint (<link rel="preload"> for the logo) before it.
  const element = /<onboarding-flow\b([^>]*)>(.*)<\/onboarding-flow>$/.exec(html);
  assert.ok(element, html);
  const [, attributes, children] = element;
  assert.match(attributes!, /\bid="kyc"/);
  assert.match(attributes!, /\bclass="checkout-kyc"/);
  assert.equal(children, '<img slot="logo" src="/logo.svg" alt="Shop"/>');
  // Callbacks never become attributes; properties are set on the element in the browser.
  assert.doesNotMatch(html, /onComplete|oncomplete|function/i);
});

test('React 18: a server bundle of the wrapper (as a framework builds one) renders <onboarding-flow>', async () => {
  const outDir = await mkdtemp(join(tmpdir(), 'onboarding-react-ssr-'));
  try {
    await build({
      configFile: false,
      root: PACKAGE_DIR,
      logLevel: 'error',
      publicDir: false,
      resolve: {
        conditions: SERVER_CONDITIONS,
        alias: [
          { find: /^react$/, replacement: 'react-18' },
          { find: /^react\/(.*)$/, replacement: 'react-18/$1' },
          { find: /^react-dom$/, replacement: 'react-dom-18' },
          { find: /^react-dom\/(.*)$/, replacement: 'react-dom-18/$1' },
        ],
      },
      ssr: { noExternal: true, target: 'node', resolve: { conditions: SERVER_CONDITIONS, externalConditions: ['node'] } },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        ssr: join(PACKAGE_DIR, 'test/fixtures/ssr-entry.ts'),
        outDir,
        emptyOutDir: false,
        minify: false,
        rolldownOptions: { output: { format: 'es', entryFileNames: 'server.mjs' } },
      },
    });
    const server = (await import(pathToFileURL(join(outDir, 'server.mjs')).href)) as typeof import('./fixtures/ssr-entry.js');
    assert.equal(server.reactVersion.split('.')[0], '18');
    const html = server.render();
    assert.match(html, /^<onboarding-flow [^>]*\bid="kyc"[^>]*>/);
    assert.match(html, /^<onboarding-flow [^>]*\bclass="checkout-kyc"/);
    assert.match(html, /<span slot="logo">Shop<\/span><\/onboarding-flow>$/);
    assert.doesNotMatch(html, /onComplete|function/i);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
