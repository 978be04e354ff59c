/**
 * The hosted capture page for real (docs/hosted-page.md): the stack as `npm start` runs it, with a
 * brand from `ONBOARDING_BRAND_*`; a backend (this test) opens a session and a phone-sized
 * Chromium opens its `url`, completes the flow with photos from files and lands on the
 * `returnUrl` with `session` and `status`; under the page's CSP nothing is violated and nothing is
 * requested from another host, in Firefox and WebKit too; the hand-off link and the short code
 * bring the session to a second browser context. Screenshots of the page, the 404 and the 410
 * pages at 390x844 and 1366x768 go to test/artifacts/e2e/hosted-page/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { CreateSessionResponse, HandoffOffer, SessionView } from '@onboarding-kit/contract';
import { openDriver } from '@onboarding-kit/testing/driver';
import { selectedEngines } from '@onboarding-kit/testing/engines';
import { buildDemo, type BuiltDemo } from './helpers/build-demo.js';
import { launchBrowser, recordedContext, writeCardJpeg, writeFaceJpeg, type Recorded } from './helpers/browser.js';
import { driveFlow, flowLocators, recordFlowEvents } from './helpers/flow.js';
import { REPO_ROOT, startStack, type RunningStack } from './helpers/stack.js';

const API_KEY = `sk_e2e_${randomBytes(24).toString('hex')}`;
const CPF = '529.982.247-25';
/** The session's CPF as the page is shown it. */
const MASKED_CPF = '***.982.247-**';
const SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
] as const;
const ARTIFACTS = join(REPO_ROOT, 'test', 'artifacts', 'e2e', 'hosted-page');
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="10" fill="#6a1b9a"/><path d="M11 28V12h10a5 5 0 0 1 0 10h-10m10 0a6 6 0 0 1 0 12" fill="none" stroke="#fff" stroke-width="3"/></svg>`;

let built: BuiltDemo;
let stack: RunningStack;
let browser: Browser;
let landing: Server;
let landingUrl: string;
let jpeg: string;
let faceJpeg: string;

before(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  // The integrator's page the person returns to: another origin on loopback.
  landing = createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Back</title><h1>Back at the service</h1><p>${req.url}</p>`),
  );
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
  built = await buildDemo();
  const logo = join(built.demoDir, '..', 'brand-logo.svg');
  writeFileSync(logo, LOGO);
  stack = await startStack({
    demoDir: built.demoDir,
    env: {
      SANDBOX_PROCESSING_MS: '1500',
      ONBOARDING_API_KEYS: API_KEY,
      ONBOARDING_BRAND_NAME: 'Banco Exemplo',
      ONBOARDING_BRAND_LOGO: logo,
      ONBOARDING_BRAND_COLOR: '#6a1b9a',
      ONBOARDING_BRAND_BACKGROUND: '#f4eef8',
      ONBOARDING_BRAND_RADIUS: '12',
    },
  });
  browser = await launchBrowser();
  jpeg = join(built.demoDir, '..', 'card.jpg');
  faceJpeg = join(built.demoDir, '..', 'face.jpg');
  await writeCardJpeg(browser, jpeg);
  await writeFaceJpeg(browser, faceJpeg);
});

after(async () => {
  await browser?.close();
  await stack?.stop();
  await built?.remove();
  await new Promise((resolve) => landing?.close(resolve));
});

async function openSession(payload: Record<string, unknown> = {}): Promise<CreateSessionResponse & { token: string }> {
  const res = await fetch(`${stack.url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `e2e-hosted-${randomBytes(3).toString('hex')}`, cpf: CPF, ...payload }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const s = (await res.json()) as CreateSessionResponse;
  return { ...s, token: new URL(s.url).pathname.split('/').pop()! };
}

/** A screenshot of `page` at both sizes, named `<name>-<w>x<h>.png`. */
async function shootBoth(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size.width}x${size.height}.png`), fullPage: true });
  }
}

/** `expected`: console errors the browser logs by itself for an answer the page expects (the claim's 410). */
async function assertClean(recorded: Recorded, what: string, expected?: RegExp): Promise<void> {
  assert.deepEqual(await recorded.cspViolations(), [], `${what}: no CSP violation`);
  assert.deepEqual(recorded.external, [], `${what}: nothing requested from another host`);
  assert.deepEqual(recorded.pageErrors, [], `${what}: no uncaught error`);
  assert.deepEqual(
    recorded.consoleErrors.filter((m) => !expected?.test(m)),
    [],
    `${what}: no console error`,
  );
}

