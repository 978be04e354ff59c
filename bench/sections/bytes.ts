/**
 * Section 1, bytes: what a page downloads for the element (the script-tag bundle on first load,
 * with the intro, consent and data steps; the photo steps, fetched while the person fills in
 * the data; each lazy file the first photo needs; the ES modules for bundlers), minified as shipped,
 * then gzip (level 9) and brotli (quality 11) through node:zlib, next to a bare Lit element
 * built the same way (Vite library build, lit inlined, minified) as the floor.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { emptySection, type SectionResult } from '../lib/report.js';
import { kb, ratio, reason } from '../lib/stats.js';
import { withTimeout } from '../lib/timeout.js';
import { SIZE_BUDGETS } from '@onboarding-kit/element/internal/build-bundles';
import { REPO_ROOT } from '../lib/paths.js';

const ELEMENT_DIR = join(REPO_ROOT, 'packages', 'element');
export const ELEMENT_DIST = join(ELEMENT_DIR, 'dist');
const FIRST_LOAD_BUDGET = SIZE_BUDGETS.firstLoad;
const FIRST_LOAD_TARGET = `first load <= ${FIRST_LOAD_BUDGET / 1024} KB min+gzip`;
/** The lazy files of the document reader (budget summed). */
const READER_FILES = ['onboarding-flow.reader-worker.js'];
const READER_BUDGET = SIZE_BUDGETS.reader;
const READER_TARGET = `document reader: lazy files <= ${READER_BUDGET / 1024} KB min+gzip`;

/** The liveness challenge's worker (its budget counts the model and WASM it fetches). */
const LIVENESS_WORKER = 'onboarding-flow.liveness-worker.js';
const LIVENESS_BUDGET = SIZE_BUDGETS.liveness;
const LIVENESS_TARGET = `liveness challenge: worker, model and WASM as fetched <= ${LIVENESS_BUDGET / 1e6} MB (10^6 B) min+gzip`;

/** The element's list of the files it loads from beside its script, written by its build. */
const HOSTING_MANIFEST = 'hosting-manifest.json';

/**
 * The files the element's build must have produced: every file its hosting manifest lists, and
 * the npm build's entry (its ES module chunk names are hashed); a reason instead when the
 * manifest is not there or not readable.
 */
async function requiredFiles(): Promise<string[] | { reason: string }> {
  let manifest: HostingManifest;
  try {
    manifest = await readHostingManifest();
  } catch (error) {
    return { reason: `dist/${HOSTING_MANIFEST} is missing or unreadable, the element is not built (${reason(error)})` };
  }
  const listed = Array.isArray(manifest.files) ? manifest.files.map((entry) => entry.file) : [];
  if (listed.length === 0 || !listed.every((file): file is string => typeof file === 'string'))
    return { reason: `dist/${HOSTING_MANIFEST} lists no files: the element's build is incomplete` };
  return [HOSTING_MANIFEST, ...listed, 'index.js'];
}

interface HostingManifest {
  files?: { file?: string; kind?: string; loaded?: string }[];
}

const readHostingManifest = async (): Promise<HostingManifest> =>
  JSON.parse(await readFile(join(ELEMENT_DIST, HOSTING_MANIFEST), 'utf8')) as HostingManifest;

/** The files the liveness worker fetches from beside itself, as the hosting manifest lists them (its "worker data"). */
function livenessData(manifest: HostingManifest): string[] {
  return (manifest.files ?? [])
    .filter((entry) => entry.kind === 'worker data' && /liveness worker/.test(entry.loaded ?? ''))
    .map((entry) => entry.file!)
    .sort();
}

interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

