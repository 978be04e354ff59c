/**
 * The capture flows in every engine ENGINES picks (Chromium, Firefox, WebKit by default), one
 * engine after another (on 2 cores, engines side by side are slower), against the real stack
 * started as `npm start` starts it. The same steps through the engine-neutral Driver:
 * - APPROVED, REFUSED and ERROR (the support code of its session shown) with photos from files, the
 *   way every engine can give the page a real photo;
 * - the camera's live preview, and photos from it where the engine's fake camera shows something
 *   the checks accept, else its refusal then a file (Chromium's loops the card picture, which the
 *   selfie's face check refuses; WebKit's environment-facing mock device shows a test pattern, its
 *   user-facing one a pattern on black, all black in the oval, which the brightness check must
 *   refuse; Firefox's is a flat green frame, refused as blurry at every step). The selfie from a
 *   file is a real face (writeFaceJpeg);
 * - camera permission denied, then photos from files, where the engine can deny (not WebKit:
 *   no WebDriver permission endpoint, and the demo's `frame-ancestors 'none'` forbids the
 *   `<iframe allow="camera 'none'">` that would deny).
 * Every page must end with no uncaught error, no console error, no CSP violation (the demo's
 * strict header CSP) and no request to another host, as the engine and the in-page collector saw it.
 * Screenshots of every step at 390x844 and 1366x768 go to test/artifacts/<engine>/<size>/<flow>/
 * (WebKit's MiniBrowser window is never narrower than 447 px: its "390" shots are 447 wide).
 * capture-flows.test.ts covers the rest (settings, manual review, polling, React/Vue, secret
 * scan) in Chromium, and there also REFUSED, ERROR, the camera and the denied camera, with more
 * checks (events, the upstream's report): in Chromium this file runs only the flow with files.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '@onboarding-kit/testing/chromium';
import { canDenyCamera, openDriver, type OpenedDriver } from '@onboarding-kit/testing/driver';
import { selectedEngines } from '@onboarding-kit/testing/engines';
import { buildDemo, type BuiltDemo } from './helpers/build-demo.js';
import { writeCardJpeg, writeFaceJpeg } from './helpers/browser.js';
import { driveEngineFlow, type EngineFlowOptions, type EngineSource } from './helpers/engine-flow.js';
import { openedSessionCodes, startStack, type RunningStack } from './helpers/stack.js';
import { REPO_ROOT } from './helpers/stack.js';

const CPF = { approved: '529.982.247-25', refused: '111.444.777-35', error: '123.456.789-09' } as const;
const SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
] as const;

let built: BuiltDemo;
let stack: RunningStack;
let jpeg: string;
let faceJpeg: string;

before(async () => {
  built = await buildDemo();
  stack = await startStack({ demoDir: built.demoDir, env: { SANDBOX_PROCESSING_MS: '1500' } });
  jpeg = join(built.demoDir, '..', 'card.jpg');
  faceJpeg = join(built.demoDir, '..', 'face.jpg');
  const browser = await launchChromium();
  try {
    await writeCardJpeg(browser, jpeg);
    await writeFaceJpeg(browser, faceJpeg);
  } finally {
    await browser.close();
  }
});

after(async () => {
  await stack?.stop();
  await built?.remove();
});

/** Screenshots of one flow at both sizes, ending at the large one (the size the flow runs at). */
function shooter(d: OpenedDriver, flow: string) {
  let n = 0;
  return async (step: string) => {
    const name = `${String(++n).padStart(2, '0')}-${step}.png`;
    for (const size of SIZES) {
      const got = await d.setViewport(size);
      const dir = join(REPO_ROOT, 'test', 'artifacts', d.engine, `${got.width}x${got.height}`, flow);
      if (n === 1) rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      // One frame for the layout to settle at the new size.
      await d.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await d.screenshot(join(dir, name));
    }
  };
}

/** Nothing escaped the page: errors, console errors, CSP violations, other hosts. */
async function assertCleanPage(d: OpenedDriver, flow: string): Promise<void> {
  const seen = await d.errors();
  assert.deepEqual(seen.errors, [], `${d.engine} ${flow}: no uncaught error or rejection`);
  assert.deepEqual(seen.csp, [], `${d.engine} ${flow}: no CSP violation`);
  assert.deepEqual(
    seen.console.filter((m) => m.startsWith('error')),
    [],
    `${d.engine} ${flow}: no console error`,
  );
  assert.deepEqual(d.external(), [], `${d.engine} ${flow}: nothing requested from another host`);
}