test('a person sent to the hosted page completes the flow at 390x844 and lands on the returnUrl with session and status', async () => {
  const session = await openSession({ returnUrl: `${landingUrl}/kyc/done?from=kyc`, locale: 'pt-BR' });
  const recorded = await recordedContext(browser, { camera: true });
  const { page } = recorded;
  await recordFlowEvents(page);
  let n = 0;
  const shot = async (step: string): Promise<void> => {
    await page.screenshot({ path: join(ARTIFACTS, `flow-390x844-${String(++n).padStart(2, '0')}-${step}.png`), fullPage: true });
  };
  try {
    await page.setViewportSize(SIZES[0]);
    const res = await page.goto(session.url);
    assert.equal(res?.status(), 200);
    assert.equal(
      await res!.headerValue('content-security-policy'),
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; media-src blob: mediastream:; connect-src 'self'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    await flowLocators(page).step('intro').waitFor();
    // The brand is on the page and on the flow.
    assert.equal(await page.locator('.okit-header img').getAttribute('alt'), 'Banco Exemplo');
    assert.ok(
      await page.locator('.okit-header img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      'the logo loaded',
    );
    const primary = await flowLocators(page).primary.evaluate((b) => getComputedStyle(b).backgroundColor);
    assert.equal(primary, 'rgb(106, 27, 154)', 'the flow wears the brand colour');
    await shootBoth(page, 'page-fresh');
    await page.setViewportSize(SIZES[0]);
    // The capture token left the address for a page secret this tab keeps: a reload continues.
    assert.equal(new URL(page.url()).pathname, '/capture', 'the capture token left the address bar');
    await page.reload();
    await flowLocators(page).step('intro').waitFor();
    assert.equal(new URL(page.url()).pathname, '/capture');
    // The URL copied from a history opens nothing in another browser.
    const copy = await recordedContext(browser, { camera: false });
    try {
      const again = await copy.page.goto(session.url);
      assert.equal(again?.status(), 410);
      assert.match((await copy.page.locator('h1').textContent()) ?? '', /Este link já foi aberto/);
      assert.equal(await copy.page.locator('onboarding-flow').count(), 0);
    } finally {
      await copy.context.close();
    }

    const outcome = await driveFlow(page, { expectCpf: MASKED_CPF, source: 'files', jpeg, faceJpeg, shot });
    assert.equal(outcome.status, 'APPROVED');
    // A moment on the outcome: "Redirecionando…" with a link to go at once.
    const banner = page.locator('#okit-banner');
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /Redirecionando…\s*Continuar agora/);
    const href = await banner.locator('a').getAttribute('href');
    await shot('redirecting');
    await assertClean(recorded, 'the hosted page');
    await page.waitForURL((url) => url.origin === landingUrl, { timeout: 15_000 });
    const back = new URL(page.url());
    assert.equal(back.pathname, '/kyc/done');
    assert.equal(back.searchParams.get('from'), 'kyc');
    assert.equal(back.searchParams.get('session'), session.id);
    assert.equal(back.searchParams.get('status'), 'APPROVED');
    assert.equal(href, back.href, 'the link went where the page went');
    await page.locator('h1').waitFor();
    // The backend confirms (the status in the address is only a hint).
    const view = (await (
      await fetch(`${stack.url}/v1/sessions/${session.id}`, { headers: { authorization: `Bearer ${API_KEY}` } })
    ).json()) as SessionView;
    assert.equal(view.status, 'completed');
    assert.equal(view.onboarding?.status, 'APPROVED');
    // The token never reached the server's log, and the page never told another site of it.
    assert.ok(!stack.output().includes(session.token), 'no capture token in the log');
    assert.match(stack.output(), /"path":"\/capture\/:token"/);
    const exchanges = await recorded.settle();
    const toLanding = exchanges.filter((e) => e.url.startsWith(landingUrl));
    assert.ok(toLanding.length > 0);
    for (const e of toLanding) assert.doesNotMatch(e.requestHeaders, /^referer:/im, 'no Referer to the return page');

    // Now used: the same link is a 410 page, with the way back.
    const used = await page.goto(session.url);
    assert.equal(used?.status(), 410);
    await shootBoth(page, 'page-410-used');
    assert.match((await page.locator('h1').textContent()) ?? '', /Este link já foi usado/);
  } catch (error) {
    await shot('failure').catch(() => {});
    throw error;
  } finally {
    await recorded.context.close();
  }
});

test('the 404 page in the browser’s language and a page in the session’s, with the brand', async () => {
  const recorded = await recordedContext(browser, { camera: false });
  const { page } = recorded;
  try {
    const spanish = await openSession({ locale: 'es' });
    await page.goto(spanish.url);
    await flowLocators(page).step('intro').waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    assert.match(await page.title(), /^Verificación de identidad · Banco Exemplo$/);
    await assertClean(recorded, 'the Spanish page');
    // The browser logs the 404 of the page itself as a console error: only the CSP and the hosts are judged there.
    const missing = await page.goto(`${stack.url}/capture/no-such-token-${randomBytes(12).toString('hex')}`);
    assert.equal(missing?.status(), 404);
    assert.equal(await page.locator('h1').textContent(), 'Link not found', 'en-GB browser');
    await shootBoth(page, 'page-404');
    assert.deepEqual(await recorded.cspViolations(), []);
    assert.deepEqual(recorded.external, []);
  } finally {
    await recorded.context.close();
  }
});

test('the hand-off link and the short code bring the session to a second context; GETs alone claim nothing', async () => {
  const session = await openSession({ locale: 'en' });
  const offer = async () =>
    (await (
      await fetch(`${stack.url}/v1/session/handoff`, { method: 'POST', headers: { authorization: `Bearer ${session.token}` } })
    ).json()) as HandoffOffer;
  const handoffState = async () =>
    (
      (await (await fetch(`${stack.url}/v1/session`, { headers: { authorization: `Bearer ${session.token}` } })).json()) as {
        handoff: { state: string };
      }
    ).handoff.state;
  const link = await offer();
  // A link scanner's GET, twice: the link still works afterwards.
  for (let i = 0; i < 2; i++) assert.equal((await fetch(link.url)).status, 200);
  assert.equal(await handoffState(), 'pending');

  const phone = await recordedContext(browser, { camera: true });
  try {
    await phone.page.setViewportSize(SIZES[0]);
    await phone.page.goto(link.url);
    await flowLocators(phone.page).step('intro').waitFor();
    assert.equal(new URL(phone.page.url()).pathname, '/capture', 'the spent link left the address bar');
    assert.equal(await handoffState(), 'claimed');
    await phone.page.screenshot({ path: join(ARTIFACTS, 'handoff-phone-390x844.png'), fullPage: true });
    // A reload continues with the secret kept in sessionStorage.
    await phone.page.reload();
    await flowLocators(phone.page).step('intro').waitFor();
    await assertClean(phone, 'the phone');
    // The link again, in another context: used.
    const other = await recordedContext(browser, { camera: false });
    try {
      await other.page.setViewportSize(SIZES[0]);
      await other.page.goto(link.url);
      await other.page.locator('#okit-link-used h1').waitFor();
      await other.page.screenshot({ path: join(ARTIFACTS, 'handoff-link-used-390x844.png'), fullPage: true });
      await assertClean(other, 'the used link', /^Failed to load resource: the server responded with a status of 410/);
    } finally {
      await other.context.close();
    }
  } finally {
    await phone.context.close();
  }

  // The computer takes the session back and offers a new code; a phone types it (wrong first).
  assert.equal(
    (await fetch(`${stack.url}/v1/session/handoff/reclaim`, { method: 'POST', headers: { authorization: `Bearer ${session.token}` } }))
      .status,
    200,
  );
  const second = await offer();
  const typing = await recordedContext(browser, { camera: true });
  try {
    await typing.page.setViewportSize(SIZES[0]);
    await typing.page.goto(second.shortUrl);
    await typing.page.fill('#okit-code', 'aaaa-aaaa');
    await typing.page.click('#okit-code-form button');
    await typing.page.locator('#okit-code-message.error').waitFor();
    assert.match((await typing.page.locator('#okit-code-message').textContent()) ?? '', /Wrong code/);
    await typing.page.screenshot({ path: join(ARTIFACTS, 'handoff-code-wrong-390x844.png'), fullPage: true });
    typing.consoleErrors.length = 0; // the wrong code's 404, logged by the browser itself
    await typing.page.fill('#okit-code', ` ${second.code.slice(0, 4).toLowerCase()}-${second.code.slice(4)} `);
    await typing.page.click('#okit-code-form button');
    await flowLocators(typing.page).step('intro').waitFor();
    assert.equal(new URL(typing.page.url()).pathname, '/capture');
    assert.equal(await handoffState(), 'claimed');
    await assertClean(typing, 'the code page');
  } finally {
    await typing.context.close();
  }
});

test("the pages' script on the answers a real hand-off rarely meets: a short code, a rate limit, a used or expired code, a failed claim and its retry, a device with no secret, a cancel", async () => {
  const recorded = await recordedContext(browser, { camera: false, locale: 'en' });
  const { page } = recorded;
  // Each claim is answered here, as docs/page-api.md#hand-off says the companion may answer it.
  const claims: unknown[] = [];
  let answer: { status: number; body?: unknown; headers?: Record<string, string> } | 'network' = 'network';
  await page.route('**/v1/handoff/claim', async (route) => {
    claims.push(route.request().postDataJSON());
    if (answer === 'network') return route.abort('connectionreset');
    await route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      body: JSON.stringify(answer.body ?? {}),
      ...(answer.headers && { headers: answer.headers }),
    });
  });
  const refused = (status: number, code: string, headers?: Record<string, string>) => ({
    status,
    body: { error: { code, message: code } },
    ...(headers && { headers }),
  });
  try {
    await page.goto(`${stack.url}/h`);
    const message = page.locator('#okit-code-message');
    const button = page.locator('#okit-code-form button');
    const submit = async (code: string, expected: RegExp) => {
      await page.fill('#okit-code', code);
      await button.click();
      await page.waitForFunction(
        (re) => new RegExp(re).test(document.getElementById('okit-code-message')?.textContent ?? ''),
        expected.source,
      );
    };
    await submit('K7MQ-4TX', /^The code has 8 characters\./);
    assert.equal(claims.length, 0, 'a short code is never sent');
    assert.equal(await page.locator('#okit-code').getAttribute('aria-invalid'), 'true');
    assert.match((await message.getAttribute('class')) ?? '', /\berror\b/);

    answer = refused(429, 'rate_limited', { 'retry-after': '2.5' });
    await page.fill('#okit-code', ' k7mq-4txa ');
    await button.click();
    // The message and the disabled button come in one task; the button is back once Retry-After, rounded up, has passed.
    await page.waitForFunction(
      () =>
        document.getElementById('okit-code-message')?.textContent === 'Too many attempts. Wait 3 seconds and try again.' &&
        document.querySelector<HTMLButtonElement>('#okit-code-form button')?.disabled === true,
    );
    assert.deepEqual(claims.at(-1), { code: 'K7MQ4TXA' }, 'sent without spaces or dash, in capitals');
    await page.locator('#okit-code-form button:enabled').waitFor();

    // Each answer's message differs from the one before it, so that each wait sees the new one.
    answer = { status: 500, body: { error: { code: 'internal_error', message: 'x' } } };
    await submit('K7MQ4TXA', /^Could not connect/);
    answer = refused(410, 'handoff_expired');
    await submit('K7MQ4TXA', /^This code has expired/);
    answer = { status: 200, body: { sessionId: 'not-a-claim' } };
    await submit('K7MQ4TXA', /^Could not connect/);
    answer = refused(410, 'handoff_used');
    await submit('K7MQ4TXA', /^This code has already been used/);
    answer = 'network';
    await submit('K7MQ4TXA', /^Could not connect/);
    assert.equal(claims.length, 6);
    assert.equal(new URL(page.url()).pathname, '/h', 'no claim, no device page');

    // The link page: expired, unknown, failed and tried again (the token from the address).
    const claimView = async (token: string, view: string) => {
      await page.goto(`${stack.url}/h/${token}`);
      await page.locator(`#${view}:not([hidden]) h1`).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.closest('section')?.id), view, 'the focus on the view shown');
      assert.equal(await page.locator('[data-okit-view]:not([hidden])').count(), 1, 'one view at a time');
    };
    answer = refused(410, 'handoff_expired');
    await claimView('expiredToken123', 'okit-link-expired');
    assert.deepEqual(claims.at(-1), { token: 'expiredToken123' });
    answer = refused(404, 'handoff_invalid');
    await claimView('unknownToken456', 'okit-link-invalid');
    answer = 'network';
    await claimView('failingToken789', 'okit-claim-failed');
    answer = refused(410, 'handoff_used');
    await page.click('#okit-retry');
    await page.locator('#okit-link-used:not([hidden]) h1').waitFor();
    assert.deepEqual(claims.at(-1), { token: 'failingToken789' });

    // A device page with no secret kept: the way to claim.
    await page.goto(`${stack.url}/capture`);
    await page.locator('#okit-no-session:not([hidden])').waitFor();
    assert.equal(await page.locator('#okit-flow-slot onboarding-flow').count(), 0);

    // The session's own page: a cancel at the upload says nothing; one before it offers the way back.
    const session = await openSession({ returnUrl: `${landingUrl}/kyc/done`, locale: 'en' });
    await page.goto(session.url);
    await flowLocators(page).step('intro').waitFor();
    const cancel = (step: string) =>
      page.evaluate(
        (s) =>
          document
            .querySelector('onboarding-flow')!
            .dispatchEvent(new CustomEvent('onboarding-cancel', { detail: { step: s }, bubbles: true, composed: true })),
        step,
      );
    await cancel('upload');
    assert.ok(await page.locator('#okit-banner').isHidden(), 'a cancel at the upload leaves the page as it is');
    await cancel('consent');
    await page.locator('#okit-banner:not([hidden])').waitFor();
    assert.match((await page.locator('#okit-banner').textContent()) ?? '', /Verification cancelled\.\s*Go back/);
    const back = new URL((await page.locator('#okit-banner a').getAttribute('href'))!);
    assert.equal(`${back.origin}${back.pathname}`, `${landingUrl}/kyc/done`);
    assert.equal(back.searchParams.get('session'), session.id);
    assert.equal(back.searchParams.get('status'), 'CANCELLED');
    assert.equal(new URL(page.url()).pathname, '/capture', 'the page does not leave on its own');
    assert.deepEqual(await recorded.cspViolations(), []);
    assert.deepEqual(recorded.pageErrors, []);
  } finally {
    await recorded.context.close();
  }
});

