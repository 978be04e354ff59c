/**
 * The script-tag bundles: what a page downloads for the intro, the consent and the data steps
 * stays within budget; everything after them (the photo steps with the camera, review, upload,
 * wait and outcome, then the capture view, the image pipeline, the image worker with the
 * compression library) is in separate files beside the bundle, loaded as the person goes on;
 * and nothing in what is hosted evaluates strings as code or points at a public CDN.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
  AFTER_SEND_FILE,
  BUNDLE_FILE,
  CAPTURE_VIEW_FILE,
  CONSENT_TEXT_FILE,
  HANDOFF_FILE,
  IIFE_FILE,
  IMAGE_WORKER_FILE,
  LIVENESS_WORKER_FILE,
  PHOTO_STEPS_FILE,
  PIPELINE_FILE,
} from '../vite.config.js';
import { FRAME_REGION_KEY } from '../src/camera/frame-region.js';
import { LIVENESS_FILES } from '../src/liveness/model-files.js';
import { SIZE_BUDGETS } from '../scripts/size-budgets.js';
import { buildDistIntoTemp, type BuiltDist } from './support/built-dist.js';
import { dynamicImports, staticClosure, staticImports } from './support/module-graph.js';

/** First load of a script-tag form (intro, consent and data steps), minified + gzip (level 9): scripts/size-budgets.ts says what it holds. */
const FIRST_LOAD_BUDGET = SIZE_BUDGETS.firstLoad;

/**
 * Code of the photo steps, found in none of the first loads: the capture step's start button,
 * the review's thumbnails, the upload's progress bar, the outcome's way on and support code, the
 * camera request, the creation's idempotency header, the status stream, the warning before
 * leaving mid-upload, "keep anyway", the drawing of each capture step (its part and the
 * CNH's back, by key) with its tips, and the upload's error texts.
 */
const PHOTO_STEPS_MARKERS = [
  'data-capture-start',
  'class="thumbs"',
  'progress-bar',
  'link-button',
  'support-code',
  '.getUserMedia(',
  'Idempotency-Key',
  'text/event-stream',
  'beforeunload',
  'keep-anyway',
  'capture-picture',
  'CNH-back',
  'Tire o documento da capa plástica',
  'Take it out of its plastic cover',
  'Muitas pessoas estão enviando agora',
  // The document photos' hints, the data read from the document, the proof of address.
  'Trocar frente e verso',
  'Lendo os dados do seu documento',
  'data-proof-file',
];

