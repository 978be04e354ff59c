/**
 * Section 7, the selfie's face check: what its cascade weighs inside `onboarding-flow.liveness-worker.js`
 * (the worker it runs in, with the challenge's model; code and cascade apart)
 * and how long one selfie judgement takes in Chromium, Firefox and WebKit, next to the image
 * pipeline's own checks on the same picture measured in the same page (the baseline every selfie
 * already pays).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { buildLivenessWorker } from '@onboarding-kit/element/internal/build-bundles';
import type { FaceRun, LivenessRun } from '../face-page/entry.js';
import { buildBenchPage } from '../lib/page-build.js';
import { REPO_ROOT } from '../lib/paths.js';
import { emptySection, type SectionResult } from '../lib/report.js';
import { kb, median, ms, ratio, reason } from '../lib/stats.js';
import { serveDirectory } from '../lib/static-server.js';
import { withTimeout } from '../lib/timeout.js';
import { ELEMENT_DIST } from './bytes.js';

/** The face check runs in the liveness worker, which carries its cascade. */
const FACE_FILE = 'onboarding-flow.liveness-worker.js';
const PORTRAIT = join(REPO_ROOT, 'packages', 'element', 'test', 'fixtures', 'faces', 'astronaut.jpg');

export interface FaceSettings {
  /** Timed runs per engine, after one warm-up. */
  runs: number;
}

export const DEFAULT_FACE: FaceSettings = { runs: 11 };

type Engine = 'chromium' | 'firefox' | 'webkit';
type Page = {
  prepare(): Promise<{ width: number; height: number }>;
  run(i: number): Promise<FaceRun>;
  liveness(ms: number): Promise<LivenessRun>;
  close(): Promise<void>;
};

/** How long the liveness challenge runs on the portrait's live video in each engine, ms. */
const LIVENESS_MS = 12_000;

async function buildPage(dir: string): Promise<void> {
  await buildBenchPage(dir, 'face', 'face-entry.js');
  // The liveness worker and its model's files beside the page, where the page's client looks.
  await buildLivenessWorker(dir);
}

/** The bench page in one engine (Chromium through the run's Playwright browser, the others through @onboarding-kit/testing's launchers). */
async function openPage(engine: Engine, url: string, chromium: Browser | undefined, portrait: string): Promise<Page> {
  if (engine === 'chromium') {
    if (!chromium) throw new Error('Chromium could not be started');
    const context = await chromium.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => typeof window.__faceBench === 'object', undefined, { timeout: 30_000 });
    return {
      prepare: () => page.evaluate((b) => window.__faceBench.prepare(b), portrait),
      run: (i) => page.evaluate((n) => window.__faceBench.run(n), i),
      liveness: (t) => page.evaluate((n) => window.__faceBench.liveness(n), t),
      close: () => context.close(),
    };
  }
  if (engine === 'firefox') {
    const { launchFirefox } = await import('@onboarding-kit/testing/firefox');
    const browser = await launchFirefox({ camera: 'none' });
    try {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => typeof window.__faceBench === 'object', { timeout: 30_000 });
      return {
        prepare: () => page.evaluate((b) => window.__faceBench.prepare(b), portrait),
        run: (i) => page.evaluate((n) => window.__faceBench.run(n), i),
        liveness: (t) => page.evaluate((n) => window.__faceBench.liveness(n), t),
        close: () => browser.close(),
      };
    } catch (error) {
      await browser.close();
      throw error;
    }
  }
  const { launchWebKit } = await import('@onboarding-kit/testing/webkit');
  const session = await launchWebKit({ camera: false });
  try {
    await session.setTimeouts({ script: 60_000 });
    await session.goto(url);
    await session.executeAsync(async () => {
      while (typeof window.__faceBench !== 'object') await new Promise((r) => setTimeout(r, 20));
    });
    return {
      prepare: () => session.executeAsync((b: string) => window.__faceBench.prepare(b), portrait),
      run: (i) => session.executeAsync((n: number) => window.__faceBench.run(n), i),
      liveness: (t) => session.executeAsync((n: number) => window.__faceBench.liveness(n), t),
      close: () => session.close(),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}

const gzip = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

/** The file's bytes, and how they split into the licence notice, the model's numbers and the code. */
async function bytesOfFile(): Promise<string[][]> {
  const file = await readFile(join(ELEMENT_DIST, FACE_FILE), 'utf8');
  const notice = /^(\/\*![\s\S]*?\*\/\s*)+/.exec(file)?.[0] ?? '';
  // The model as the minifier writes it: one object literal of three arrays of numbers.
  const model = /\{width:\d+,height:\d+,stages:\[[^\]]*\],weak:\[[^\]]*\],features:\[[^\]]*\]\}/.exec(file)?.[0];
  if (!model) throw new Error(`the model's literal was not found in ${FACE_FILE}`);
  const code = file.slice(notice.length).replace(model, '');
  const count = (name: string) => new RegExp(`${name}:\\[([^\\]]*)\\]`).exec(model)![1]!.split(',').length;
  const row = (what: string, text: string) => [what, kb(Buffer.byteLength(text)), kb(gzip(text))];
  return [
    row(`${FACE_FILE} (the whole file)`, file),
    row('  licence notices (the cascade’s BSD-3-Clause, kept as the licence asks; face-api and TensorFlow.js named)', notice),
    row(`  model: ${count('stages') / 2} stages, ${count('weak') / 11} weak classifiers, ${count('features') / 4} LBP features`, model),
    row('  code (the face check, face-api with TensorFlow.js for the liveness challenge)', code),
  ];
}