function sizeOf(bytes: Buffer): Size {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

async function newestMtime(dir: string, skip: (name: string) => boolean): Promise<number> {
  let newest = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (skip(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, await newestMtime(path, skip));
    else newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

const isTestFile = (name: string) => /\.(test|spec)\.ts$|^test-helpers\.ts$/.test(name);

/** Why the dist must be rebuilt, or null when it is there and newer than every input. */
async function distStaleness(): Promise<string | null> {
  const required = await requiredFiles();
  if (!Array.isArray(required)) return required.reason;
  let oldestOutput = Infinity;
  for (const file of required) {
    try {
      oldestOutput = Math.min(oldestOutput, (await stat(join(ELEMENT_DIST, file))).mtimeMs);
    } catch {
      return `dist/${file} is missing`;
    }
  }
  const inputs = Math.max(
    await newestMtime(join(ELEMENT_DIR, 'src'), isTestFile),
    await newestMtime(join(ELEMENT_DIR, 'scripts'), () => false),
    await newestMtime(join(REPO_ROOT, 'packages', 'contract', 'src'), isTestFile),
    (await stat(join(ELEMENT_DIR, 'vite.config.ts'))).mtimeMs,
  );
  return inputs > oldestOutput ? 'dist/ is older than the sources' : null;
}

function runBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['run', 'build', '-w', '@onboarding-kit/element'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(`npm run build -w @onboarding-kit/element exited with ${code}: ${output.trim().split('\n').slice(-3).join(' / ')}`),
        );
    });
  });
}

/** A tiny LitElement, built like the element's script-tag bundle: the least a Lit element costs. */
const BARE_ELEMENT = `import { LitElement, html, css } from 'lit';
class BareElement extends LitElement {
  static properties = { name: { type: String } };
  static styles = css\`:host { display: block; }\`;
  constructor() { super(); this.name = 'world'; }
  render() { return html\`<p>Hello, \${this.name}</p>\`; }
}
customElements.define('bare-element', BareElement);
`;

