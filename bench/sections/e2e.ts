/**
 * Section 5, end to end in Chromium: the stack as `npm start` runs it (demo/start.ts in a child
 * process, embedded sandbox deciding at once: SANDBOX_PROCESSING_MS=0), the demo page with the
 * element's script-tag bundle, the fake camera; from the click on the review step's send button
 * to the outcome screen. Baseline: the same request body (recorded from the element's own
 * upload) replayed from the same page with fetch, reading the event stream until the outcome.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build, type UserConfig } from 'vite';
import { track } from '../lib/children.js';
import { REPO_ROOT } from '../lib/paths.js';
import { emptySection, type SectionResult } from '../lib/report.js';
import { median, ms, ratio, reason } from '../lib/stats.js';
import { withTimeout } from '../lib/timeout.js';
import { ELEMENT_DIST } from './bytes.js';

export interface E2eSettings {
  runs: number;
}

export const DEFAULT_E2E: E2eSettings = { runs: 5 };

const CPF = '529.982.247-25';

export interface Stack {
  url: string;
  stop(): Promise<void>;
}

export async function startStack(demoDir: string): Promise<Stack> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'demo/start.ts'], {
    cwd: REPO_ROOT,
    // ONBOARDING_STORE=memory: the bench never writes into the repository's ./data (npm start's default store).
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SANDBOX_PROCESSING_MS: '0',
      ONBOARDING_RATE_LIMIT: '0',
      ONBOARDING_CREATIONS_PER_CLIENT: '0',
      ONBOARDING_DEMO_DIR: demoDir,
      ONBOARDING_STORE: 'memory',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output = (output + d).slice(-20_000)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output = (output + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await withTimeout(
      new Promise<string>((resolve, reject) => {
        const look = () => {
          const m = /onboarding-kit demo: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
          if (m) resolve(m[1]!);
        };
        child.stdout!.on('data', look);
        void exited.then(() => reject(new Error(`demo/start.ts exited: ${output.trim().split('\n').slice(-2).join(' / ')}`)));
      }),
      30_000,
      'demo/start.ts printing its URL',
    );
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The demo pages as `npm run build` makes them (root vite.config.ts `demoConfig`), into a temp dir. */
export async function buildDemo(outDir: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(REPO_ROOT, 'vite.config.ts')).href)) as { demoConfig?: unknown };
  if (typeof mod.demoConfig !== 'function') throw new Error('vite.config.ts exports no demoConfig()');
  const demoConfig = mod.demoConfig as (o: { elementDist: string; outDir: string }) => UserConfig;
  await build({ configFile: false, ...demoConfig({ elementDist: ELEMENT_DIST, outDir }), logLevel: 'error' });
}

interface Run {
  uiMs: number;
  /** Click to `onboarding-submitted` (upload and creation). */
  submitMs: number;
  status: string;
  body: string;
}

async function waitForLiveCamera(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const view = document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('onboarding-capture-view[open]');
      const video = view?.shadowRoot?.querySelector('video');
      return !!video && video.readyState >= 2 && video.videoWidth > 0;
    },
    undefined,
    { timeout: 15_000 },
  );
}

/**
 * A selfie for the file picker (the fake camera shows a card, which the face check refuses):
 * NASA's public-domain portrait from the element's test fixtures, framed as a selfie, 720x960.
 */
export async function selfieJpeg(page: Page): Promise<Buffer> {
  const portrait = (await readFile(join(REPO_ROOT, 'packages', 'element', 'test', 'fixtures', 'faces', 'astronaut.jpg'))).toString(
    'base64',
  );
  const bytes = await page.evaluate(async (base64) => {
    const source = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }));
    const canvas = new OffscreenCanvas(720, 960);
    canvas.getContext('2d')!.drawImage(source, 135, 5, 180, 240, 0, 0, 720, 960);
    return Array.from(new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })).arrayBuffer()));
  }, portrait);
  return Buffer.from(bytes);
}

