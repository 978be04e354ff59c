/**
 * Section 10, document reading: the element's live reading of a QR card in Chromium, Firefox and
 * WebKit (time from the first steady card to the code, the page's longest block meanwhile) and
 * the share of the card's variants read from a photo. The reader's bytes are section 1's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildImageWorker, buildReaderWorker } from '@onboarding-kit/element/internal/build-bundles';
import { chromiumLaunchOptions } from '@onboarding-kit/testing/chromium';
import { encodeY4m } from '@onboarding-kit/testing/y4m';
import type { LiveMode, LiveRun, PictureRun } from '../reader-page/entry.js';
import { qrCardRgb } from '@onboarding-kit/testing/qr-card';
import { buildBenchPage } from '../lib/page-build.js';
import { emptySection, type SectionResult } from '../lib/report.js';
import { median, ms, reason } from '../lib/stats.js';
import { serveDirectory } from '../lib/static-server.js';
import { withTimeout } from '../lib/timeout.js';

export interface ReadingSettings {
  /** Live readings per engine (after one warm-up that starts the workers). */
  runs: number;
}

export const DEFAULT_READING: ReadingSettings = { runs: 5 };

const CODE_WITHIN_MS = 2_000;
const BLOCK_MS = 50;

type Engine = 'chromium' | 'firefox' | 'webkit';
type Pictures = PictureRun[];

/** One engine's live runs of each mode (LiveMode), and its pictures read. */
interface EngineRuns {
  runs: LiveRun[];
  baseline: LiveRun[];
  playback: LiveRun[];
  spin: LiveRun[];
  pictures: Pictures;
}

interface EnginePage {
  readLive(mode?: LiveMode): Promise<LiveRun>;
  readPictures(): Promise<Pictures>;
  close(): Promise<void>;
}

async function buildPage(dir: string): Promise<void> {
  await buildBenchPage(dir, 'reader', 'reader-entry.js');
  // Both workers start from beside the module that names them: here, reader-entry.js.
  await buildImageWorker(dir);
  await buildReaderWorker(dir);
}

/** Chromium with its fake camera looping the QR card (a Y4M written here). */
async function openChromium(url: string, dir: string): Promise<EnginePage> {
  const y4m = join(dir, 'qr-card.y4m');
  await writeFile(y4m, encodeY4m(qrCardRgb()));
  const browser = await chromium.launch(chromiumLaunchOptions({ cameraY4m: y4m, grantCameraEverywhere: true }));
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => typeof window.__readerBench === 'object', undefined, { timeout: 30_000 });
  return {
    readLive: (mode = 'read') => page.evaluate((m) => window.__readerBench.readLive(true, m), mode),
    readPictures: () => page.evaluate(() => window.__readerBench.readPictures()),
    close: () => browser.close(),
  };
}

/** Firefox and WebKit have flat or mock cameras here: their page shows the card as a canvas stream. */
async function openOther(engine: Exclude<Engine, 'chromium'>, url: string): Promise<EnginePage> {
  if (engine === 'firefox') {
    const { launchFirefox } = await import('@onboarding-kit/testing/firefox');
    const browser = await launchFirefox({ camera: 'none' });
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => typeof window.__readerBench === 'object', { timeout: 30_000 });
    return {
      readLive: (mode = 'read') => page.evaluate((m) => window.__readerBench.readLive(false, m), mode),
      readPictures: () => page.evaluate(() => window.__readerBench.readPictures()),
      close: () => browser.close(),
    };
  }
  const { launchWebKit } = await import('@onboarding-kit/testing/webkit');
  const session = await launchWebKit({ camera: false });
  await session.setTimeouts({ script: 120_000 });
  await session.goto(url);
  await session.executeAsync(async () => {
    while (typeof window.__readerBench !== 'object') await new Promise((r) => setTimeout(r, 20));
  });
  return {
    readLive: (mode = 'read') => session.executeAsync((m: LiveMode) => window.__readerBench.readLive(false, m), mode),
    readPictures: () => session.executeAsync(() => window.__readerBench.readPictures()),
    close: () => session.close(),
  };
}

