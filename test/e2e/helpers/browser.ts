/**
 * One headless Chromium for the whole suite (the workspace's one launcher,
 * @onboarding-kit/testing/chromium) with a fake camera that loops a real document-like picture
 * (the shared card picture, written as Y4M). Each test gets a fresh context whose traffic is
 * recorded for the secret scan: every request and response the page saw (headers and bodies),
 * requests that got no answer, event streams byte by byte as they arrived (also the ones the
 * page aborted, whose body Playwright cannot give), and every console message; besides, requests
 * to other hosts (aborted), CSP violations and uncaught page errors.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { renderCardPictureRgba } from '@onboarding-kit/testing/card-picture';
import { isLoopback, launchChromium } from '@onboarding-kit/testing/chromium';
import { REPO_ROOT } from './stack.js';

export function launchBrowser(): Promise<Browser> {
  // Camera permission is granted (or not) per context, so the refusal path stays testable.
  return launchChromium({ camera: 'card' });
}

/** One network exchange as the page saw it. */
export interface Exchange {
  url: string;
  method: string;
  /** 0: no answer (the request failed). */
  status: number;
  /** `stream`: an event stream's bytes as they arrived (its request/response pair is recorded too). */
  kind?: 'stream';
  requestHeaders: string;
  requestBody: string;
  responseHeaders: string;
  responseBody: string;
}

export interface Recorded {
  context: BrowserContext;
  page: Page;
  exchanges: Exchange[];
  external: string[];
  failed: string[];
  pageErrors: string[];
  consoleErrors: string[];
  /** Every console message of the page, for the secret scan. */
  consoleMessages: string[];
  /** Waits for every response body still streaming (SSE) and returns the exchanges. */
  settle(ms?: number): Promise<Exchange[]>;
  cspViolations(): Promise<string[]>;
}