/** Walks the flow as a person would (selectors of the element's `data-step` / `part` attributes) and times the send. */
async function runFlow(page: Page, url: string): Promise<Run> {
  let body = '';
  const onRequest = (r: import('playwright-core').Request) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/onboardings') body = r.postData() ?? '';
  };
  page.on('request', onRequest);
  try {
    await page.goto(`${url}/`);
    const flow = page.locator('onboarding-flow');
    const step = (name: string) => flow.locator(`section[data-step="${name}"]`);
    const primary = flow.locator('[part~="button-primary"]');
    await step('intro').waitFor({ timeout: 15_000 });
    await primary.click();
    await step('consent').waitFor();
    await flow.locator('#consent').check();
    await primary.click();
    await step('cpf').waitFor();
    await flow.locator('#cpf').fill(CPF);
    await primary.click();
    await step('document-type').waitFor();
    await flow.locator('#doctype-CNH').check();
    await primary.click();
    for (const name of ['document-front', 'document-back', 'selfie']) {
      await step(name).waitFor();
      if (name === 'selfie') {
        await flow
          .locator('input[type=file]:not([capture])')
          .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: await selfieJpeg(page) });
      } else {
        await flow.locator('[data-capture-start]').click();
        await waitForLiveCamera(page);
        // The card usually takes itself (auto-capture); the shutter otherwise.
        await flow
          .locator('[part~="shutter"]')
          .click({ timeout: 2_000 })
          .catch(() => undefined);
      }
      await flow.locator('img[part~="preview"], #capture-error').first().waitFor({ timeout: 30_000 });
      if (await flow.locator('#capture-error').count())
        throw new Error(`the ${name} photo was refused: ${await flow.locator('#capture-error').textContent()}`);
      await primary.click();
    }
    await step('review').waitFor();
    // Timestamps taken in the page: the click (capture phase), the element's submitted event, the outcome in the DOM.
    await page.evaluate(() => {
      const el = document.querySelector('onboarding-flow')!;
      const root = el.shadowRoot!;
      const marks = { click: 0, submitted: 0, outcome: 0 };
      (window as unknown as { __e2e: typeof marks }).__e2e = marks;
      root.addEventListener('click', () => (marks.click ||= performance.now()), { capture: true });
      document.addEventListener('onboarding-submitted', () => (marks.submitted ||= performance.now()));
      const observer = new MutationObserver(() => {
        if (root.querySelector('[data-status]')) {
          marks.outcome = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(root, { subtree: true, childList: true, attributes: true });
    });
    await primary.click();
    await flow.locator('[data-status]').waitFor({ timeout: 45_000 });
    const marks = await page.evaluate(() => (window as unknown as { __e2e: { click: number; submitted: number; outcome: number } }).__e2e);
    const status = (await flow.locator('[data-status]').getAttribute('data-status')) ?? '';
    return { uiMs: marks.outcome - marks.click, submitMs: marks.submitted ? marks.submitted - marks.click : Number.NaN, status, body };
  } finally {
    page.off('request', onRequest);
  }
}

/** The floor: the element's own request body sent with fetch from the page, then its event stream read to the outcome. */
async function replay(page: Page, body: string): Promise<number> {
  return page.evaluate(async (json) => {
    const t0 = performance.now();
    const res = await fetch('/v1/onboardings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
    if (res.status !== 201) throw new Error(`replay: HTTP ${res.status}`);
    const { tokenOnboarding, accessKey } = (await res.json()) as { tokenOnboarding: string; accessKey: string };
    const events = await fetch(`/v1/onboardings/${tokenOnboarding}/events`, { headers: { authorization: `Bearer ${accessKey}` } });
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error('replay: the stream ended without an outcome');
      text += value;
      if (/"status":"(APPROVED|REFUSED|ERROR)"/.test(text)) {
        await reader.cancel();
        return performance.now() - t0;
      }
    }
  }, body);
}

export async function measureE2e(browser: Browser | undefined, settings: E2eSettings): Promise<SectionResult> {
  const s = emptySection('e2e', '5. End to end in Chromium: send click to outcome');
  s.method.push(
    '`demo/start.ts` (what `npm start` runs) in a child process with SANDBOX_PROCESSING_MS=0 and the demo pages built from the root vite.config.ts `demoConfig` into a temp dir (ONBOARDING_DEMO_DIR); Chromium with the fake camera.',
    "The flow is walked as a person would (consent, CPF 529.982.247-25, CNH, three camera photos, review); in-page timestamps from the click on send (capture-phase listener) to the moment `[data-status]` (the outcome screen) is in the element's shadow DOM (MutationObserver).",
    "Baseline: the element's own request body of that run (recorded) replayed from the same page with fetch, then its event stream read until the outcome: the floor of the same stack without the UI. " +
      'One untimed walk first (reported in the notes); each walk reloads the page.',
  );
  if (!browser) {
    s.notMeasured = 'Chromium could not be started';
    return s;
  }
  const startSource = await readFile(join(REPO_ROOT, 'demo', 'start.ts'), 'utf8').catch(() => '');
  if (!startSource) {
    s.notMeasured = 'demo/start.ts is missing';
    return s;
  }
  if (!/demoRoutes|ONBOARDING_DEMO_DIR|demoDistDir/.test(startSource)) {
    s.notMeasured = 'demo/start.ts does not serve the demo page yet (it serves a placeholder without <onboarding-flow>)';
    return s;
  }
  const dir = await mkdtemp(join(tmpdir(), 'onboarding-kit-bench-demo-'));
  let stack: Stack | undefined;
  const context = await browser.newContext({ permissions: ['camera'], viewport: { width: 1280, height: 900 } });
  try {
    try {
      await withTimeout(buildDemo(join(dir, 'demo')), 180_000, 'the demo build');
    } catch (error) {
      s.notMeasured = `the demo page could not be built (${reason(error)})`;
      return s;
    }
    stack = await startStack(join(dir, 'demo'));
    const html = await (await fetch(`${stack.url}/`)).text();
    if (!html.includes('<onboarding-flow')) {
      s.notMeasured = 'the page npm start serves at / has no <onboarding-flow>';
      return s;
    }
    const page = await context.newPage();
    const runs: Run[] = [];
    const floors: number[] = [];
    // One untimed walk first: the first send of a fresh page pays for the pipeline module, the worker library and cold servers.
    const cold = await withTimeout(runFlow(page, stack.url), 120_000, 'the warm-up walk through the flow');
    const coldFloor = cold.body ? await withTimeout(replay(page, cold.body), 60_000, 'the replay') : Number.NaN;
    s.notes.push(`cold first walk (not in the medians): click -> outcome ${ms(cold.uiMs)}, replay ${ms(coldFloor)}.`);
    for (let i = 0; i < settings.runs; i++) {
      const run = await withTimeout(runFlow(page, stack.url), 120_000, 'one walk through the flow');
      runs.push(run);
      if (run.body) floors.push(await withTimeout(replay(page, run.body), 60_000, 'the replay'));
    }
    const ui = median(runs.map((r) => r.uiMs));
    const floor = median(floors);
    s.tables.push({
      title: `Send click to outcome screen, median of ${runs.length} (sandbox processing 0 ms)`,
      headers: ['path', 'median', 'min', 'max', 'ratio'],
      rows: [
        ['baseline: same body with fetch + event stream', ms(floor), ms(Math.min(...floors)), ms(Math.max(...floors)), '1.00x'],
        [
          'element: click -> outcome screen',
          ms(ui),
          ms(Math.min(...runs.map((r) => r.uiMs))),
          ms(Math.max(...runs.map((r) => r.uiMs))),
          ratio(ui, floor),
        ],
        ['  of which click -> onboarding-submitted', ms(median(runs.map((r) => r.submitMs))), '', '', ''],
      ],
    });
    s.notes.push(`outcomes: ${runs.map((r) => r.status).join(', ')}; upload body ${(runs[0]!.body.length / 1024).toFixed(0)} KB.`);
    return s;
  } catch (error) {
    s.notMeasured = `the flow could not be completed (${reason(error)})`;
    return s;
  } finally {
    await context.close().catch(() => undefined);
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