async function runFlow(
  d: OpenedDriver,
  flow: string,
  cpf: string,
  source: EngineSource,
  extra: Pick<EngineFlowOptions, 'cameraRefusals'> = {},
) {
  await d.goto(`${stack.url}/?locale=en`);
  await d.click({ css: `button[data-cpf="${cpf}"]` });
  const outcome = await driveEngineFlow(d, { cpf, source, jpeg, faceJpeg, shot: shooter(d, flow), ...extra });
  await assertCleanPage(d, flow);
  return outcome;
}

/** What capture-flows.test.ts already runs in Chromium, on the same stack, with more checks. */
const COVERED_IN_CHROMIUM = 'capture-flows.test.ts runs this flow in Chromium, with its events and the upstream report checked';

for (const engine of selectedEngines()) {
  const elsewhere = engine === 'chromium' && COVERED_IN_CHROMIUM;
  describe(`${engine}: capture flows on the demo page`, () => {
    let d: OpenedDriver;
    before(async () => {
      d = await openDriver(engine, { camera: 'granted', origin: stack.url });
    });
    after(async () => {
      await d?.close();
    });

    test(`${engine}: APPROVED with photos from files`, async () => {
      const outcome = await runFlow(d, 'approved-files', CPF.approved, 'files');
      assert.equal(outcome.status, 'APPROVED');
      assert.match(outcome.text, /Identity verified/);
    });

    test(`${engine}: REFUSED shows the refusal`, { skip: elsewhere }, async () => {
      const outcome = await runFlow(d, 'refused', CPF.refused, 'files');
      assert.equal(outcome.status, 'REFUSED');
      assert.match(outcome.text, /Verification not approved/);
    });

    test(`${engine}: ERROR shows the support code of its session`, { skip: elsewhere }, async () => {
      const outcome = await runFlow(d, 'error', CPF.error, 'files');
      assert.equal(outcome.status, 'ERROR');
      const code = openedSessionCodes(stack).at(-1);
      assert.ok(code, `${engine}: the demo backend opened a session for the flow`);
      assert.ok(outcome.text.includes(code!), `${engine}: the support code of the flow's session is shown (${code})`);
    });

    test(`${engine}: APPROVED with photos from the camera`, { skip: elsewhere }, async () => {
      // What each engine's fake camera shows, refused where the element must refuse it (then a
      // file replaces the photo): Chromium's card passes as a document but the selfie's face check
      // finds no face in it; WebKit's mock cameras show a test pattern with no document in the
      // documents' guide, and the user-facing one (the selfie's) is black in the oval; Firefox's
      // is a flat green frame: no document in the documents' guide (as the live hint says), a
      // blurry selfie.
      const faceRefusal = /could not find a face|more than one face|face is too far|face is outside/;
      const blurry = /shaky or out of focus/;
      const noDocument = /could not find the document in the frame/;
      const cameraRefusals: Record<string, RegExp> =
        engine === 'webkit'
          ? { 'document-front': noDocument, 'document-back': noDocument, selfie: /too dark/ }
          : engine === 'firefox'
            ? { 'document-front': noDocument, 'document-back': noDocument, selfie: blurry }
            : { selfie: faceRefusal };
      const outcome = await runFlow(d, 'approved-camera', CPF.approved, 'camera', { cameraRefusals });
      assert.equal(outcome.status, 'APPROVED');
    });

    test(`${engine}: camera denied, then photos from files`, {
      skip:
        elsewhere ||
        (!canDenyCamera(engine) &&
          "WebKit cannot deny the camera: no WebDriver permission endpoint, and the demo's frame-ancestors 'none' forbids an iframe with allow=\"camera 'none'\""),
    }, async () => {
      const denied = await openDriver(engine, { camera: 'denied', origin: stack.url });
      try {
        const outcome = await runFlow(denied, 'camera-denied', CPF.approved, 'denied-camera-then-files');
        assert.equal(outcome.status, 'APPROVED');
      } finally {
        await denied.close();
      }
    });
  });
}
