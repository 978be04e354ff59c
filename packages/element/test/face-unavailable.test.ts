/**
 * The face check cannot run: the built module bundle served beside everything it loads except
 * `onboarding-flow.liveness-worker.js`, the worker the face check runs in (a 404, as a deployment
 * that forgot the file gives). In real
 * Chromium the selfie step asks for the file, the element reports `face_detector_unavailable`
 * (once, as an `onboarding-error`), and the selfie is judged by the other checks only: a picture
 * with no face at all, which the face check would refuse, is accepted, and the person goes on to
 * the review.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { BUNDLE_FILE, LIVENESS_WORKER_FILE } from '../vite.config.js';
import { buildDistIntoTemp, type BuiltDist } from './support/built-dist.js';
import { isolatedContext, launchChromium } from '@onboarding-kit/testing/chromium';
import { serveStatic, type StaticServer } from '@onboarding-kit/testing/static-server';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>kit</title></head><body>
<onboarding-flow cpf="529.982.247-25" document-types="PASSPORT" locale="en"></onboarding-flow>
<script type="module" src="/kit/${BUNDLE_FILE}"></script></body></html>`;

let dist: BuiltDist;
let server: StaticServer;
let browser: Browser;
before(async () => {
  dist = await buildDistIntoTemp();
  assert.ok(dist.files.includes(LIVENESS_WORKER_FILE), `the build makes ${LIVENESS_WORKER_FILE}`);
  await rm(join(dist.dir, LIVENESS_WORKER_FILE));
  server = await serveStatic({ pages: { '/shop/index.html': PAGE }, mount: { prefix: '/kit/', dir: dist.dir } });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await dist?.remove();
});

declare global {
  interface Window {
    __faceTestEvents: { type: string; detail: { role?: string; code?: string; message?: string } }[];
  }
}

/** A sharp, evenly lit document-like picture (no face in it), drawn by the page's canvas. */
async function cardJpeg(p: Page): Promise<Buffer> {
  const bytes = await p.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 960;
    canvas.height = 1280;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#707070';
    ctx.fillRect(0, 0, 960, 1280);
    ctx.fillStyle = '#e8e8e8';
    ctx.fillRect(80, 200, 800, 880);
    ctx.fillStyle = '#202020';
    ctx.font = 'bold 40px sans-serif';
    for (let line = 0; line < 10; line++) ctx.fillText(`DOCUMENTO ${line} 529.982.247-25`, 120, 290 + line * 76);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.92));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  });
  return Buffer.from(bytes);
}

/** Waits until the element has answered the photo just given: a capture event, an error event, or a refusal. */
async function answered(p: Page, before: number): Promise<void> {
  await p.waitForFunction(
    (n) =>
      window.__faceTestEvents.filter((e) => e.type === 'onboarding-capture').length > n ||
      !!document.querySelector('onboarding-flow')!.shadowRoot!.querySelector('#capture-error'),
    before,
    { timeout: 20_000 },
  );
}

test('without the face detector file: face_detector_unavailable is reported once and the selfie is judged by the other checks, so the person can go on', async () => {
  const { context, external } = await isolatedContext(browser);
  try {
    const p = await context.newPage();
    await p.addInitScript(() => {
      window.__faceTestEvents = [];
      for (const type of ['onboarding-capture', 'onboarding-error']) {
        document.addEventListener(type, (e) => window.__faceTestEvents.push({ type, detail: (e as CustomEvent).detail }));
      }
    });
    await p.goto(`${server.url}/shop/index.html`);
    const flow = p.locator('onboarding-flow');
    const at = (step: string) => flow.locator(`section[data-step="${step}"]`);
    // Intro -> consent -> CPF (prefilled) -> document type (the only one, preselected) -> the passport's page.
    await at('intro').waitFor();
    await flow.locator('button.primary').click();
    await at('consent').waitFor();
    await flow.locator('#consent').check();
    await flow.locator('button[type=submit]').click();
    await at('cpf').waitFor();
    await flow.locator('button[type=submit]').click();
    await at('document-type').waitFor();
    await flow.locator('button[type=submit]').click();
    await at('document-front').waitFor();

    const jpeg = await cardJpeg(p);
    await flow.locator('input[type=file]').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await answered(p, 0);
    await flow.getByRole('button', { name: 'Use this photo' }).click();
    await at('selfie').waitFor();

    // The same picture as a selfie: no face in it, which the face check refuses when it can run.
    await flow.locator('input[type=file]').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await answered(p, 1);
    assert.equal(
      await flow.locator('#capture-error').count(),
      0,
      `the selfie was refused: ${await flow
        .locator('#capture-error')
        .textContent()
        .catch(() => '')}`,
    );
    const events = await p.evaluate(() => window.__faceTestEvents);
    assert.deepEqual(
      events.map((e) => (e.type === 'onboarding-error' ? `error ${e.detail.code}` : `capture ${e.detail.role}`)),
      ['capture documentFront', 'error face_detector_unavailable', 'capture selfie'],
    );
    assert.match(events[1]!.detail.message ?? '', /face detector could not be loaded/);
    // It was asked for (and answered 404), from the document step on: the element did try to start it.
    assert.ok(server.requests.includes(`GET /kit/${LIVENESS_WORKER_FILE}`), server.requests.join('\n'));

    // The person can go on: the selfie is kept and the review offers to send.
    await flow.getByRole('button', { name: 'Use this photo' }).click();
    await at('review').waitFor();
    assert.equal(await flow.locator('[part~=thumbnail]').count(), 2);
    assert.deepEqual(external, []);
  } finally {
    await context.close();
  }
});
