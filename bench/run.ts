/**
 * `npm run bench`: runs every section in turn, prints its tables, and (on a full run) rewrites
 * BENCHMARKS.md. A section that lacks a piece prints "not measured: <why>" instead of failing;
 * the process exits 0 whenever the report could be written.
 *
 *   BENCH_NO_BUILD=1   measure the built output (the element's files, the servers' dist/) as it is, even when stale
 *   BENCH_ONLY=a,b     run only these sections (bytes, capture, companion, relay, e2e, stores, face, starvation, lowend, reading); BENCHMARKS.md is left alone
 *   BENCH_WRITE=1      with BENCH_ONLY: replace only those sections (and their target rows) in BENCHMARKS.md
 *   BENCH_CAPTURE=main-thread   in the capture section, only the per-engine main-thread watch
 *   BENCH_ENGINES=a,b  in the reading section, only these engines (chromium, firefox, webkit)
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '@onboarding-kit/testing/chromium';
import { describeMachine } from './lib/machine.js';
import { benchmarksMarkdown, mergeSectionsMarkdown } from './lib/markdown.js';
import { REPO_ROOT } from './lib/paths.js';
import { emptySection, printSection, type SectionResult } from './lib/report.js';
import { reason } from './lib/stats.js';
import { withTimeout } from './lib/timeout.js';
import { measureBytes } from './sections/bytes.js';
import { DEFAULT_CAPTURE, measureCapture, type Images } from './sections/capture.js';
import { DEFAULT_COMPANION, measureCompanion } from './sections/companion.js';
import { DEFAULT_E2E, measureE2e } from './sections/e2e.js';
import { DEFAULT_FACE, measureFace } from './sections/face.js';
import { DEFAULT_LOWEND, measureLowEnd } from './sections/lowend.js';
import { DEFAULT_READING, measureReading } from './sections/reading.js';
import { DEFAULT_RELAY, measureRelay } from './sections/relay.js';
import { DEFAULT_STARVATION, measureStarvation } from './sections/starvation.js';
import { DEFAULT_STORES, measureStores } from './sections/stores.js';

const started = performance.now();
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((x) => x.trim())
  .filter(Boolean);
const wanted = (id: string) => only.length === 0 || only.includes(id);
/** The whole run must end well inside 12 minutes; sections are skipped when too little is left. */
const BUDGET_S = 660;
const elapsed = () => (performance.now() - started) / 1000;

const machine = await describeMachine();
const loadBefore = loadavg();
console.log(`onboarding-kit benchmarks, ${machine.date}`);
console.log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory}, ${machine.os}; node ${machine.node}; ${machine.chromium}`);
console.log(`load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);

let browser: Browser | undefined;
let browserError = '';
async function getBrowser(): Promise<Browser | undefined> {
  if (browser || browserError) return browser;
  try {
    // The fake camera loops the card picture; the bench measures capture, not permission prompts.
    browser = await launchChromium({ camera: 'card', grantCameraEverywhere: true, timeout: 60_000 });
  } catch (error) {
    browserError = reason(error);
  }
  return browser;
}

const shared: { images?: Images } = {};
const sections: SectionResult[] = [];

/** Runs one section within its time cap; whatever goes wrong becomes "not measured". */
async function section(id: string, title: string, needS: number, capS: number, run: () => Promise<SectionResult>): Promise<void> {
  if (!wanted(id)) return;
  const t0 = performance.now();
  let result: SectionResult;
  if (elapsed() + needS > BUDGET_S) {
    result = emptySection(id, title);
    result.notMeasured = `time budget: ${elapsed().toFixed(0)} s used of ${BUDGET_S} s, this section needs about ${needS} s`;
  } else {
    try {
      result = await withTimeout(run(), Math.min(capS, BUDGET_S - elapsed()) * 1000, title);
    } catch (error) {
      result = emptySection(id, title);
      result.notMeasured = reason(error);
    }
  }
  result.seconds = (performance.now() - t0) / 1000;
  sections.push(result);
  printSection(result);
}

const allowBuild = !process.env.BENCH_NO_BUILD;
// The server children run the packages' dist/ (bench/lib/children.ts): built first when stale.
{
  const ensure = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'ensure-built.mjs'), ...(allowBuild ? [] : ['--check'])], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (ensure.status !== 0)
    console.log(
      allowBuild
        ? '  warning: the build failed; the servers run whatever dist/ holds.'
        : '  warning: dist/ is older than the sources (BENCH_NO_BUILD set): the servers run it as it is.',
    );
}
await section('bytes', '1. Bytes on the wire', 10, 300, () => measureBytes({ allowBuild }));
await section('capture', '2. Capture pipeline in Chromium', 20, 150, async () => {
  const b = await getBrowser();
  const r = await measureCapture(b, DEFAULT_CAPTURE, shared);
  if (!b) r.notMeasured = `Chromium could not be started (${browserError})`;
  return r;
});
await section('companion', '3. Companion: POST /v1/onboardings', 60, 180, () => measureCompanion(shared.images, DEFAULT_COMPANION));
await section('relay', '4. Status relay: webhook to page', 90, 240, () => measureRelay(DEFAULT_RELAY));
await section('e2e', '5. End to end in Chromium: send click to outcome', 45, 180, async () => {
  const b = await getBrowser();
  const r = await measureE2e(b, DEFAULT_E2E);
  if (!b) r.notMeasured = `Chromium could not be started (${browserError})`;
  return r;
});
await section('stores', '6. Stores: memory, SQLite, Redis', 60, 150, () => measureStores(DEFAULT_STORES));
await section('face', '7. Face check on the selfie', 40, 150, async () => measureFace(await getBrowser(), DEFAULT_FACE));
await section('starvation', '8. Creations under slow uploads', 60, 150, () => measureStarvation(DEFAULT_STARVATION));
await section('lowend', '9. A low-end phone: Chromium at 390x844, CPU 6x', 60, 420, async () => {
  const b = await getBrowser();
  const r = await measureLowEnd(b, DEFAULT_LOWEND);
  if (!b) r.notMeasured = `Chromium could not be started (${browserError})`;
  return r;
});

await section('reading', '10. Document reading in three engines', 60, 300, () => measureReading(DEFAULT_READING));

await browser?.close().catch(() => undefined);
const wallSeconds = elapsed();
const loadAfter = loadavg();
console.log(`\ntargets:`);
for (const s of sections)
  for (const t of s.targets) console.log(`  ${t.met === null ? 'not judged' : t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.figure}`);
console.log(`\nbench wall time: ${wallSeconds.toFixed(1)} s; load average after: ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
if (only.length && process.env.BENCH_WRITE === '1') {
  const path = join(REPO_ROOT, 'BENCHMARKS.md');
  const existing = await readFile(path, 'utf8');
  await writeFile(path, mergeSectionsMarkdown(existing, { machine, loadBefore, loadAfter, wallSeconds }, sections));
  console.log(`BENCHMARKS.md: sections ${sections.map((s) => s.id).join(', ')} rewritten, the rest left as it is.`);
} else if (only.length) {
  console.log('BENCH_ONLY is set: BENCHMARKS.md left as it is.');
} else {
  await writeFile(join(REPO_ROOT, 'BENCHMARKS.md'), benchmarksMarkdown({ machine, loadBefore, loadAfter, wallSeconds }, sections));
  console.log('BENCHMARKS.md written.');
}
// Keep-alive sockets, streams or a stuck child must not keep the process open after the report.
process.exit(0);
