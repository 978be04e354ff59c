/**
 * Both script-tag forms in real Chromium, served by a real HTTP server (only the files
 * dist/hosting-manifest.json lists) under a strict Content-Security-Policy (the one
 * docs/distribution.md recommends): the element registers, renders with its styles, the first load is the one script, and the first processed photo
 * fetches the pipeline module and the image worker from beside the script (the page lives in
 * another directory), the worker prepares the photo, with no CSP violation and nothing off-host;
 * the selfie step then fetches the face detector from beside the script, and it accepts a face.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import {
  BUNDLE_FILE,
  CAPTURE_VIEW_FILE,
  CONSENT_TEXT_FILE,
  IIFE_FILE,
  IIFE_GLOBAL,
  IMAGE_WORKER_FILE,
  LIVENESS_WORKER_FILE,
  PHOTO_STEPS_FILE,
  PIPELINE_FILE,
  READER_WORKER_FILE,
} from '../vite.config.js';
import { buildDistIntoTemp, hostedFromManifest, type BuiltDist } from './support/built-dist.js';
import { walkToFirstPhoto } from './support/walk.js';
import { isolatedContext, launchChromium } from '@onboarding-kit/testing/chromium';
import { serveStatic, type StaticServer } from '@onboarding-kit/testing/static-server';

/** docs/distribution.md's policy, with the companion on the same origin. */
export const STRICT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "img-src 'self' blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "style-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ELEMENT = '<onboarding-flow cpf="529.982.247-25" document-types="PASSPORT" locale="en" max-image-bytes="40000"></onboarding-flow>';
const page = (script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kit</title></head><body>${ELEMENT}${script}</body></html>`;
const PAGES = {
  '/shop/module.html': page(`<script type="module" src="/kit/${BUNDLE_FILE}"></script>`),
  '/shop/classic.html': page(`<script src="/kit/${IIFE_FILE}"></script>`),
};

let dist: BuiltDist;
let hosted: { dir: string; remove(): Promise<void> };
let server: StaticServer;
let browser: Browser;
before(async () => {
  dist = await buildDistIntoTemp();
  // Served as a page following dist/hosting-manifest.json hosts it: those files and nothing else.
  hosted = await hostedFromManifest(dist);
  server = await serveStatic({
    pages: PAGES,
    mount: { prefix: '/kit/', dir: hosted.dir },
    headers: { 'content-security-policy': STRICT_CSP },
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await hosted?.remove();
  await dist?.remove();
});

declare global {
  interface Window {
    __violations: string[];
    __events: { type: string; detail: unknown }[];
    __workerReplies: ('file' | 'reading' | 'liveness' | 'error' | 'other')[];
  }
}

/**
 * Records CSP violations, the element's events, and what the workers answer (a prepared JPEG, a
 * document reading, or an error), from the very start of the page.
 */
function recordPage(p: Page) {
  return p.addInitScript(() => {
    window.__violations = [];
    window.__events = [];
    window.__workerReplies = [];
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        this.addEventListener(
          'message',
          (e: MessageEvent<{ ok?: boolean; kind?: string; image?: { jpeg?: unknown }; reading?: unknown; error?: unknown }>) => {
            const reply =
              e.data?.ok && e.data.kind
                ? 'liveness'
                : e.data?.ok && e.data.image?.jpeg instanceof Blob
                  ? 'file'
                  : e.data?.ok && e.data.reading
                    ? 'reading'
                    : e.data?.error
                      ? 'error'
                      : 'other';
            window.__workerReplies.push(reply);
          },
        );
      }
    };
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    for (const type of ['onboarding-capture', 'onboarding-error', 'onboarding-step-change']) {
      document.addEventListener(type, (e) => window.__events.push({ type, detail: (e as CustomEvent).detail }));
    }
  });
}

/**
 * A 2400x1350 document-like PNG (sharp edges, mid exposure) drawn by the page's canvas: over the
 * element's 2000 px long-edge cap, so the image worker must resize it.
 */
async function cardPng(p: Page): Promise<Buffer> {
  const bytes = await p.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1350;
    const ctx = canvas.getContext('2d')!;
    ctx.scale(2400 / 1280, 1350 / 720);
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

/**
 * A selfie as a file: NASA's public-domain portrait (test/fixtures/faces/README.md) cropped to
 * her face as the oval's box would hold it, 480x640, drawn by the page's canvas.
 */
async function selfieJpeg(p: Page): Promise<Buffer> {
  const portrait = (await readFile(new URL('./fixtures/faces/astronaut.jpg', import.meta.url))).toString('base64');
  const bytes = await p.evaluate(async (base64) => {
    const jpeg = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const source = await createImageBitmap(new Blob([jpeg], { type: 'image/jpeg' }));
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 640;
    canvas.getContext('2d')!.drawImage(source, 135, 5, 180, 240, 0, 0, 480, 640);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.92));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  }, portrait);
  return Buffer.from(bytes);
}

const sincePageLoad = (from: number) => server.requests.slice(from).filter((r) => r !== 'GET /favicon.ico');

for (const [form, path, script] of [
  ['module', '/shop/module.html', BUNDLE_FILE],
  ['classic', '/shop/classic.html', IIFE_FILE],
] as const) {
  test(`${form} script tag: registers, first load is one script, a capture step fetches the camera view and the pipeline from beside it, the first photo the worker library, the selfie step the face detector, CSP clean`, async () => {
    const { context, external } = await isolatedContext(browser);
    try {
      const p = await context.newPage();
      const consoleErrors: string[] = [];
      p.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));
      p.on('pageerror', (e) => consoleErrors.push(String(e)));
      await recordPage(p);
      const from = server.requests.length;
      await p.goto(`${server.url}${path}`);
      await p.waitForFunction(() => !!customElements.get('onboarding-flow'));

      const flow = p.locator('onboarding-flow');
      await flow.locator('section[data-step="intro"]').waitFor();
      const rendered = await p.evaluate((global) => {
        const el = document.querySelector('onboarding-flow')!;
        const primary = el.shadowRoot!.querySelector('button.primary')!;
        return {
          isClass: el instanceof customElements.get('onboarding-flow')!,
          globalClass:
            (window as unknown as Record<string, { OnboardingFlow?: unknown } | undefined>)[global]?.OnboardingFlow ===
            customElements.get('onboarding-flow'),
          adopted: el.shadowRoot!.adoptedStyleSheets.length,
          primaryBackground: getComputedStyle(primary).backgroundColor,
        };
      }, IIFE_GLOBAL);
      assert.equal(rendered.isClass, true);
      // Only the classic script exposes its exports as a global.
      assert.equal(rendered.globalClass, form === 'classic');
      // Lit's styles arrive as constructed style sheets: style-src 'self' is enough.
      assert.ok(rendered.adopted > 0);
      assert.equal(rendered.primaryBackground, 'rgb(11, 87, 164)');
      // Theming through a custom property set with the CSSOM (no inline style needed).
      await p.evaluate(() => document.querySelector('onboarding-flow')!.style.setProperty('--onboarding-color-primary', 'rgb(1, 2, 3)'));
      assert.equal(await flow.locator('button.primary').evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(1, 2, 3)');

      // Intro (its pictures drawn inline) -> consent -> CPF (prefilled) -> document type (the only one, preselected) -> front photo.
      // A passport has no back: two pictures, its page and the selfie.
      assert.equal(await flow.locator('[part~=intro-photos] svg').count(), 2);
      await walkToFirstPhoto(p);

      // Everything so far: the page, the one script, the full consent text it fetched from beside
      // itself once connected, and the photo steps, fetched from beside it too while the person
      // went through the consent and data steps; then, while the person reads the capture step,
      // the camera view, the image pipeline and its worker (fetched ahead: the page can open a camera),
      // and the document reader's worker (fetched during the data steps, or on this step at the latest).
      await flow.locator('input[type=file]').waitFor({ state: 'attached' });
      const ahead = [
        `GET /kit/${CAPTURE_VIEW_FILE}`,
        `GET /kit/${PIPELINE_FILE}`,
        `GET /kit/${IMAGE_WORKER_FILE}`,
        `GET /kit/${READER_WORKER_FILE}`,
        `GET /kit/${LIVENESS_WORKER_FILE}`,
      ];
      for (let i = 0; i < 100 && !ahead.every((r) => sincePageLoad(from).includes(r)); i++) await new Promise((r) => setTimeout(r, 50));
      const first = sincePageLoad(from);
      assert.deepEqual(first.slice(0, 4), [
        `GET ${path}`,
        `GET /kit/${script}`,
        `GET /kit/${CONSENT_TEXT_FILE}`,
        `GET /kit/${PHOTO_STEPS_FILE}`,
      ]);
      // The scripts only: the liveness worker fetches its model's files in its own time.
      const scripts = first.slice(4).filter((r) => r.endsWith('.js'));
      assert.deepEqual(scripts.sort(), [...ahead].sort(), first.join('\n'));

      const png = await cardPng(p);
      await flow.locator('input[type=file]').setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: png });
      await p.waitForFunction(
        () =>
          window.__events.some((e) => e.type === 'onboarding-capture' || e.type === 'onboarding-error') ||
          !!document.querySelector('onboarding-flow')!.shadowRoot!.querySelector('#capture-error'),
        undefined,
        { timeout: 20_000 },
      );
      const captureError = await flow.locator('#capture-error').count();
      assert.equal(captureError, 0, `the photo was refused: ${captureError ? await flow.locator('#capture-error').textContent() : ''}`);
      const capture = (await p.evaluate(() => window.__events)).find((e) => e.type === 'onboarding-capture');
      // The page caps photos at 40,000 bytes (max-image-bytes), which the element's own first JPEG
      // of this card exceeds: browser-image-compression, inside the built worker file, brings it under.
      const detail = capture?.detail as {
        role: string;
        bytes: number;
        width: number;
        height: number;
        processedIn: string;
        processedBy: string;
      };
      assert.deepEqual(
        { role: detail.role, processedIn: detail.processedIn, processedBy: detail.processedBy },
        { role: 'documentFront', processedIn: 'worker', processedBy: 'library' },
      );
      assert.ok(detail.bytes <= 40_000 && detail.bytes > 1000, `${detail.bytes} bytes`);
      assert.ok(detail.width <= 2000 && Math.abs(detail.width / detail.height - 16 / 9) < 0.02, `${detail.width}x${detail.height}`);
      // The preview is a blob: URL, allowed by img-src blob:.
      await p.waitForFunction(
        (width) =>
          (document.querySelector('onboarding-flow')!.shadowRoot!.querySelector('img[part=preview]') as HTMLImageElement | null)
            ?.naturalWidth === width,
        detail.width,
      );

      const requests = sincePageLoad(from);
      assert.ok(requests.includes(`GET /kit/${PIPELINE_FILE}`), requests.join('\n'));
      // The image worker came from beside the script too ...
      assert.ok(requests.includes(`GET /kit/${IMAGE_WORKER_FILE}`), requests.join('\n'));
      // ... and it prepared the photo (one answer, a JPEG: nothing fell back to the main thread);
      // the reader's worker, from beside the script as well, then read the accepted photo.
      await p.waitForFunction(() => window.__workerReplies.includes('reading'));
      assert.deepEqual(
        (await p.evaluate(() => window.__workerReplies)).filter((r) => r !== 'liveness'),
        ['file', 'reading'],
      );

      // The selfie step's face check runs in the liveness worker, and it passes a face.
      await flow.getByRole('button', { name: 'Use this photo' }).click();
      await flow.locator('section[data-step="selfie"]').waitFor();
      await flow.locator('input[type=file]').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: await selfieJpeg(p) });
      await p.waitForFunction(
        () =>
          window.__events.filter((e) => e.type === 'onboarding-capture' || e.type === 'onboarding-error').length > 1 ||
          !!document.querySelector('onboarding-flow')!.shadowRoot!.querySelector('#capture-error'),
        undefined,
        { timeout: 20_000 },
      );
      assert.equal(await flow.locator('#capture-error').count(), 0, 'the selfie was refused');
      assert.deepEqual(
        (await p.evaluate(() => window.__events)).filter((e) => e.type === 'onboarding-error'),
        [],
      );
      const faceRequests = sincePageLoad(from).filter((r) => r.includes(LIVENESS_WORKER_FILE));
      assert.deepEqual(faceRequests, [`GET /kit/${LIVENESS_WORKER_FILE}`]);

      assert.deepEqual(
        sincePageLoad(from).filter((r) => r.includes('/shop/') && r !== `GET ${path}`),
        [],
        'nothing resolved against the page',
      );
      assert.deepEqual(external, []);
      assert.deepEqual(await p.evaluate(() => window.__violations), []);
      assert.deepEqual(consoleErrors, []);
    } finally {
      await context.close();
    }
  });
}