const ENGINES: readonly Engine[] = ['chromium', 'firefox', 'webkit'];

/** The engines to measure: BENCH_ENGINES (a comma-separated subset) or all three. */
function benchEngines(): Engine[] {
  const asked = process.env.BENCH_ENGINES?.split(',').map((e) => e.trim());
  return asked ? ENGINES.filter((e) => asked.includes(e)) : [...ENGINES];
}

/**
 * A run's longest block: the long-task figure where the engine reports them (a task under 50 ms
 * is not reported: none is 0), else the smaller of the two gaps, each an upper bound on any task
 * (as section 2 judges Firefox and WebKit).
 */
const blockOf = (run: LiveRun) => run.longestTask ?? Math.min(run.longestTimerGap, run.longestFrameGap);

async function measureEngine(engine: Engine, open: () => Promise<EnginePage>, settings: ReadingSettings): Promise<EngineRuns> {
  const page = await withTimeout(open(), 60_000, `${engine}: the page`);
  try {
    await withTimeout(page.readLive(), 30_000, `${engine}: warm-up`);
    const runs: LiveRun[] = [];
    const baseline: LiveRun[] = [];
    const playback: LiveRun[] = [];
    const spin: LiveRun[] = [];
    // Reading and baselines in turn, so that none always runs on a busier moment of the machine.
    for (let i = 0; i < settings.runs; i++) {
      runs.push(await withTimeout(page.readLive(), 30_000, `${engine}: live reading`));
      baseline.push(await withTimeout(page.readLive('guidance'), 30_000, `${engine}: baseline`));
      playback.push(await withTimeout(page.readLive('playback'), 30_000, `${engine}: playback`));
      spin.push(await withTimeout(page.readLive('spin'), 30_000, `${engine}: spinning worker`));
    }
    const pictures = await withTimeout(page.readPictures(), 120_000, `${engine}: the pictures`);
    return { runs, baseline, playback, spin, pictures };
  } finally {
    await page.close().catch(() => undefined);
  }
}

function addEngine(s: SectionResult, engine: Engine, { runs, baseline, playback, spin, pictures }: EngineRuns): void {
  const times = runs.map((r) => r.steadyToCode);
  const read = times.filter((t): t is number => t !== null);
  const blocks = runs.map(blockOf);
  const timeFigure = read.length === runs.length ? median(read) : null;
  const block = median(blocks);
  const kind = runs[0]?.longestTask === null ? 'smaller gap' : 'long task';
  const baselineBlock = median(baseline.map(blockOf));
  const playbackBlock = median(playback.map(blockOf));
  const spinBlock = median(spin.map(blockOf));
  s.tables[0]!.rows.push([
    engine,
    runs[0]?.source ?? '-',
    `${read.length}/${runs.length}`,
    timeFigure === null ? 'not every run' : ms(timeFigure),
    read.length ? ms(Math.max(...read)) : '-',
    `${ms(block)} (${kind})`,
    ms(Math.max(...blocks)),
    ms(median(runs.map((r) => r.longestTimerGap))),
    ms(baselineBlock),
    ms(median(baseline.map((r) => r.longestTimerGap))),
    ms(spinBlock),
    ms(playbackBlock),
  ]);
  const share = (code: 'qr' | 'mrz') => {
    const has = pictures.filter((p) => p[code] !== 'none');
    return `${has.filter((p) => p[code] === 'read').length}/${has.length}`;
  };
  const missed = pictures
    .filter((p) => p.qr === 'missed' || p.mrz === 'missed')
    .map((p) => `${p.id} (${[p.qr === 'missed' && 'QR', p.mrz === 'missed' && 'MRZ'].filter(Boolean).join(', ')})`);
  s.tables[1]!.rows.push([engine, share('qr'), share('mrz'), missed.join('; ') || '-', ms(median(pictures.map((p) => p.ms)))]);
  s.targets.push(
    {
      target: `${engine}: code found within 2 s of a steady frame`,
      figure: timeFigure === null ? `${read.length}/${runs.length} runs read` : ms(timeFigure),
      met: timeFigure !== null && timeFigure <= CODE_WITHIN_MS,
    },
    {
      target: `${engine}: longest main-thread block while reading <= 50 ms`,
      figure: `${ms(block)} (${kind})`,
      met: block <= BLOCK_MS,
      ...(block > BLOCK_MS && {
        note: `the baseline without reading: ${ms(baselineBlock)} (${kind}), the same camera and guidance with nothing read; with a worker spinning instead of reading: ${ms(spinBlock)}; the camera alone: ${ms(playbackBlock)}`,
      }),
    },
  );
}