/** worker-url.ts as built (Vite writes `import.meta.url` as `"" + import.meta.url`). */
const WORKER_URL_BESIDE_MODULE = /new URL\(["'`]\.\/onboarding-flow\.image-worker\.js["'`],\s*(?:(?:""|``)\s*\+\s*)?import\.meta\.url\)/;

let dist: BuiltDist;
before(async () => {
  dist = await buildDistIntoTemp();
});
after(() => dist?.remove());

const gzip = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;
const brotli = (text: string) => brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A file's bytes as built (binary files too), raw and gzip level 9. */
async function sizesOfBytes(file: string): Promise<{ raw: number; gzip: number }> {
  const bytes = await readFile(join(dist.dir, file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

async function sizes(files: string[]): Promise<{ raw: number; gzip: number; brotli: number }> {
  const texts = await Promise.all(files.map((f) => dist.read(f)));
  return {
    raw: texts.reduce((n, t) => n + Buffer.byteLength(t), 0),
    gzip: texts.reduce((n, t) => n + gzip(t), 0),
    brotli: texts.reduce((n, t) => n + brotli(t), 0),
  };
}

for (const entry of [BUNDLE_FILE, IIFE_FILE]) {
  test(`${entry}: first load <= ${kb(FIRST_LOAD_BUDGET)} min+gzip, without the photo steps, the pipeline or the image worker`, async () => {
    const firstLoad = await staticClosure(entry, dist.read);
    // Lit is inlined: one self-contained file.
    assert.deepEqual(firstLoad, [entry]);
    const code = await dist.read(entry);
    // The only things it may load later are beside it: the photo steps (which load the capture
    // view, the face detector and the pipeline), the waiting and outcome texts, the full consent
    // text and the hand-off panel.
    assert.deepEqual(dynamicImports(code).sort(), [
      `./${AFTER_SEND_FILE}`,
      `./${CONSENT_TEXT_FILE}`,
      `./${HANDOFF_FILE}`,
      `./${PHOTO_STEPS_FILE}`,
    ]);
    // Neither the pipeline's code nor the worker's is inside (their option names, error texts and file).
    for (const marker of ['small enough', 'image could not be prepared', 'imageOrientation', IMAGE_WORKER_FILE, 'manual review']) {
      assert.equal(code.includes(marker), false, `${entry} contains ${marker}`);
    }
    // Nor the photo steps' code: that is in their own file.
    const photoSteps = await dist.read(PHOTO_STEPS_FILE);
    for (const marker of PHOTO_STEPS_MARKERS) {
      assert.equal(code.includes(marker), false, `${entry} contains ${marker}`);
      assert.ok(photoSteps.includes(marker), `${PHOTO_STEPS_FILE} lacks ${marker}`);
    }
    assert.match(code, /customElements\.define\(`onboarding-flow`|customElements\.define\("onboarding-flow"/);

    const size = await sizes(firstLoad);
    console.log(
      `${entry} first load: ${size.raw} B raw, ${size.gzip} B gzip (${kb(size.gzip)}), ${size.brotli} B brotli (${kb(size.brotli)})`,
    );
    assert.ok(size.gzip <= FIRST_LOAD_BUDGET, `first load ${kb(size.gzip)} gzip exceeds ${kb(FIRST_LOAD_BUDGET)}`);
  });
}

test('the IIFE is a classic script: no static import or export statement', async () => {
  const code = await dist.read(IIFE_FILE);
  assert.deepEqual(staticImports(code), []);
  assert.match(code, /^var OnboardingKit=\(function/);
});

test("a camera frame's region crosses from the photo steps to the pipeline: each file has its own copy of frame-region.ts, so the mark is a registered symbol in both, not a module's WeakMap", async () => {
  for (const file of [PHOTO_STEPS_FILE, PIPELINE_FILE]) {
    const code = await dist.read(file);
    assert.ok(
      code.includes(`Symbol.for(\`${FRAME_REGION_KEY}\`)`) ||
        code.includes(`Symbol.for("${FRAME_REGION_KEY}")`) ||
        code.includes(`Symbol.for('${FRAME_REGION_KEY}')`),
      `${file} marks regions under Symbol.for(${FRAME_REGION_KEY})`,
    );
  }
});

test('the lazy files: one self-contained pipeline module and the image worker, beside the bundles', async () => {
  for (const file of [BUNDLE_FILE, IIFE_FILE, PIPELINE_FILE, IMAGE_WORKER_FILE]) assert.ok(dist.files.includes(file), file);
  const pipeline = await dist.read(PIPELINE_FILE);
  assert.deepEqual(staticImports(pipeline), [], 'the pipeline module imports nothing');
  assert.deepEqual(dynamicImports(pipeline), [], 'the pipeline module loads no further module');
  // worker-url.ts: the worker is found beside the pipeline module itself.
  assert.match(pipeline, WORKER_URL_BESIDE_MODULE);
  assert.match(pipeline, /export\s*\{[^}]*\bprocessImage\b/);
  // The worker: self-contained (no import, no export), so it runs as a module or classic worker.
  const worker = await dist.read(IMAGE_WORKER_FILE);
  assert.deepEqual(staticImports(worker), []);
  assert.doesNotMatch(worker, /(^|[;}\s])export\s*[{*]|import\.meta/);
  assert.match(worker, /convertToBlob/);
  assert.match(worker, /createImageBitmap/);
  // browser-image-compression is inside the worker (called there with useWebWorker: false), and
  // only there: on the page its work would be main-thread work.
  const LIBRARY_MARKER = 'Skip createImageBitmap on IOS and Safari';
  assert.ok(worker.includes(LIBRARY_MARKER), 'the worker holds the compression library');
  assert.ok(worker.includes('useWebWorker'), 'the worker calls the library');
  assert.equal(pipeline.includes(LIBRARY_MARKER), false, 'the pipeline module does not hold the library');
  // The capture view: self-contained too, and it brings no Lit of its own (the element hands its Lit in).
  const view = await dist.read(CAPTURE_VIEW_FILE);
  assert.deepEqual(staticImports(view), []);
  assert.deepEqual(
    dynamicImports(view).sort(),
    [`./${PIPELINE_FILE}`],
    'the capture view loads the pipeline (whose worker reads its frames) from beside itself: the same module the photo steps load',
  );
  assert.equal(/lit-html|Lit is in dev mode|customElements\.define\(`onboarding-flow`/.test(view), false, 'the capture view holds no Lit');
  for (const file of [PIPELINE_FILE, IMAGE_WORKER_FILE, CAPTURE_VIEW_FILE]) {
    const size = await sizes([file]);
    console.log(`${file} (lazy): ${size.raw} B raw, ${size.gzip} B gzip (${kb(size.gzip)}), ${size.brotli} B brotli (${kb(size.brotli)})`);
  }
});

test('the photo steps: one self-contained module beside the bundles, with no Lit and no event class of its own', async () => {
  const code = await dist.read(PHOTO_STEPS_FILE);
  assert.deepEqual(staticImports(code), []);
  // It loads the rest of what the first photo needs from beside itself.
  assert.deepEqual(dynamicImports(code).sort(), [`./${CAPTURE_VIEW_FILE}`, `./${PIPELINE_FILE}`]);
  assert.match(code, /export\s*\{[^}]*\bprovideKit\b/);
  assert.equal(/lit-html|Lit is in dev mode|customElements\.define\(`onboarding-flow`/.test(code), false, 'the photo steps hold no Lit');
  // The event classes and CompanionError are the element's, handed in: none is declared here.
  assert.doesNotMatch(
    code,
    /class \w+ extends CustomEvent|`onboarding-capture`|"onboarding-capture"/,
    'the photo steps declare no event class',
  );
  assert.doesNotMatch(code, /["'`]CompanionError["'`]/, 'the photo steps declare no CompanionError of their own');
  assert.match(await dist.read(BUNDLE_FILE), /["'`]CompanionError["'`]/, 'the bundle declares it');
  const size = await sizes([PHOTO_STEPS_FILE]);
  console.log(
    `${PHOTO_STEPS_FILE} (lazy): ${size.raw} B raw, ${size.gzip} B gzip (${kb(size.gzip)}), ${size.brotli} B brotli (${kb(size.brotli)})`,
  );
});

test('the npm modules keep their dependencies as imports and load the photo steps and the pipeline lazily', async () => {
  const index = await dist.read('index.js');
  const imports = staticImports(index);
  for (const dependency of ['lit', '@onboarding-kit/contract']) assert.ok(imports.includes(dependency), `${dependency} is imported`);
  assert.ok(!index.includes('class LitElement'), 'lit is not inlined');
  const chunks = dynamicImports(index);
  assert.equal(chunks.length, 4, chunks.join());
  assert.ok(
    chunks.some((c) => /^\.\/handoff-panel-[\w-]+\.js$/.test(c)),
    chunks.join(),
  );
  assert.ok(
    chunks.some((c) => /^\.\/after-send-[\w-]+\.js$/.test(c)),
    chunks.join(),
  );
  assert.ok(
    chunks.some((c) => /^\.\/consent-text-[\w-]+\.js$/.test(c)),
    chunks.join(),
  );
  const photoSteps = chunks.find((c) => /^\.\/photo-steps-[\w-]+\.js$/.test(c));
  assert.ok(photoSteps, chunks.join());
  // The photo steps' chunk loads the capture view and the pipeline in turn.
  const later = dynamicImports(await dist.read(photoSteps.slice(2)));
  assert.ok(
    later.some((c) => /^\.\/capture-view-[\w-]+\.js$/.test(c)),
    later.join(),
  );
  const chunk = later.find((c) => /^\.\/pipeline-[\w-]+\.js$/.test(c));
  const pipeline = await dist.read(chunk!.slice(2));
  // worker-url.ts resolves beside the chunk, in dist/, where the worker build wrote the file
  // (and a consumer's bundler copies it, as it does any `new URL('<literal>', import.meta.url)`).
  assert.deepEqual(dynamicImports(pipeline), []);
  assert.match(pipeline, WORKER_URL_BESIDE_MODULE);
});

test('no eval, no Function constructor, no public CDN in any hosted JavaScript', async () => {
  const scripts = dist.files.filter((f) => f.endsWith('.js'));
  assert.ok(scripts.length >= 5, scripts.join());
  for (const file of scripts) {
    const code = await dist.read(file);
    assert.doesNotMatch(code, /\beval\s*\(/, `${file}: eval(`);
    assert.doesNotMatch(code, /\bnew\s+Function\b|(?<![\w$.])Function\s*\(/, `${file}: Function constructor`);
    assert.doesNotMatch(code, /jsdelivr|unpkg|cdnjs|googleapis|jspm/i, `${file}: CDN URL`);
  }
});

test('the hand-off panel: one self-contained module beside the bundles with its QR encoder, no Lit of its own, in no first load', async () => {
  const panel = await dist.read(HANDOFF_FILE);
  assert.deepEqual(staticImports(panel), []);
  assert.deepEqual(dynamicImports(panel), []);
  assert.match(panel, /export\s*\{[^}]*\bdefineHandoffPanel\b/);
  assert.equal(/lit-html|Lit is in dev mode|customElements\.define\(`onboarding-flow`/.test(panel), false, 'the panel holds no Lit');
  // The panel's texts and the QR encoder are in it, and in neither first load.
  for (const marker of ['Gerar novo código', 'Aguardando o celular', 'unencodable characters in alphanumeric mode']) {
    assert.ok(panel.includes(marker), `the panel holds ${marker}`);
    for (const file of [BUNDLE_FILE, IIFE_FILE]) assert.equal((await dist.read(file)).includes(marker), false, `${file} holds ${marker}`);
  }
  const size = await sizes([HANDOFF_FILE]);
  console.log(
    `${HANDOFF_FILE} (lazy): ${size.raw} B raw, ${size.gzip} B gzip (${kb(size.gzip)}), ${size.brotli} B brotli (${kb(size.brotli)})`,
  );
});

/**
 * The liveness worker with what it fetches (the face model, one of TensorFlow.js's two `.wasm`),
 * gzip level 9: issue 33's budget for the challenge with its model.
 */
const LIVENESS_BUDGET = 1024 * 1024;

test('the liveness worker: one self-contained file with the face check’s cascade and its licence notice, in no first load, within budget with its model', async () => {
  // The first stage threshold of the face check's cascade: only the file that holds it has it.
  const MODEL_MARKER = '-4.1617846';
  const worker = await dist.read(LIVENESS_WORKER_FILE);
  assert.deepEqual(staticImports(worker), []);
  assert.deepEqual(dynamicImports(worker), []);
  assert.ok(worker.includes(MODEL_MARKER), 'the cascade is inside');
  assert.ok(worker.includes('Redistribution and use') && worker.includes('Puttemans Steven'), 'the cascade’s licence notice is kept');
  for (const file of [BUNDLE_FILE, IIFE_FILE, 'index.js', PHOTO_STEPS_FILE, CAPTURE_VIEW_FILE])
    assert.equal((await dist.read(file)).includes(MODEL_MARKER), false, `${file} holds the face check's cascade`);
  const fetched = [LIVENESS_WORKER_FILE, ...LIVENESS_FILES.filter((f) => f !== 'tfjs-backend-wasm.wasm')];
  const parts = await Promise.all(fetched.map(async (file) => ({ file, ...(await sizesOfBytes(file)) })));
  for (const part of parts) console.log(`${part.file} (lazy): ${part.raw} B raw, ${part.gzip} B gzip (${kb(part.gzip)})`);
  const total = parts.reduce((sum, part) => sum + part.gzip, 0);
  console.log(`the liveness challenge as fetched (SIMD engines): ${total} B gzip (${kb(total)})`);
  assert.ok(total <= LIVENESS_BUDGET, `${total} B gzip > ${LIVENESS_BUDGET}`);
});
