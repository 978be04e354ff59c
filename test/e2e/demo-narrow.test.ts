/**
 * The demo page on a 390 px phone in Firefox, the engine that does not break a line after a
 * hyphen that a digit follows: while the element shows "Analisando", the manual-review panel's
 * "Waiting for a decision on <token>" must wrap inside the screen instead of widening the page
 * and pushing the element past its right edge. The manual-review buttons are enabled only for
 * the sandbox's manual-review CPF; the flow ends with the reviewer's decision taken on the page.
 * Screenshots go to test/artifacts/firefox/390x844/demo-narrow/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '@onboarding-kit/testing/chromium';
import { openDriver, type OpenedDriver } from '@onboarding-kit/testing/driver';
import { buildDemo, type BuiltDemo } from './helpers/build-demo.js';
import { writeCardJpeg, writeFaceJpeg } from './helpers/browser.js';
import { driveEngineFlow } from './helpers/engine-flow.js';
import { REPO_ROOT, startStack, type RunningStack } from './helpers/stack.js';

const MANUAL_CPF = '987.654.321-00';
/** A token of the sandbox's shape whose every hyphen a digit follows, with more such groups than a UUID. */
const DIGIT_GROUPS_TOKEN = '1a2b3c4d-1111-2222-3333-4444-5555-6666-7777-8888-9999-0000-123456789012';

let built: BuiltDemo;
let stack: RunningStack;
let d: OpenedDriver | undefined;
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
  await d?.close();
  await stack?.stop();
  await built?.remove();
});

/** In-page: how far the page and the element reach past the viewport's right edge (0 when inside). */
function overflow(): { page: number; element: number; window: number } {
  // The layout viewport without the scrollbar Firefox draws on the page.
  const viewport = document.documentElement.clientWidth;
  const el = document.querySelector('onboarding-flow')!;
  return {
    page: Math.max(0, document.documentElement.scrollWidth - viewport),
    element: Math.max(0, Math.ceil(el.getBoundingClientRect().right) - viewport),
    window: window.innerWidth,
  };
}

const decisionButtons = () =>
  [...document.querySelectorAll<HTMLButtonElement>('#manual-review button[data-decision]')].map((b) => ({
    decision: b.dataset.decision ?? '',
    disabled: b.disabled,
  }));

test('firefox at 390 px: the token line wraps while "Analisando" shows; the decision buttons work only for the manual-review CPF', async () => {
  d = await openDriver('firefox', { camera: 'granted', origin: stack.url, viewport: { width: 390, height: 844 } });
  const dir = join(REPO_ROOT, 'test', 'artifacts', 'firefox', '390x844', 'demo-narrow');
  mkdirSync(dir, { recursive: true });
  const driver = d;
  await driver.goto(`${stack.url}/`);
  await driver.waitFor({ css: '#manual-review button[data-cpf]' });
  assert.ok(
    (await driver.evaluate(decisionButtons)).every((b) => b.disabled),
    'nothing to decide before an onboarding is sent',
  );
  await driver.click({ css: `#manual-review button[data-cpf="${MANUAL_CPF}"]` });
  const outcome = await driveEngineFlow(driver, {
    cpf: MANUAL_CPF,
    source: 'files',
    jpeg,
    faceJpeg,
    shot: async (step) => {
      if (step !== 'processing') return;
      const heading = await driver.evaluate(
        () => document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('section[data-step="processing"] h2')?.textContent ?? '',
      );
      assert.match(heading, /Analisando/);
      await driver.waitFor({ css: '#decision-status' });
      const status = await driver.text({ css: '#decision-status' });
      const token = /Waiting for a decision on (\S+)\./.exec(status)?.[1];
      assert.ok(token, `the panel waits for the manual-review onboarding: "${status}"`);
      assert.ok(
        (await driver.evaluate(decisionButtons)).every((b) => !b.disabled),
        'the manual-review onboarding can be decided',
      );
      // The line as the page writes it for a token whose every group starts with a digit.
      const show = (t: string) =>
        driver.evaluate(
          (tok) =>
            void document
              .querySelector('onboarding-flow')!
              .dispatchEvent(new CustomEvent('onboarding-submitted', { detail: { tokenOnboarding: tok }, bubbles: true, composed: true })),
          t,
        );
      await show(DIGIT_GROUPS_TOKEN);
      assert.match(await driver.text({ css: '#decision-status' }), new RegExp(DIGIT_GROUPS_TOKEN));
      await driver.screenshot(join(dir, 'processing-long-token.png'));
      const seen = await driver.evaluate(overflow);
      assert.equal(seen.window, 390);
      assert.deepEqual({ page: seen.page, element: seen.element }, { page: 0, element: 0 }, 'nothing reaches past the right edge');
      await show(token);
      await driver.click({ css: '#manual-review button[data-decision="APPROVED"]' });
    },
  });
  assert.equal(outcome.status, 'APPROVED', 'the reviewer’s decision reached the element');
});

test('an ordinary CPF: the decision buttons stay disabled and the panel says the sandbox decides it', async () => {
  const driver = d!;
  await driver.goto(`${stack.url}/`);
  await driver.click({ css: 'button[data-cpf="529.982.247-25"]' });
  const outcome = await driveEngineFlow(driver, {
    cpf: '529.982.247-25',
    source: 'files',
    jpeg,
    faceJpeg,
    shot: async (step) => {
      if (step !== 'processing') return;
      assert.ok(
        (await driver.evaluate(decisionButtons)).every((b) => b.disabled),
        'no decision offered for an onboarding the sandbox decides itself',
      );
      assert.match(await driver.text({ css: '#decision-status' }), /decides \S+ by itself/);
    },
  });
  assert.equal(outcome.status, 'APPROVED');
});