for (const engine of selectedEngines().filter((e) => e !== 'chromium')) {
  describe(`${engine}: the hosted page under its CSP`, () => {
    test(`${engine}: the page loads the flow with no CSP violation, no error and no request to another host; the 404 page too`, async () => {
      const d = await openDriver(engine, { camera: 'granted', origin: stack.url, viewport: SIZES[0] });
      try {
        const session = await openSession({ locale: 'pt-BR' });
        await d.goto(session.url);
        await d.waitFor({ css: 'section[data-step="intro"]', within: 'onboarding-flow' }, 60_000);
        // The lazy consent text comes from beside the bundle; give it its moment, then look.
        await d.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
        const color = await d.evaluate(() => {
          const b = document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('[part~="button-primary"]');
          return b ? getComputedStyle(b).backgroundColor : '';
        });
        assert.equal(color, 'rgb(106, 27, 154)', `${engine}: the brand colour on the flow`);
        for (const size of SIZES) {
          const got = await d.setViewport(size);
          await d.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await d.screenshot(join(ARTIFACTS, `${engine}-page-fresh-${got.width}x${got.height}.png`));
        }
        const seen = await d.errors();
        assert.deepEqual(seen.errors, [], `${engine}: no uncaught error`);
        assert.deepEqual(seen.csp, [], `${engine}: no CSP violation`);
        assert.deepEqual(
          seen.console.filter((m) => m.startsWith('error')),
          [],
          `${engine}: no console error`,
        );
        assert.deepEqual(d.external(), [], `${engine}: nothing requested from another host`);
        await d.goto(`${stack.url}/capture/unknown-${randomBytes(12).toString('hex')}`);
        await d.waitFor({ css: 'h1' });
        await d.screenshot(join(ARTIFACTS, `${engine}-page-404.png`));
        assert.deepEqual((await d.errors()).csp, [], `${engine}: no CSP violation on the 404 page`);
        assert.deepEqual(d.external(), [], `${engine}: nothing requested from another host`);
      } finally {
        await d.close();
      }
    });
  });
}
