/**
 * Live reading in real Chromium, the built script-tag bundle served as a page hosts it: the fake
 * camera loops the test card with a real QR code (a Y4M written here), the document step's camera
 * reads the code from the live frames and again from the photo it takes, and the selfie step's
 * camera, showing the same card, has nothing read.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '@onboarding-kit/testing/chromium';
import { QR_CARD_TEXT, qrCardRgb } from '@onboarding-kit/testing/qr-card';
import { serveStatic, type StaticServer } from '@onboarding-kit/testing/static-server';
import { encodeY4m } from '@onboarding-kit/testing/y4m';
import { BUNDLE_FILE } from '../vite.config.js';
import { buildDistIntoTemp, hostedFromManifest, type BuiltDist } from './support/built-dist.js';
import { walkToFirstPhoto } from './support/walk.js';

const ELEMENT = '<onboarding-flow cpf="529.982.247-25" document-types="PASSPORT" locale="en"></onboarding-flow>';
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kit</title></head><body>${ELEMENT}<script type="module" src="/kit/${BUNDLE_FILE}"></script></body></html>`;

let dist: BuiltDist;
let hosted: { dir: string; remove(): Promise<void> };
let server: StaticServer;
let browser: Browser;
let y4mDir: string;
before(async () => {
  dist = await buildDistIntoTemp();
  hosted = await hostedFromManifest(dist);
  server = await serveStatic({ pages: { '/shop/index.html': PAGE }, mount: { prefix: '/kit/', dir: hosted.dir } });
  y4mDir = await mkdtemp(join(tmpdir(), 'onboarding-qr-card-'));
  const y4m = join(y4mDir, 'qr-card.y4m');
  await writeFile(y4m, encodeY4m(qrCardRgb()));
  browser = await chromium.launch(chromiumLaunchOptions({ cameraY4m: y4m, grantCameraEverywhere: true }));
});
after(async () => {
  await browser?.close();
  await server?.close();
  await hosted?.remove();
  await dist?.remove();
  if (y4mDir) await rm(y4mDir, { recursive: true, force: true });
});

declare global {
  interface Window {
    /** What went to the reader's worker (thorough: a photo; else a live frame) and what it answered. */
    __reads: { sent: boolean[]; answers: (string | null)[] };
  }
}

/** Records the reader worker's requests and answers from the start of the page. */
function recordReader(p: Page) {
  return p.addInitScript(() => {
    window.__reads = { sent: [], answers: [] };
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        if (!String(args[0]).includes('reader-worker')) return;
        this.addEventListener('message', (e: MessageEvent<{ reading?: { qr?: { payloadBase64: string } } }>) => {
          window.__reads.answers.push(e.data?.reading?.qr?.payloadBase64 ?? null);
        });
      }
      override postMessage(message: unknown, transfer?: unknown): void {
        const thorough = (message as { thorough?: unknown } | null)?.thorough;
        if (typeof thorough === 'boolean') window.__reads.sent.push(thorough);
        super.postMessage(message, transfer as Transferable[]);
      }
    };
  });
}

test('the document camera reads the QR code live and from its photo; the selfie camera reads nothing', async () => {
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    await recordReader(p);
    await p.goto(`${server.url}/shop/index.html`);
    const flow = p.locator('onboarding-flow');
    await walkToFirstPhoto(p);

    const expected = Buffer.from(QR_CARD_TEXT).toString('base64');
    await flow.locator('[data-capture-start]').click();
    // A live frame's code, then (the card held still, the photo takes itself) the photo's.
    await p.waitForFunction((code) => window.__reads.answers.includes(code), expected, { timeout: 20_000 });
    const live = await p.evaluate(() => window.__reads);
    assert.equal(live.sent[0], false, 'the first read is a live frame');
    await flow.getByRole('button', { name: 'Use this photo' }).waitFor({ timeout: 20_000 });
    await p.waitForFunction(() => window.__reads.sent.includes(true));
    await p.waitForFunction((n) => window.__reads.answers.length === n, await p.evaluate(() => window.__reads.sent.length));
    const photo = await p.evaluate(() => window.__reads);
    assert.equal(photo.answers[photo.sent.lastIndexOf(true)], expected, "the photo's own reading has the code");

    await flow.getByRole('button', { name: 'Use this photo' }).click();
    await flow.locator('section[data-step="selfie"]').waitFor();
    const before = photo.sent.length;
    await flow.locator('[data-capture-start]').click();
    // The selfie camera plays (the same card in view) and its guidance runs for 3 s.
    await p.waitForFunction(() => {
      const view = document
        .querySelector('onboarding-flow')!
        .shadowRoot!.querySelector<HTMLElement & { video: HTMLVideoElement | null }>('onboarding-capture-view[open]');
      return (view?.video?.readyState ?? 0) >= 2;
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(await p.evaluate(() => window.__reads.sent.length), before, 'nothing was read on the selfie step');
  } finally {
    await context.close();
  }
});
