/**
 * End to end, as a person meets the kit: the real stack started as `npm start` starts it
 * (companion + embedded sandbox + the demo built from source), one real Chromium with a fake
 * camera looping a document-like picture, a fresh browser context per test, run in order.
 *
 * Covered: the three sandbox outcomes on the script-tag page (`/`, shortcuts and live settings),
 * the outcome arriving by polling when the sandbox drops its webhooks, a person whose camera
 * permission is denied finishing with file uploads, the React and Vue pages, the strict CSP
 * (no violation anywhere), and a scan proving that no credential, access token, webhook key or
 * admin key ever reaches the browser (nor the built files or the server's log). The scan reads
 * what the run itself recorded: every exchange of every page (headers and bodies, event streams
 * as they arrived, requests that got no answer), every console message, and everything the
 * server printed. Screenshots of every step go to test/artifacts/e2e/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { maskTaxIdForPage } from '@onboarding-kit/contract';
import { DEMO_CSP } from '../../demo/csp.js';
import { buildDemo, type BuiltDemo } from './helpers/build-demo.js';
import {
  launchBrowser,
  recordedContext,
  screenshots,
  writeCardJpeg,
  writeFaceJpeg,
  type Exchange,
  type Recorded,
} from './helpers/browser.js';
import { driveFlow, flowLocators, recordFlowEvents, type PhotoSource } from './helpers/flow.js';
import { openedSessionCodes, sandboxControl, startStack, upstreamReport, upstreamToken, type RunningStack } from './helpers/stack.js';

const CPF = { approved: '529.982.247-25', refused: '111.444.777-35', error: '123.456.789-09', manual: '987.654.321-00' } as const;

let built: BuiltDemo;
let stack: RunningStack;
let browser: Browser;
let jpeg: string;
let faceJpeg: string;
/** Every exchange any test's page saw, for the final secret scan. */
const seen: Exchange[] = [];
/** Every console message of any test's page, for the same scan. */
const consoleSeen: string[] = [];

before(async () => {
  built = await buildDemo();
  stack = await startStack({ demoDir: built.demoDir, env: { SANDBOX_PROCESSING_MS: '1500' } });
  browser = await launchBrowser();
  jpeg = join(built.demoDir, '..', 'card.jpg');
  await writeCardJpeg(browser, jpeg);
  faceJpeg = join(built.demoDir, '..', 'face.jpg');
  await writeFaceJpeg(browser, faceJpeg);
});

after(async () => {
  await browser?.close();
  await stack?.stop();
  await built?.remove();
});

/** A recorded context for one test; checks the page-wide invariants when the test is done. */
async function withPage(
  name: string,
  options: { camera: boolean /** Requests the test itself makes fail (a file cut off on purpose). */; failing?: string },
  body: (r: Recorded, shot: (step: string) => Promise<void>) => Promise<void>,
): Promise<void> {
  const recorded = await recordedContext(browser, options);
  await recordFlowEvents(recorded.page);
  const shots = screenshots(recorded.page, name);
  try {
    await body(recorded, (step) => shots.take(step));
    const violations = await recorded.cspViolations();
    assert.deepEqual(violations, [], 'no CSP violation');
    assert.deepEqual(recorded.pageErrors, [], 'no uncaught error on the page');
    assert.deepEqual(recorded.external, [], 'nothing requested from another host');
    await recorded.settle();
    assert.deepEqual(
      recorded.failed.filter((f) => !options.failing || !f.includes(options.failing)),
      [],
      'no failed request',
    );
  } catch (error) {
    await shots.take('failure').catch(() => {});
    throw error;
  } finally {
    await recorded.settle();
    await recorded.context.close();
    seen.push(...recorded.exchanges);
    consoleSeen.push(...recorded.consoleMessages);
  }
}