export async function measureFace(chromium: Browser | undefined, settings: FaceSettings): Promise<SectionResult> {
  const s = emptySection('face', '7. Face check on the selfie');
  s.method.push(
    `Bytes: packages/element/dist/${FACE_FILE} as built (section 1 rebuilds a stale dist/), gzip level 9 through node:zlib; the model's share is its object literal as it appears in the file, the code's is the rest without the licence notice (each part compressed alone, so the parts add up to a little more than the file).`,
    "Time: the element's `judgeSelfieSource` (face/face-detector.ts: a 320 px grey copy, the LBP cascade over every position and scale, grouping, the oval rules) on a 720x960 selfie made in the page from the test portrait " +
      '(packages/element/test/fixtures/faces, NASA, public domain) cropped to her face, built with Vite from bench/face-page/entry.ts and served over loopback. ' +
      "Baseline in the same page: the image pipeline's own checks on the same picture (`greyCopy` at 256 px, focus and brightness), which every photo already pays. " +
      `Median of ${settings.runs} runs after one warm-up, the two alternating, in Chromium (Playwright), Firefox ESR (WebDriver BiDi) and WebKitGTK (WebDriver), CPU 1x. ` +
      'Then the same judgement as the element asks for it: the selfie as JPEG to the liveness worker and its answer back (decode and judgement in the worker), with a 0 ms timer ticking on the page meanwhile: the longest gap between ticks is the longest the page was held.',
  );
  try {
    s.tables.push({
      title: 'Face detector file, min (as shipped) and min+gzip',
      headers: ['part', 'min', 'min+gzip'],
      rows: await bytesOfFile(),
    });
  } catch (error) {
    s.notes.push(`bytes not measured: ${reason(error)}`);
  }

  const dir = await mkdtemp(join(tmpdir(), 'onboarding-kit-bench-face-'));
  try {
    await withTimeout(buildPage(dir), 120_000, 'the face page build');
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    s.notes.push(`time not measured: the bench page could not be built (${reason(error)})`);
    if (!s.tables.length) s.notMeasured = 'neither the file nor the page';
    return s;
  }
  const server = await serveDirectory(dir);
  const portrait = (await readFile(PORTRAIT)).toString('base64');
  const rows: string[][] = [];
  const blocks: { engine: Engine; ms: number }[] = [];
  const liveness: { engine: Engine; run: LivenessRun }[] = [];
  try {
    for (const engine of ['chromium', 'firefox', 'webkit'] as const) {
      let page: Page | undefined;
      try {
        page = await withTimeout(openPage(engine, `${server.url}/`, chromium, portrait), 90_000, `${engine} start`);
        const size = await page.prepare();
        const opened = page;
        const runs = await withTimeout(
          (async () => {
            await opened.run(0); // warm-up: JIT
            const xs: FaceRun[] = [];
            for (let i = 0; i < settings.runs; i++) xs.push(await opened.run(i));
            return xs;
          })(),
          120_000,
          `${engine} runs`,
        );
        const judge = median(runs.map((r) => r.judge));
        const checks = median(runs.map((r) => r.checks));
        blocks.push({ engine, ms: Math.max(...runs.map((r) => r.longestBlock)) });
        const verdicts = [...new Set(runs.map((r) => `${r.verdict} (${r.faces} face${r.faces === 1 ? '' : 's'})`))].join(', ');
        rows.push([
          engine,
          `${size.width}x${size.height}`,
          ms(judge),
          ms(checks),
          ratio(judge, checks),
          ms(median(runs.map((r) => r.inWorker))),
          `${ms(median(runs.map((r) => r.longestBlock)))} (worst ${ms(Math.max(...runs.map((r) => r.longestBlock)))})`,
          verdicts,
        ]);
        liveness.push({ engine, run: await withTimeout(opened.liveness(LIVENESS_MS), 2 * LIVENESS_MS + 90_000, `${engine} liveness`) });
      } catch (error) {
        s.notes.push(`${engine}: not measured (${reason(error)})`);
      } finally {
        await page?.close().catch(() => undefined);
      }
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  if (rows.length) {
    s.tables.push({
      title: "One selfie judged, median (ratio = face check / the pipeline's checks on the same picture)",
      headers: [
        'engine',
        'selfie',
        'face check',
        'pipeline checks (baseline)',
        'ratio',
        'in the worker (as the element asks), end to end',
        'longest page block meanwhile, median (worst)',
        'verdict',
      ],
      rows,
    });
  }
  if (blocks.length) {
    const worst = blocks.reduce((a, b) => (b.ms > a.ms ? b : a));
    s.targets.push({
      target: 'selfie face check: no main-thread block over 50 ms',
      figure: `worst ${ms(worst.ms)} (${worst.engine}; ${blocks.map((b) => b.engine).join(', ')} measured)`,
      met: worst.ms <= 50,
    });
  }
  reportLiveness(s, liveness);
  if (!rows.length && !s.tables.length) s.notMeasured = 'no engine could run the page (see notes)';
  return s;
}

/** The liveness challenge's figures: the worker's time per analysed frame, and the page's longest block while it ran. */
function reportLiveness(s: SectionResult, runs: { engine: Engine; run: LivenessRun }[]): void {
  if (!runs.length) return;
  s.method.push(
    `Liveness: the element's ChallengeRun (liveness/challenge-run.ts) for ${LIVENESS_MS / 1000} s on a live video of the portrait (a canvas stream, 480x640 at 15 fps), ` +
      "its frames analysed in the liveness worker (face-api's tiny detector and 68 landmarks on TensorFlow.js's WASM backend, the model loaded first); " +
      "per frame: the worker's own time on it (decode, detection, landmarks), all frames and apart by where the face was looked for (liveness/face-track.ts): the whole frame with the detector at 224 px until a face is followed and whenever it is lost; else the square around the face followed, the detector at 96 px, with one frame in four also having the whole frame's faces counted; the page's longest block: the longest gap of a 0 ms timer ticking meanwhile; baseline block: the same over the same time just before, the video playing and nothing analysed (what the stand-in camera's painting costs the page).",
  );
  s.tables.push({
    title: 'Liveness challenge on a live video, in the worker',
    headers: [
      'engine',
      'frames analysed (whole / square / square and count)',
      'per frame, median',
      'whole frame, median',
      'in the square, median',
      'square and count, median',
      'per frame, worst',
      'longest main-thread block',
      'baseline block',
      'result (a still picture)',
    ],
    rows: runs.map(({ engine, run }) => {
      const all = run.frames.map((f) => f.ms);
      const of = (look: string) => run.frames.filter((f) => f.look === look).map((f) => f.ms);
      const medianOf = (xs: number[]) => (xs.length ? ms(median(xs)) : '-');
      return [
        engine,
        `${all.length} (${of('whole').length} / ${of('square').length} / ${of('square+count').length})`,
        medianOf(all),
        medianOf(of('whole')),
        medianOf(of('square')),
        medianOf(of('square+count')),
        ms(Math.max(...all)),
        ms(run.longestBlock),
        ms(run.baselineBlock),
        run.result,
      ];
    }),
  });
  const chromiumRun = runs.find((r) => r.engine === 'chromium');
  if (chromiumRun) {
    const perFrame = median(chromiumRun.run.frames.map((f) => f.ms));
    s.targets.push({ target: 'liveness: at most 40 ms per analysed frame in Chromium', figure: ms(perFrame), met: perFrame <= 40 });
  }
  const worst = runs.reduce((a, b) => (b.run.longestBlock > a.run.longestBlock ? b : a));
  s.targets.push({
    target: 'liveness: no main-thread block over 50 ms while the challenge runs',
    figure: `worst ${ms(worst.run.longestBlock)} (${worst.engine}, baseline ${ms(worst.run.baselineBlock)}; ${runs.map((r) => r.engine).join(', ')} measured)`,
    met: worst.run.longestBlock <= 50,
  });
}