export async function measureReading(settings: ReadingSettings): Promise<SectionResult> {
  const s = emptySection('reading', '10. Document reading in three engines');
  s.method.push(
    "Real code: the element's `PhotoReadings` (reader/photo-readings.ts) reading each steady card the element's frame sampler reports (its guidance samples in the real image worker, as the capture view runs it), at most one frame at a time, in the reader's worker (`onboarding-flow.reader-worker.js`, built beside the page from bench/reader-page/entry.ts). " +
      'The picture: the test card with a real QR code (the `qr` encoder, 69 characters, ECC M, 5 px a module) on its right half, 1280x720. Chromium sees it through its fake camera (a Y4M of the picture); Firefox and WebKit, whose fake cameras show flat or test-pattern frames, through a canvas stream of the same picture played in a `<video>` (one corner pixel redrawn every 33 ms to make frames).',
    `Time to a code: from the first sampler update that reports a steady card to the first live reading with the code, ${settings.runs} runs per engine after one warm-up (which starts both workers); the figure is the median, the worst beside it. Longest block: a \`longtask\` observer in Chromium; Firefox and WebKit report no long tasks, so there the figure is, per run, the smaller of the longest gap in a chain of zero-delay timers and the longest gap between animation frames (each an upper bound on any task), as section 2 judges them. Each reading run watches the page for a second from the first steady card (longer when the code takes longer), the element reading steady frames all along at its live pace (reader/live-pace.ts), as a person holding the card still would see it. Median over the runs, the worst beside it. Baseline: the same camera and guidance for that second with nothing read, in turn with the reading runs: what the page costs without the reader on this (shared, 2-core) machine. Spinning worker: the baseline with a worker spinning on a plain loop all that second instead of the reader: what any worker busy on its own core costs the page here. Camera alone: the same video playing for 1.2 s with neither guidance nor reading: what the camera (or its stand-in) costs the page.`,
    "Share read: every test document picture (@onboarding-kit/testing/document-pictures: CIN and 2022 CNH backs with a QR code and a TD1 zone, passport pages with a TD3 zone, fronts with neither; turned, slanted, blurred, dim, damaged and monospace variants) as a JPEG photo (quality 0.9), read as an accepted photo is; a code counts as read when its text, or the zone's lines, come out exactly.",
  );
  s.tables.push(
    {
      title: 'Live reading of the QR card',
      headers: [
        'engine',
        'camera',
        'runs read',
        'steady to code (median)',
        'worst',
        'longest block (median)',
        'worst',
        'timer gap',
        'baseline block',
        'baseline timer gap',
        'spinning worker',
        'camera alone',
      ],
      rows: [],
    },
    {
      title: 'Test document pictures read from a photo',
      headers: ['engine', 'QR codes', 'zones (MRZ)', 'missed', 'time per photo (median)'],
      rows: [],
    },
  );
  const dir = await mkdtemp(join(tmpdir(), 'onboarding-kit-bench-reading-'));
  try {
    await withTimeout(buildPage(dir), 120_000, 'the reading page build');
    const server = await serveDirectory(dir);
    try {
      const url = `${server.url}/`;
      for (const engine of benchEngines()) {
        try {
          const open = engine === 'chromium' ? () => openChromium(url, dir) : () => openOther(engine, url);
          addEngine(s, engine, await measureEngine(engine, open, settings));
        } catch (error) {
          s.notes.push(`${engine}: not measured (${reason(error)})`);
        }
      }
    } finally {
      await server.close();
    }
  } catch (error) {
    s.notMeasured = reason(error);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return s;
}