/** `locale`: the browser's language (default en-GB). */
export async function recordedContext(browser: Browser, options: { camera: boolean; locale?: string }): Promise<Recorded> {
  const context = await browser.newContext({
    permissions: options.camera ? ['camera'] : [],
    viewport: { width: 1280, height: 900 },
    locale: options.locale ?? 'en-GB',
  });
  const exchanges: Exchange[] = [];
  const pending: Promise<void>[] = [];
  const external: string[] = [];
  const failed: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const consoleMessages: string[] = [];

  await context.route(
    (url) => !isLoopback(url),
    async (route) => {
      external.push(`${route.request().method()} ${route.request().url()}`);
      await route.abort('blockedbyclient');
    },
  );
  // Init scripts run before the page's own and are not subject to its CSP.
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} sample="${e.sample}"`),
    );
  });

  context.on('response', (response) => {
    const request = response.request();
    if (response.status() >= 400) failed.push(`${request.method()} ${response.url()} -> ${response.status()}`);
    pending.push(
      (async () => {
        const [requestHeaders, responseHeaders] = await Promise.all([request.allHeaders(), response.allHeaders()]);
        let responseBody = '';
        try {
          responseBody = (await response.body()).toString('latin1');
        } catch {
          // Redirects and aborted streams have no body.
        }
        exchanges.push({
          url: response.url(),
          method: request.method(),
          status: response.status(),
          requestHeaders: Object.entries(requestHeaders)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'),
          requestBody: request.postDataBuffer()?.toString('latin1') ?? '',
          responseHeaders: Object.entries(responseHeaders)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'),
          responseBody,
        });
      })().catch(() => {}),
    );
  });
  context.on('requestfailed', (request) => {
    pending.push(
      (async () => {
        if (await request.response().catch(() => null)) return;
        exchanges.push({
          url: request.url(),
          method: request.method(),
          status: 0,
          requestHeaders: Object.entries(await request.allHeaders())
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n'),
          requestBody: request.postDataBuffer()?.toString('latin1') ?? '',
          responseHeaders: '',
          responseBody: '',
        });
      })().catch(() => {}),
    );
    if (!isLoopback(request.url())) return;
    // Chromium reports every HEAD request as ERR_ABORTED once its headers arrived (there is no
    // body to finish): a request that got a response is judged by its status above instead.
    pending.push(
      request.response().then(
        (response) => {
          if (!response) failed.push(`${request.method()} ${request.url()} -> ${request.failure()?.errorText ?? 'failed'}`);
        },
        () => {},
      ),
    );
  });

  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    consoleMessages.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const streams = await recordEventStreams(context, page);

  return {
    context,
    page,
    exchanges,
    external,
    failed,
    pageErrors,
    consoleErrors,
    consoleMessages,
    async settle(ms = 10_000) {
      await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, ms))]);
      exchanges.push(...streams.take());
      return exchanges;
    },
    async cspViolations() {
      const all: string[] = [];
      for (const p of context.pages()) all.push(...(await p.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])));
      return all;
    },
  };
}

/**
 * The bytes of every `text/event-stream` response of `page` as they arrive, through the DevTools
 * protocol's resource streaming: Playwright hands a body over only once it has ended, and the
 * page aborts a status stream when it is done with it or leaves.
 */
async function recordEventStreams(context: BrowserContext, page: Page): Promise<{ take(): Exchange[] }> {
  const cdp = await context.newCDPSession(page);
  const streams = new Map<string, { url: string; status: number; headers: string; chunks: string[] }>();
  const text = (base64: string | undefined) => (base64 ? Buffer.from(base64, 'base64').toString('latin1') : '');
  cdp.on('Network.responseReceived', (e) => {
    if (!/^text\/event-stream/i.test(e.response.mimeType)) return;
    const entry = {
      url: e.response.url,
      status: e.response.status,
      headers: Object.entries(e.response.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
      chunks: [] as string[],
    };
    streams.set(e.requestId, entry);
    // What arrived before this call comes back at once; the rest comes with each Network.dataReceived.
    cdp.send('Network.streamResourceContent', { requestId: e.requestId }).then(
      (r) => entry.chunks.unshift(text(r.bufferedData)),
      () => {},
    );
  });
  cdp.on('Network.dataReceived', (e) => {
    const entry = streams.get(e.requestId);
    if (entry && e.data) entry.chunks.push(text(e.data));
  });
  await cdp.send('Network.enable');
  return {
    take() {
      const out = [...streams.values()].map(
        (s): Exchange => ({
          url: s.url,
          method: 'GET',
          status: s.status,
          kind: 'stream',
          requestHeaders: '',
          requestBody: '',
          responseHeaders: s.headers,
          responseBody: s.chunks.join(''),
        }),
      );
      streams.clear();
      return out;
    },
  };
}

/** Saves numbered full-page screenshots under test/artifacts/e2e/<name>/. */
export function screenshots(page: Page, name: string) {
  const dir = join(REPO_ROOT, 'test', 'artifacts', 'e2e', name);
  // A fresh set per run: no screenshot from an earlier run is left beside these.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const saved: string[] = [];
  return {
    saved,
    async take(step: string): Promise<void> {
      const path = join(dir, `${String(++n).padStart(2, '0')}-${step}.png`);
      await page.screenshot({ path, fullPage: true });
      saved.push(path);
    },
  };
}

/**
 * The fake camera's picture as a real JPEG file (what a person would pick from their files),
 * encoded by the browser itself since Node has no JPEG encoder. Written to `path`.
 */
export async function writeCardJpeg(browser: Browser, path: string): Promise<void> {
  const { width, height, rgba } = renderCardPictureRgba();
  await writeJpegMadeInPage(browser, path, (page) =>
    page.evaluate(
      async ({ width, height, data }) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const canvas = new OffscreenCanvas(width, height);
        canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(bytes.buffer), width, height), 0, 0);
        const out = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })).arrayBuffer());
        let binary = '';
        for (let i = 0; i < out.length; i += 0x8000) binary += String.fromCharCode(...out.subarray(i, i + 0x8000));
        return btoa(binary);
      },
      { width, height, data: Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength).toString('base64') },
    ),
  );
}

/**
 * A selfie as a real JPEG file, for the selfie step's file picker (its face check refuses the
 * card): NASA's public-domain portrait (packages/element/test/fixtures/faces/README.md) cropped
 * to her face as a selfie frames it, 720x960 (the pipeline needs at least 640x480) at quality
 * 0.92, the picture `faceJpeg()` makes for the element's own tests. Written to `path`.
 */
export async function writeFaceJpeg(browser: Browser, path: string): Promise<void> {
  const portrait = readFileSync(new URL('../../../packages/element/test/fixtures/faces/astronaut.jpg', import.meta.url)).toString('base64');
  await writeJpegMadeInPage(browser, path, (page) =>
    page.evaluate(async (data) => {
      const source = await createImageBitmap(new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }));
      const canvas = new OffscreenCanvas(720, 960);
      canvas.getContext('2d')!.drawImage(source, 135, 5, 180, 240, 0, 0, 720, 960);
      const out = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })).arrayBuffer());
      let binary = '';
      for (let i = 0; i < out.length; i += 0x8000) binary += String.fromCharCode(...out.subarray(i, i + 0x8000));
      return btoa(binary);
    }, portrait),
  );
}

/** Writes at `path` the JPEG that `make` encodes (as base64) in a blank page of `browser`. */
async function writeJpegMadeInPage(browser: Browser, path: string, make: (page: Page) => Promise<string>): Promise<void> {
  const page = await browser.newPage();
  try {
    writeFileSync(path, Buffer.from(await make(page), 'base64'));
  } finally {
    await page.close();
  }
}