/** Opens `path`, switches the flow to English with the page's own locale control. */
async function open(r: Recorded, path: string): Promise<void> {
  const response = await r.page.goto(`${stack.url}${path}`);
  assert.equal(response?.status(), 200);
  assert.equal(response.headers()['content-security-policy'], DEMO_CSP, 'served with the demo CSP');
  await r.page.locator('onboarding-flow section[data-step="intro"]').waitFor();
  await r.page.selectOption('#setting-locale', 'en');
  await r.page.locator('onboarding-flow h2', { hasText: 'Before you start' }).waitFor();
}

/**
 * Starts over with a test identity through the page's shortcut (prefills the CPF). The page opens
 * the new session asynchronously while the element still shows the intro of the session it was
 * rendered with, so this waits until the element holds the new one: a step taken before that
 * would be undone by the restart the new session causes.
 */
async function shortcut(r: Recorded, cpf: string): Promise<void> {
  const flow = r.page.locator('onboarding-flow');
  const before = await flow.evaluate((el) => (el as HTMLElement & { session: string }).session);
  await r.page.locator(`button[data-cpf="${cpf}"]`).click();
  await r.page.waitForFunction((previous) => {
    const el = document.querySelector<HTMLElement & { session: string }>('onboarding-flow');
    return !!el?.session && el.session !== previous;
  }, before);
  await flow.evaluate((el) => (el as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete);
}

async function runOnCapturePage(
  name: string,
  cpf: string,
  source: PhotoSource = 'camera',
  camera = true,
  whileProcessing?: (r: Recorded, shot: (step: string) => Promise<void>) => Promise<void>,
) {
  let result!: Awaited<ReturnType<typeof driveFlow>>;
  let logText = '';
  await withPage(name, { camera }, async (r, shot) => {
    await open(r, '/');
    await shortcut(r, cpf);
    result = await driveFlow(r.page, {
      // A shortcut opens a session for the CPF: the page is shown it masked.
      expectCpf: maskTaxIdForPage(cpf),
      source,
      jpeg,
      faceJpeg,
      shot,
      ...(whileProcessing && { whileProcessing: () => whileProcessing(r, shot) }),
    });
    // The page's event log saw the same events, the outcome last.
    await r.page.locator(`#last-outcome[data-status="${result.status}"]`).waitFor();
    logText = (await r.page.locator('#event-log').textContent()) ?? '';
    for (const type of ['onboarding-step-change', 'onboarding-capture', 'onboarding-submitted', 'onboarding-complete']) {
      assert.ok(logText.includes(type), `the event log lists ${type}`);
    }
    assert.ok(logText.includes(result.tokenOnboarding), 'the log shows the event details');
  });
  return { ...result, logText };
}

describe('demo capture page (/), element loaded by script tag', () => {
  test('settings apply live: language, document types, theme colour, kept in the address bar', async () => {
    await withPage('settings', { camera: true }, async (r, shot) => {
      await open(r, '/');
      const { flow, step, primary } = flowLocators(r.page);
      assert.equal(await flow.getAttribute('locale'), 'en');
      await r.page.locator('#setting-type-RG').uncheck();
      await r.page.locator('#setting-type-PASSPORT').check();
      await r.page.locator('#setting-color-primary').fill('#aa0066');
      await shot('settings-changed');
      const background = await primary.evaluate((b) => getComputedStyle(b).backgroundColor);
      assert.equal(background, 'rgb(170, 0, 102)', 'the primary button takes the theme colour');
      assert.match(r.page.url(), /locale=en/);
      assert.match(r.page.url(), /types=CNH%2CPASSPORT/);
      // The intro names the offered documents: CNH or Passport now.
      assert.match((await flow.locator('[part~="intro-needs"]').textContent()) ?? '', /CNH or Passport/);
      await primary.click();
      await step('consent').waitFor();
      await flow.locator('#consent').check();
      await primary.click();
      await flow.locator('#cpf').fill('52998224725');
      await primary.click();
      await step('document-type').waitFor();
      const offered = await flow.locator('input[type=radio]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      assert.deepEqual(offered, ['CNH', 'PASSPORT']);
      await shot('document-types');
      // A reload keeps the settings (they live in the query string).
      await r.page.reload();
      await flow.locator('h2', { hasText: 'Before you start' }).waitFor();
      assert.equal(await r.page.locator('#setting-type-PASSPORT').isChecked(), true);
    });
  });

  test('offline when the photo steps are needed: a clear message with a Retry that works, the steps fetched ahead of the camera step', async () => {
    const PHOTO_STEPS = '**/element/onboarding-flow.photo-steps.js';
    await withPage('photo-steps-offline', { camera: true, failing: 'onboarding-flow.photo-steps.js' }, async (recorded, shot) => {
      const { page } = recorded;
      const { flow, step, primary } = flowLocators(page);
      // The network is gone for the photo steps' file (it is fetched from the consent step on).
      let refused = 0;
      await page.route(PHOTO_STEPS, async (route) => {
        refused++;
        await route.abort('internetdisconnected');
      });
      await open(recorded, '/');
      const bundleOnly = recorded.exchanges.map((e) => e.url).filter((url) => url.includes('/element/'));
      assert.ok(!bundleOnly.some((url) => url.includes('photo-steps')), 'the intro loads no photo step');
      await shortcut(recorded, CPF.approved);
      // The intro's list shows once the session is read.
      await flow.locator('[part~="intro-needs"]').waitFor();
      await primary.click();
      await step('consent').waitFor();
      await flow.locator('#consent').check();
      await primary.click();
      await step('cpf').waitFor();
      await primary.click();
      await step('document-type').waitFor();
      await flow.locator('#doctype-CNH').check();
      await primary.click();
      // On the first photo step: said plainly, with a way on; never a broken or empty step.
      await step('document-front').waitFor();
      const problem = flow.locator('[data-part-failed]');
      await problem.waitFor();
      assert.equal(await problem.getAttribute('role'), 'alert');
      assert.match((await problem.textContent()) ?? '', /This step could not be loaded\. Check your internet connection and try again\./);
      assert.equal(await flow.locator('h2').textContent(), 'CNH front');
      assert.ok(refused >= 1, 'the file was asked for');
      await shot('failed');
      // Back online: Retry brings the step itself.
      await page.unroute(PHOTO_STEPS);
      await flow.locator('button', { hasText: 'Try again' }).press('Enter');
      await flow.locator('[data-capture-start]').first().waitFor();
      // Focus stays on the step (its heading), not lost with the Retry button.
      assert.equal(await flow.evaluate((el) => el.shadowRoot!.activeElement?.id), 'heading');
      assert.equal(await flow.locator('[data-part-failed]').count(), 0);
      assert.equal(await step('document-front').getAttribute('aria-busy'), 'false');
      await shot('retried');
      // And it works: a photo from a file is checked and shown.
      await flow.locator('input[type=file]').first().setInputFiles(jpeg);
      await flow.locator('img[part~="preview"]').waitFor({ timeout: 60_000 });
    });
  });

  test(`APPROVED: a person completes the flow with the camera (${CPF.approved})`, async () => {
    const result = await runOnCapturePage('approved', CPF.approved);
    assert.equal(result.status, 'APPROVED');
    assert.match(result.text, /Identity verified/);
    const complete = result.events.filter((e) => e.type === 'onboarding-complete');
    assert.equal(complete.length, 1);
    assert.deepEqual(complete[0]!.detail, { tokenOnboarding: result.tokenOnboarding, status: 'APPROVED' });
    assert.equal(result.events.filter((e) => e.type === 'onboarding-capture').length, 3, 'three photos captured');
  });

  test(`REFUSED: the refused test CPF sees the refusal and its message (${CPF.refused})`, async () => {
    const result = await runOnCapturePage('refused', CPF.refused);
    assert.equal(result.status, 'REFUSED');
    assert.match(result.text, /Verification not approved/);
    assert.match(result.text, /The verification could not be approved with the data sent\./);
    const complete = result.events.find((e) => e.type === 'onboarding-complete');
    assert.deepEqual(complete?.detail, { tokenOnboarding: result.tokenOnboarding, status: 'REFUSED' });
    const report = await upstreamReport(stack, await upstreamToken(stack), result.tokenOnboarding);
    assert.equal(report.status, 'REFUSED', 'the page shows what the upstream decided');
    const upstreamReason = (report.services as { message?: string }[]).map((s) => s.message).find(Boolean);
    assert.ok(upstreamReason, 'the sandbox gave a reason');
    // The onboarding report carries a reason only inside `services`, which the upstream puts
    // outside the contract (docs/upstream-api.md, rule 6: it never reaches the page), so the page
    // explains REFUSED in its own words and nothing of `services` shows.
    assert.ok(!result.text.includes(upstreamReason!), 'nothing from the non-contract services member reaches the page');
  });

  test(`ERROR: the error test CPF sees the technical error with a support code for its session (${CPF.error})`, async () => {
    const result = await runOnCapturePage('error', CPF.error);
    assert.equal(result.status, 'ERROR');
    const report = await upstreamReport(stack, await upstreamToken(stack), result.tokenOnboarding);
    const externalId = report.externalId;
    assert.equal(typeof externalId, 'string', 'the sandbox reported an externalId');
    // The person reads out 8 characters that support finds the session by, not the upstream's id.
    const code = openedSessionCodes(stack).at(-1);
    assert.ok(code, 'the demo backend opened a session for the flow');
    assert.ok(result.text.includes(code!), `the support code of the flow's session is shown (${code})`);
    assert.ok(!result.text.includes(externalId as string), 'the upstream id is for the integrator, not read aloud');
    const complete = result.events.find((e) => e.type === 'onboarding-complete');
    assert.deepEqual(complete?.detail, { tokenOnboarding: result.tokenOnboarding, status: 'ERROR', externalId });
    assert.ok(result.logText.includes(externalId as string), 'the event log shows the externalId');
  });

  test(`manual review: ${CPF.manual} waits until the reviewer refuses it on the page`, async () => {
    const result = await runOnCapturePage('manual-review', CPF.manual, 'camera', true, async (r, shot) => {
      const refuse = r.page.locator('#manual-review button[data-decision="REFUSED"]');
      await r.page.locator('#decision-status', { hasText: 'Waiting for a decision' }).waitFor();
      // Still undecided well past the sandbox's processing time: only the reviewer decides.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal(await r.page.locator('onboarding-flow section[data-step="processing"]').count(), 1, 'still processing');
      await shot('manual-review-waiting');
      await refuse.click();
    });
    assert.equal(result.status, 'REFUSED');
    assert.match(result.text, /Verification not approved/);
  });

  test('webhooks dropped by the sandbox: the outcome still arrives, by polling the report', async () => {
    const before = await sandboxControl<{ webhooksSent: number; requests: Record<string, number> }>(stack, '/stats');
    await sandboxControl(stack, '/faults', { dropWebhooks: true });
    try {
      const result = await runOnCapturePage('webhooks-dropped', CPF.approved);
      assert.equal(result.status, 'APPROVED');
    } finally {
      await sandboxControl(stack, '/reset', {});
    }
    const afterStats = await sandboxControl<{ webhooksSent: number; requests: Record<string, number> }>(stack, '/stats');
    assert.equal(afterStats.webhooksSent, before.webhooksSent, 'no webhook was delivered');
    const reports = (s: typeof before) => s.requests['GET /api/onboarding/report'] ?? 0;
    assert.ok(reports(afterStats) > reports(before), 'the companion polled the report');
  });

  test('camera permission denied: the person finishes with photos from files', async () => {
    const result = await runOnCapturePage('camera-denied', CPF.approved, 'denied-camera-then-files', false);
    assert.equal(result.status, 'APPROVED');
    const errors = result.events.filter((e) => e.type === 'onboarding-error');
    assert.ok(
      errors.some((e) => e.detail?.code === 'camera_denied'),
      `camera_denied was reported: ${JSON.stringify(errors)}`,
    );
  });
});

// React starts from its shortcut (a prop plus a ref's start()), Vue with the CPF typed in.
for (const [framework, path, how] of [
  ['React', '/react', 'shortcut'],
  ['Vue', '/vue', 'typed'],
] as const) {
  test(`${framework} example (${path}): the same flow reaches APPROVED and the app hears the events`, async () => {
    await withPage(framework.toLowerCase(), { camera: true }, async (r, shot) => {
      await open(r, path);
      if (how === 'shortcut') await shortcut(r, CPF.approved);
      const typeCpf = how === 'typed' ? { typeCpf: '52998224725' } : {};
      const expectCpf = how === 'shortcut' ? maskTaxIdForPage(CPF.approved) : CPF.approved;
      const result = await driveFlow(r.page, { ...typeCpf, expectCpf, source: 'camera', faceJpeg, shot });
      assert.equal(result.status, 'APPROVED');
      // The app's own handler (React onComplete prop / Vue @onboarding-complete) saw the outcome.
      await r.page.locator('#last-outcome[data-status="APPROVED"]').waitFor();
      const log = (await r.page.locator('#event-log').textContent()) ?? '';
      assert.ok(log.includes('onboarding-complete') && log.includes(result.tokenOnboarding));
      await shot('app-outcome');
    });
  });
}

/** Every JWT-shaped string (header.payload.signature, base64url, header starting `{"`). */
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

test('no credential, access token or webhook key reaches the browser or the built files', async () => {
  // The scan must be able to find a token: learn the sandbox's token shape from a real one.
  const sample = await upstreamToken(stack);
  assert.match(sample, JWT, 'the JWT pattern matches a real sandbox access token');
  const stats = await sandboxControl<{ tokensIssued: number }>(stack, '/stats');
  assert.ok(stats.tokensIssued >= 2, 'the companion obtained its own access token(s) during the run');
  assert.ok(seen.length > 50, `the pages' traffic was recorded (${seen.length} exchanges)`);
  assert.ok(
    seen.some((e) => e.url.includes('/v1/onboardings') && e.method === 'POST' && e.status === 201),
    'creations were recorded',
  );
  assert.ok(
    seen.some((e) => e.kind === 'stream' && e.url.endsWith('/events') && e.responseBody.includes('event: status')),
    'the status streams were recorded as they arrived',
  );

  const needles = [stack.secret, stack.webhookKey, stack.adminKey, 'sandbox-secret', 'sandbox-webhook-key', sample];
  const findings: string[] = [];
  const check = (where: string, text: string) => {
    for (const needle of needles)
      if (text.includes(needle))
        findings.push(`${where}: contains ${needle === sample ? 'an access token' : `"${needle.slice(0, 14)}..."`}`);
    for (const m of text.match(JWT) ?? []) findings.push(`${where}: JWT-shaped ${m.slice(0, 16)}...`);
  };
  for (const e of seen) {
    const where = `${e.kind === 'stream' ? 'stream ' : ''}${e.method} ${e.url}`;
    check(`${where} request headers`, e.requestHeaders);
    check(`${where} request body`, e.requestBody);
    check(`${where} response headers`, e.responseHeaders);
    check(`${where} response body`, e.responseBody);
  }
  check('console', consoleSeen.join('\n'));
  const files = [...(await filesUnder(built.demoDir)), ...(await filesUnder(built.elementDir))];
  assert.ok(files.some((f) => f.endsWith('onboarding-flow.bundle.js')));
  for (const file of files) check(file, await readFile(file, 'latin1'));
  // And the log lines `npm start` wrote during the run (docs/upstream-api.md, rule 9: never in a
  // log line).
  check('npm start output', stack.output());
  assert.deepEqual(findings, []);
});