async function buildBareLit(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'onboarding-kit-bench-lit-'));
  try {
    // Resolve lit from the repo's own node_modules, so the floor uses the very lit the element inlines.
    await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'bare-element.js'), BARE_ELEMENT);
    await build({
      configFile: false,
      root: dir,
      logLevel: 'error',
      publicDir: false,
      build: {
        outDir: join(dir, 'dist'),
        target: 'es2022',
        minify: true,
        reportCompressedSize: false,
        lib: { entry: join(dir, 'src', 'bare-element.js'), formats: ['es'], fileName: () => 'bare-element.bundle.js' },
        rolldownOptions: { output: { minify: true } },
      },
    });
    return await readFile(join(dir, 'dist', 'bare-element.bundle.js'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function measureBytes(options: { allowBuild: boolean }): Promise<SectionResult> {
  const s = emptySection('bytes', '1. Bytes on the wire');
  s.method.push(
    "Files as the element's build writes them to packages/element/dist (rebuilt with `npm run build -w @onboarding-kit/element` when missing or older than the sources), " +
      'compressed in memory with node:zlib: gzip level 9 and brotli quality 11. KB = 1024 bytes.',
    'Floor: a bare LitElement (one property, one style, one template) built in a temp dir with a Vite library build, ES format, lit inlined, minified: the same recipe as onboarding-flow.bundle.js.',
    'First load = the script-tag bundle alone (`<script type="module" src=".../onboarding-flow.bundle.js">`): the intro, the consent and the data steps (CPF, document type). ' +
      'Before the first photo = that bundle plus what those steps load (the full consent text, fetched once the element connects). ' +
      'After the first photo = plus the lazy files the first photo needs: the photo steps (capture, review, upload, outcome and their controllers, fetched ahead from the consent step on), the capture view, the image pipeline and its image worker (which holds browser-image-compression).',
    "Liveness challenge = its worker (the selfie's face check, face-api and TensorFlow.js) and the files it fetches from beside itself when it starts, as the hosting manifest lists them (the two nets' weights manifests and weights), with the larger of TensorFlow.js's two WASM builds (a browser fetches one). Budgets: packages/element/scripts/size-budgets.ts. " +
      "Document reader = its lazy files, summed: the reader's worker (the `qr` package's QR decoder, the MRZ reader and its parser), started while the browser is idle on the data steps; its page side is part of the photo steps.",
  );

  let stale = await distStaleness();
  if (stale && options.allowBuild) {
    try {
      await withTimeout(runBuild(), 250_000, 'the element build');
      s.notes.push(`element rebuilt first (${stale}).`);
      stale = await distStaleness();
    } catch (error) {
      s.notes.push(`element build failed (${reason(error)}); measuring the dist/ that exists.`);
    }
  } else if (stale) {
    s.notes.push(`element dist/ not rebuilt (BENCH_NO_BUILD set) although ${stale}.`);
  }

  let floor: Size | undefined;
  try {
    floor = sizeOf(await buildBareLit());
  } catch (error) {
    s.notes.push(`floor not measured: bare Lit build failed (${reason(error)}).`);
  }

  const files: { label: string; file: string; size: Size }[] = [];
  const add = async (label: string, file: string) => {
    try {
      files.push({ label, file, size: sizeOf(await readFile(join(ELEMENT_DIST, file))) });
    } catch {
      s.notes.push(`not measured: dist/${file} is missing.`);
    }
  };
  await add('first load: script-tag module', 'onboarding-flow.bundle.js');
  await add('first load: classic script (IIFE)', 'onboarding-flow.iife.js');
  await add('lazy: photo steps: capture, review, upload, outcome (fetched during the data steps)', 'onboarding-flow.photo-steps.js');
  await add('lazy: image pipeline (a capture step, else the first photo)', 'onboarding-flow.pipeline.js');
  await add('lazy: image worker + compression library (a capture step, else the first photo)', 'onboarding-flow.image-worker.js');
  await add('lazy: liveness worker: face check, face-api and TensorFlow.js (idle on the document steps)', LIVENESS_WORKER);
  const liveness = await readHostingManifest().then(livenessData, () => [] as string[]);
  if (!liveness.length) s.notes.push(`the liveness worker's files are not measured: dist/${HOSTING_MANIFEST} lists none.`);
  for (const file of liveness) await add("lazy: liveness worker's data (fetched when it starts)", file);
  await add('lazy: camera view + live guidance (a capture step, drawn closed)', 'onboarding-flow.capture-view.js');
  await add('lazy: full consent text ("Ler detalhes")', 'onboarding-flow.consent-text.js');
  await add('lazy: waiting and outcome texts (review)', 'onboarding-flow.after-send.js');
  await add('lazy: hand-off to a phone (asked for or followed)', 'onboarding-flow.handoff.js');
  for (const file of READER_FILES) await add('lazy: document reader worker: QR decoder, MRZ reader (idle on the data steps)', file);
  let distFiles: string[] = [];
  try {
    distFiles = (await readdir(ELEMENT_DIST)).filter((f) => f.endsWith('.js')).sort();
  } catch {
    /* reported below */
  }
  const esm = distFiles.filter((f) => f === 'index.js' || /^[a-z-]+-[A-Za-z0-9_-]{8}\.js$/.test(f));
  for (const f of esm) await add(f === 'index.js' ? 'ES module: entry (npm, deps external, unminified)' : 'ES module: lazy chunk (npm)', f);

  if (!files.length && !floor) {
    s.notMeasured = 'no element dist/ and no floor build';
    return s;
  }

  const row = (label: string, file: string, size: Size) => [
    label,
    file,
    kb(size.raw),
    kb(size.gzip),
    kb(size.brotli),
    floor ? ratio(size.gzip, floor.gzip) : 'n/a',
  ];
  s.tables.push({
    title: 'Element files vs a bare Lit element (floor)',
    headers: ['what', 'file', 'min (raw)', 'min+gzip', 'min+brotli', 'gzip vs floor'],
    rows: [...(floor ? [row('floor: bare Lit element', '(temp build)', floor)] : []), ...files.map((f) => row(f.label, f.file, f.size))],
  });

  const bundle = files.find((f) => f.file === 'onboarding-flow.bundle.js');
  const part = (file: string) => files.find((f) => f.file === file);
  if (bundle) {
    const total = (label: string, parts: (typeof files)[number][]) => {
      const gzip = parts.reduce((n, p) => n + p.size.gzip, 0);
      const brotli = parts.reduce((n, p) => n + p.size.brotli, 0);
      return [label, kb(gzip), kb(brotli), floor ? kb(gzip - floor.gzip) : 'n/a'];
    };
    const totals: string[][] = [total('first load (bundle: intro, consent, data steps)', [bundle])];
    const consentText = part('onboarding-flow.consent-text.js');
    const beforePhoto = consentText ? [bundle, consentText] : [bundle];
    totals.push(total('before the first photo (bundle + full consent text)', beforePhoto));
    const firstPhoto = [
      'onboarding-flow.photo-steps.js',
      'onboarding-flow.capture-view.js',
      'onboarding-flow.pipeline.js',
      'onboarding-flow.image-worker.js',
    ].map(part);
    if (firstPhoto.every((f) => f)) {
      totals.push(
        total('after the first photo (+ photo steps, capture view, pipeline, image worker)', [
          ...beforePhoto,
          ...(firstPhoto as (typeof files)[number][]),
        ]),
      );
    } else {
      s.notes.push('the total after the first photo is not given: a lazy file it needs is missing.');
    }
    s.tables.push({ title: 'Totals (script tag)', headers: ['when', 'min+gzip', 'min+brotli', 'gzip above floor'], rows: totals });
    s.targets.push({
      target: FIRST_LOAD_TARGET,
      figure: `${kb(bundle.size.gzip)} (${floor ? ratio(bundle.size.gzip, floor.gzip) : 'n/a'} the bare-Lit floor of ${floor ? kb(floor.gzip) : 'n/a'})`,
      met: bundle.size.gzip <= FIRST_LOAD_BUDGET,
      ...(stale ? { note: `measured on a dist/ that may be stale: ${stale}` } : {}),
    });
    const text = (await readFile(join(ELEMENT_DIST, 'onboarding-flow.bundle.js'), 'utf8').catch(() => '')) ?? '';
    const staticImports = [...text.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'`]([^"'`]+)["'`]/g)].map((m) => m[1]);
    const dynamicImports = [...text.matchAll(/import\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
    s.notes.push(
      `onboarding-flow.bundle.js has ${staticImports.length} static import(s)${staticImports.length ? ` (${staticImports.join(', ')})` : ''} and loads ${dynamicImports.join(', ') || 'nothing'} lazily.`,
    );
  } else {
    s.targets.push({ target: FIRST_LOAD_TARGET, figure: 'n/a', met: null, note: 'onboarding-flow.bundle.js missing' });
  }
  // The worker fetches one of TensorFlow.js's two WASM builds (SIMD where the engine has it): the larger is counted.
  const wasm = liveness.filter((f) => f.endsWith('.wasm')).map(part);
  const largestWasm = wasm.reduce<(typeof files)[number] | undefined>(
    (a, b) => (b && (!a || b.size.gzip > a.size.gzip) ? b : a),
    undefined,
  );
  const livenessParts = [LIVENESS_WORKER, ...liveness.filter((f) => !f.endsWith('.wasm'))].map(part);
  if (livenessParts.every((f) => f) && largestWasm) {
    const gzip = [...livenessParts, largestWasm].reduce((n, f) => n + f!.size.gzip, 0);
    s.targets.push({
      target: LIVENESS_TARGET,
      figure: `${(gzip / 1e6).toFixed(3)} MB (${gzip} B: worker ${livenessParts[0]!.size.gzip}, model ${gzip - livenessParts[0]!.size.gzip - largestWasm.size.gzip}, ${largestWasm.file} ${largestWasm.size.gzip})`,
      met: gzip <= LIVENESS_BUDGET,
    });
  } else {
    s.targets.push({ target: LIVENESS_TARGET, figure: 'n/a', met: null, note: `${LIVENESS_WORKER} or its data missing` });
  }
  const reader = READER_FILES.map(part);
  const readerGzip = reader.reduce((n, f) => n + (f?.size.gzip ?? 0), 0);
  s.targets.push(
    reader.every((f) => f)
      ? { target: READER_TARGET, figure: `${kb(readerGzip)} (${READER_FILES.join(' + ')})`, met: readerGzip <= READER_BUDGET }
      : { target: READER_TARGET, figure: 'n/a', met: null, note: `${READER_FILES.join(', ')} missing` },
  );
  return s;
}
