/**
 * The hand-off from a computer to a phone for real (docs/page-api.md#hand-off,
 * docs/hosted-page.md), with two devices in Chromium:
 *
 * - the computer: 1366x768, a browser with no camera at all (launched without the fake-media
 *   flags, so `enumerateDevices()` lists no video input);
 * - the phone: 390x844, a browser whose fake camera loops the card picture.
 *
 * A backend (this test) opens a session; the computer loads its `url`, is offered "Continuar no
 * celular" first, chooses it, and the QR code is read from a screenshot of the computer's screen
 * (decoded from its pixels, never from the DOM); the phone opens what it says and completes the
 * flow while the computer follows, reaches the same outcome and lands on the `returnUrl`. Then,
 * each on its own: a link that lapsed (a companion with a short `handoff.ttlMs`), a link used
 * twice, wrong short codes up to the rate limit, and the computer taking the session back.
 * Screenshots of every step of both devices go to test/artifacts/e2e/handoff/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import decodeQR from 'qr/decode.js';
import type { CreateSessionResponse, SessionView } from '@onboarding-kit/contract';
import { serveCompanion, silentLogger, type ServedCompanion } from '@onboarding-kit/server';
import { launchChromium } from '@onboarding-kit/testing/chromium';
import { launchBrowser, recordedContext, writeCardJpeg, writeFaceJpeg, type Recorded } from './helpers/browser.js';
import { driveFlow, flowEvents, flowLocators, recordFlowEvents } from './helpers/flow.js';
import { REPO_ROOT, startStack, type RunningStack } from './helpers/stack.js';

const API_KEY = `sk_e2e_${randomBytes(24).toString('hex')}`;
const CPF = '529.982.247-25';
/** The session's CPF as its pages are shown it. */
const MASKED_CPF = '***.982.247-**';
const COMPUTER = { width: 1366, height: 768 } as const;
const PHONE = { width: 390, height: 844 } as const;
/** The lapsing companion's hand-off links live this long: long enough to read the QR code and open it, short enough to wait out. */
const SHORT_TTL_MS = 8_000;
const ARTIFACTS = join(REPO_ROOT, 'test', 'artifacts', 'e2e', 'handoff');

let tmp: string;
let stack: RunningStack;
/** A second companion, in this process, whose hand-off links lapse after SHORT_TTL_MS (and whose code attempts are counted apart). */
let lapsing: ServedCompanion;
/** The computer's browser: no camera device at all. */
let desk: Browser;
/** The phone's browser: a fake camera looping the card picture. */
let mobile: Browser;
let landing: Server;
let landingUrl: string;
let jpeg: string;
let faceJpeg: string;

before(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  tmp = await mkdtemp(join(tmpdir(), 'onboarding-kit-e2e-handoff-'));
  // The hosted page needs no demo page: an empty demo folder of this run's own.
  mkdirSync(join(tmp, 'demo'));
  landing = createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Back</title><h1>Back at the service</h1><p>${req.url}</p>`),
  );
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
  [stack, desk, mobile] = await Promise.all([
    startStack({ demoDir: join(tmp, 'demo'), env: { SANDBOX_PROCESSING_MS: '1500', ONBOARDING_API_KEYS: API_KEY } }),
    launchChromium(),
    launchBrowser(),
  ]);
  // Same upstream (the stack's sandbox), its own store, its own short-lived links.
  lapsing = await serveCompanion({
    baseUrl: stack.sandboxUrl,
    client: stack.client,
    secret: stack.secret,
    webhookKey: stack.webhookKey,
    apiKeys: [API_KEY],
    handoff: { ttlMs: SHORT_TTL_MS },
    logger: silentLogger,
    port: 0,
  });
  jpeg = join(tmp, 'card.jpg');
  faceJpeg = join(tmp, 'face.jpg');
  await writeCardJpeg(mobile, jpeg);
  await writeFaceJpeg(mobile, faceJpeg);
});

after(async () => {
  await Promise.all([desk?.close(), mobile?.close()]);
  await lapsing?.close();
  await stack?.stop();
  await new Promise((resolve) => landing?.close(resolve));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function openSession(companionUrl: string, payload: Record<string, unknown> = {}): Promise<CreateSessionResponse> {
  const res = await fetch(`${companionUrl}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `e2e-handoff-${randomBytes(3).toString('hex')}`, cpf: CPF, locale: 'pt-BR', ...payload }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

/** Numbered screenshots of one scenario, `<scenario>-<nn>-<device>-<step>.png`, shared by both devices so their order shows. */
function shooter(scenario: string) {
  let n = 0;
  return async (device: 'computer' | 'phone', page: Page, step: string): Promise<string> => {
    const path = join(ARTIFACTS, `${scenario}-${String(++n).padStart(2, '0')}-${device}-${step}.png`);
    await page.screenshot({ path });
    return path;
  };
}

async function newComputer(): Promise<Recorded> {
  const computer = await recordedContext(desk, { camera: false, locale: 'pt-BR' });
  await computer.page.setViewportSize(COMPUTER);
  await recordFlowEvents(computer.page);
  return computer;
}

async function newPhone(): Promise<Recorded> {
  const phone = await recordedContext(mobile, { camera: true, locale: 'pt-BR' });
  await phone.page.setViewportSize(PHONE);
  await recordFlowEvents(phone.page);
  return phone;
}

/** The computer opens the session's url and goes as far as the first photo, where no camera means the phone is offered first. */
async function computerToFirstPhoto(page: Page, url: string, shot: (step: string) => Promise<unknown>): Promise<void> {
  const { flow, step, primary } = flowLocators(page);
  await page.goto(url);
  await flow.locator('[part~="intro-needs"]').waitFor();
  // No camera here: the phone is offered first, on the intro; this person starts here all the same.
  await flow.locator('[part~="handoff-start"]').waitFor();
  await shot('intro');
  await flow.getByRole('button', { name: 'Começar', exact: true }).click();
  await step('consent').waitFor();
  await flow.locator('#consent').check();
  await primary.click();
  await step('cpf').waitFor();
  assert.equal(await flow.locator('#cpf').inputValue(), MASKED_CPF);
  await primary.click();
  await step('document-type').waitFor();
  await flow.locator('#doctype-CNH').check();
  await primary.click();
  await step('document-front').waitFor();
  // No camera here: "Continuar no celular" leads, as the one main action.
  const lead = flow.locator('[part~="actions"] > button').first();
  await page.waitForFunction(() => {
    const b = document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('[part~="actions"] > button');
    return b?.getAttribute('part')?.includes('handoff-start') ?? false;
  });
  assert.equal((await lead.textContent())?.trim(), 'Continuar no celular');
  assert.equal(await lead.getAttribute('part'), 'button button-primary handoff-start');
  assert.equal(await flow.locator('[part~="button-primary"]').count(), 1);
  assert.equal(
    await page.evaluate(async () => (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput').length),
    0,
    'the computer lists no camera',
  );
  await shot('no-camera-offers-phone');
}

/**
 * What a phone's camera would read: the computer's screen as a PNG, decoded by the browser (Node
 * has no PNG decoder here) and brought back as grey levels (a quarter of RGBA to carry), and its
 * QR code read by the `qr` package's decoder.
 */
async function readQrFromScreen(page: Page, screenshotPath: string): Promise<string> {
  const png = await page.screenshot({ path: screenshotPath });
  const scratch = await desk.newPage();
  try {
    const { width, height, grey } = await scratch.evaluate(async (b64) => {
      const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const rgba = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const luma = new Uint8Array(rgba.length / 4);
      for (let i = 0; i < luma.length; i++) luma[i] = (rgba[i * 4]! * 77 + rgba[i * 4 + 1]! * 150 + rgba[i * 4 + 2]! * 29) >> 8;
      let binary = '';
      for (let i = 0; i < luma.length; i += 0x8000) binary += String.fromCharCode(...luma.subarray(i, i + 0x8000));
      return { width: bitmap.width, height: bitmap.height, grey: btoa(binary) };
    }, png.toString('base64'));
    const luma = Buffer.from(grey, 'base64');
    assert.equal(luma.length, width * height);
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < luma.length; i++) {
      data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = luma[i]!;
      data[i * 4 + 3] = 255;
    }
    return decodeQR({ width, height, data }, { format: 'RGBA' });
  } finally {
    await scratch.close();
  }
}

/** Chooses "Continuar no celular" and reads the link off the screen. */
async function handOff(page: Page, shotPath: () => Promise<string>): Promise<string> {
  await flowLocators(page).flow.locator('[part~="handoff-start"]').click();
  return readOffer(page, shotPath);
}

/** Reads the offered link off the screen; checks the code is whole on screen and big enough to scan. */
async function readOffer(page: Page, shotPath: () => Promise<string>): Promise<string> {
  const { flow } = flowLocators(page);
  const panel = flow.locator('[part~="handoff"][data-phase="pending"]');
  await panel.waitFor();
  const qr = flow.locator('svg[part~="handoff-qr"]');
  const box = (await qr.boundingBox())!;
  assert.ok(
    box.width >= 180 && Math.abs(box.width - box.height) < 1,
    `the QR code is a square of at least 180 px (${box.width}x${box.height})`,
  );
  assert.ok(
    box.y >= 0 && box.y + box.height <= COMPUTER.height && box.x >= 0 && box.x + box.width <= COMPUTER.width,
    `the QR code is whole in the 1366x768 window (${JSON.stringify(box)})`,
  );
  assert.match((await flow.locator('[part~="handoff-code"]').textContent()) ?? '', /^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const url = await readQrFromScreen(page, await shotPath());
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/h\/[A-Za-z0-9_-]{32}$/, 'the QR code holds the hand-off link');
  return url;
}

const statusLines = async (page: Page): Promise<string> =>
  ((await flowLocators(page).flow.locator('[part~="handoff-status"]').textContent()) ?? '').replace(/\s+/g, ' ').trim();

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

test('a computer without a camera hands the session to a phone by its QR code; the phone completes the flow (offline for one photo), the computer follows live, shows the same outcome and lands on the returnUrl', async () => {
  const session = await openSession(stack.url, { returnUrl: `${landingUrl}/kyc/done?from=kyc` });
  const computer = await newComputer();
  const phone = await newPhone();
  const shoot = shooter('flow');
  const pc = computer.page;
  const mob = phone.page;
  try {
    await computerToFirstPhoto(pc, session.url, (step) => shoot('computer', pc, step));
    const link = await handOff(pc, () => shoot('computer', pc, 'qr-code'));
    assert.match(await statusLines(pc), /Aguardando o celular…/);

    // The phone opens what its camera read.
    await mob.goto(link);
    const watching = flowLocators(pc).flow.locator('[part~="handoff"][data-phase="claimed"]');
    await watching.waitFor({ timeout: 15_000 });
    assert.match(await statusLines(pc), /Celular conectado/);

    const photoSeen: Record<string, string> = {
      'document-front-photo': 'documentFront',
      'document-back-photo': 'documentBack',
      'selfie-camera-refused-twice': '',
    };
    const outcome = await driveFlow(mob, {
      resumed: true,
      expectCpf: MASKED_CPF,
      source: 'camera',
      faceJpeg,
      shot: async (step) => {
        await shoot('phone', mob, step);
        // The computer follows: where the person is, and each photo once taken. The phone opens at
        // the first photo: consent, CPF and document type came with the session.
        if (step === 'document-front-camera') {
          await pc.waitForFunction(
            () =>
              /No celular: frente do documento/.test(
                document.querySelector('onboarding-flow')?.shadowRoot?.querySelector('onboarding-handoff-panel')?.shadowRoot?.textContent ??
                  '',
              ),
            undefined,
            { timeout: 10_000 },
          );
          await shoot('computer', pc, 'phone-at-document-front');
        } else if (step in photoSeen && photoSeen[step]) {
          // The phone loses the network after the first photo and takes the second offline; back
          // online, what it could not tell reaches the computer all the same.
          if (step === 'document-back-photo') {
            await mob.waitForTimeout(300);
            assert.equal(
              await flowLocators(pc).flow.locator('[part~="handoff-status"] li[data-photo="documentBack"]').count(),
              0,
              'nothing told while offline',
            );
            await phone.context.setOffline(false);
          }
          await flowLocators(pc).flow.locator(`[part~="handoff-status"] li[data-photo="${photoSeen[step]}"]`).waitFor({ timeout: 15_000 });
          await shoot('computer', pc, `phone-${step}`);
          if (step === 'document-front-photo') await phone.context.setOffline(true);
        } else if (step === 'review') {
          await flowLocators(pc).flow.locator('[part~="handoff-status"] li[data-photo="selfie"]').waitFor({ timeout: 10_000 });
          assert.equal(
            await flowLocators(pc).flow.locator('[part~="handoff-status"] li[data-photo]').count(),
            3,
            'three photos taken, as the computer sees it',
          );
          await shoot('computer', pc, 'phone-at-review');
        } else if (step === 'processing') {
          await flowLocators(pc).flow.locator('[part~="handoff"][data-phase="submitted"]').waitFor({ timeout: 10_000 });
          assert.match(await statusLines(pc), /Enviado pelo celular/);
          await shoot('computer', pc, 'phone-sent');
        }
      },
    });
    assert.equal(outcome.status, 'APPROVED');

    // The computer reaches the same outcome, with the same events an upload from here would fire.
    const computerOutcome = flowLocators(pc).step('outcome').locator('[data-status]');
    await computerOutcome.waitFor({ timeout: 30_000 });
    assert.equal(await computerOutcome.getAttribute('data-status'), outcome.status);
    const computerText = async () => ((await flowLocators(pc).step('outcome').textContent()) ?? '').replace(/\s+/g, ' ');
    // The heading shows at once; the outcome's words come with the lazily loaded texts a moment later.
    for (let i = 0; i < 100 && (await computerText()) !== outcome.text; i++) await pc.waitForTimeout(100);
    assert.equal(await computerText(), outcome.text, 'the same outcome screen on both');
    const events = await flowEvents(pc);
    assert.deepEqual(
      events.filter((e) => e.type === 'onboarding-handoff').map((e) => e.detail?.state),
      ['offered', 'claimed'],
    );
    assert.equal(events.find((e) => e.type === 'onboarding-submitted')?.detail?.tokenOnboarding, outcome.tokenOnboarding);
    const complete = events.filter((e) => e.type === 'onboarding-complete');
    assert.equal(complete.length, 1, 'onboarding-complete once on the computer');
    assert.deepEqual(complete[0]!.detail, { tokenOnboarding: outcome.tokenOnboarding, status: 'APPROVED' });

    // The phone says it is done there; the computer says it is going back to the service.
    const phoneBanner = mob.locator('#okit-banner');
    await phoneBanner.waitFor();
    assert.equal((await phoneBanner.textContent())?.trim(), 'Pronto. Você pode voltar ao computador.');
    assert.equal(await mob.locator('#okit-banner a').isVisible(), false);
    await shoot('phone', mob, 'done');
    const pcBanner = pc.locator('#okit-banner');
    await pcBanner.waitFor();
    assert.match((await pcBanner.textContent()) ?? '', /Redirecionando…\s*Continuar agora/);
    await shoot('computer', pc, 'outcome-redirecting');
    await assertClean(computer, 'the computer');
    // Offline for a photo: only the browser's own notes of the requests that could not go.
    await assertClean(phone, 'the phone', /ERR_INTERNET_DISCONNECTED|Failed to load resource/);

    await pc.waitForURL((url) => url.origin === landingUrl, { timeout: 15_000 });
    const back = new URL(pc.url());
    assert.equal(back.pathname, '/kyc/done');
    assert.equal(back.searchParams.get('from'), 'kyc');
    assert.equal(back.searchParams.get('session'), session.id);
    assert.equal(back.searchParams.get('status'), 'APPROVED');
    await shoot('computer', pc, 'back-at-the-service');
    // The phone stays where it is (it has no returnUrl of its own).
    assert.equal(new URL(mob.url()).pathname, '/capture');
    const view = (await (
      await fetch(`${stack.url}/v1/sessions/${session.id}`, { headers: { authorization: `Bearer ${API_KEY}` } })
    ).json()) as SessionView;
    assert.equal(view.status, 'completed');
    assert.equal(view.onboarding?.status, 'APPROVED');
  } catch (error) {
    await shoot('computer', pc, 'failure').catch(() => {});
    await shoot('phone', mob, 'failure').catch(() => {});
    throw error;
  } finally {
    await Promise.all([computer.context.close(), phone.context.close()]);
  }
});

test('a link left unused past its life: the phone is told it expired and to make a new one on the computer, which does, and that one works', async () => {
  const session = await openSession(lapsing.url);
  const computer = await newComputer();
  const phone = await newPhone();
  const shoot = shooter('expired');
  const pc = computer.page;
  try {
    await computerToFirstPhoto(pc, session.url, (step) => shoot('computer', pc, step));
    const link = await handOff(pc, () => shoot('computer', pc, 'qr-code'));
    const { flow } = flowLocators(pc);
    // The countdown runs out on the computer: the code is gone and a new one is the main action.
    await flow.locator('[part~="handoff"][data-phase="expired"]').waitFor({ timeout: SHORT_TTL_MS + 5_000 });
    assert.equal(await flow.locator('svg[part~="handoff-qr"]').count(), 0, 'no QR code once it lapsed');
    assert.match((await flow.locator('[part~="handoff"]').textContent()) ?? '', /O código expirou sem ser usado/);
    const renew = flow.locator('[part~="handoff"] [part~="button-primary"]');
    assert.equal((await renew.textContent())?.trim(), 'Gerar novo código');
    await shoot('computer', pc, 'code-expired');

    await phone.page.goto(link);
    await phone.page.locator('#okit-link-expired h1').waitFor();
    assert.equal(await phone.page.locator('#okit-link-expired h1').textContent(), 'Este link expirou');
    assert.match((await phone.page.locator('#okit-link-expired').textContent()) ?? '', /gere um novo no computador/);
    await shoot('phone', phone.page, 'link-expired');

    await renew.click();
    const again = await readOffer(pc, () => shoot('computer', pc, 'new-qr-code'));
    assert.notEqual(again, link, 'a new link');
    await phone.page.goto(again);
    // The computer's answers came with the session: the phone opens at the first photo.
    await flowLocators(phone.page).step('document-front').waitFor();
    await shoot('phone', phone.page, 'new-link-works');
    await flow.locator('[part~="handoff"][data-phase="claimed"]').waitFor({ timeout: 10_000 });
    await shoot('computer', pc, 'phone-connected');
    await assertClean(phone, 'the phone', /^Failed to load resource: the server responded with a status of 410/);
    await assertClean(computer, 'the computer');
  } finally {
    await Promise.all([computer.context.close(), phone.context.close()]);
  }
});

test('a link used twice: the second phone is told it was already used; the first keeps the session', async () => {
  const session = await openSession(stack.url);
  const computer = await newComputer();
  const first = await newPhone();
  const second = await newPhone();
  const shoot = shooter('used');
  const pc = computer.page;
  try {
    await computerToFirstPhoto(pc, session.url, async () => {});
    const link = await handOff(pc, () => shoot('computer', pc, 'qr-code'));
    await first.page.goto(link);
    await flowLocators(first.page).step('document-front').waitFor();
    await shoot('phone', first.page, 'first-phone-claims');
    await flowLocators(pc).flow.locator('[part~="handoff"][data-phase="claimed"]').waitFor({ timeout: 10_000 });
    await second.page.goto(link);
    const used = second.page.locator('#okit-link-used');
    await used.locator('h1').waitFor();
    assert.equal(await used.locator('h1').textContent(), 'Este link já foi usado');
    await shoot('phone', second.page, 'second-phone-link-used');
    // The first phone still holds it: still at its first photo, its main action there to press.
    await flowLocators(first.page).step('document-front').waitFor();
    await flowLocators(first.page).primary.waitFor();
    await shoot('computer', pc, 'still-following-the-first');
    assert.match(await statusLines(pc), /Celular conectado/);
    await assertClean(second, 'the second phone', /^Failed to load resource: the server responded with a status of 410/);
    await assertClean(first, 'the first phone');
  } finally {
    await Promise.all([computer.context.close(), first.context.close(), second.context.close()]);
  }
});

test('short codes typed at /h: a clear message for a wrong one, the right one still works after it; past 10 attempts a minute, the wait is said', async () => {
  const session = await openSession(lapsing.url);
  const origin = new URL(session.url).pathname.split('/').pop()!;
  const offer = async () =>
    (await (
      await fetch(`${lapsing.url}/v1/session/handoff`, { method: 'POST', headers: { authorization: `Bearer ${origin}` } })
    ).json()) as { shortUrl: string; code: string };
  const first = await offer();
  const phone = await newPhone();
  const shoot = shooter('code');
  const { page } = phone;
  const message = page.locator('#okit-code-message');
  const submit = async (code: string, answer: RegExp) => {
    await page.evaluate(() => (document.getElementById('okit-code-message')!.textContent = ''));
    await page.fill('#okit-code', code);
    await page.click('#okit-code-form button');
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.getElementById('okit-code-message')?.textContent ?? ''),
      answer.source,
    );
  };
  /** A code of the right shape that is not `code` (its last symbol changed). */
  const wrongFor = (code: string) => code.slice(0, 7) + (code[7] === 'A' ? 'C' : 'A');
  try {
    await page.goto(first.shortUrl);
    await page.locator('#okit-code').waitFor();
    await shoot('phone', page, 'code-page');
    await submit('K7M', /\S/);
    await shoot('phone', page, 'code-too-short');
    await submit(wrongFor(first.code), /incorreto/); // attempt 1
    assert.equal(await message.textContent(), 'Código incorreto. Confira na tela do computador e digite de novo.');
    assert.equal(await page.locator('#okit-code').getAttribute('aria-invalid'), 'true');
    await shoot('phone', page, 'code-wrong');
    // The right code, typed as a person may (lower case, a space), still works: attempt 2.
    await page.fill('#okit-code', `${first.code.slice(0, 4).toLowerCase()} ${first.code.slice(4)}`);
    await page.click('#okit-code-form button');
    await flowLocators(page).step('intro').waitFor();
    assert.equal(new URL(page.url()).pathname, '/capture');
    await shoot('phone', page, 'code-right-claims');

    // Back at /h for the next code: eight more wrong ones fill the minute's ten attempts, and the eleventh, even right, waits.
    await fetch(`${lapsing.url}/v1/session/handoff/reclaim`, { method: 'POST', headers: { authorization: `Bearer ${origin}` } });
    const second = await offer();
    await page.goto(second.shortUrl);
    for (let i = 0; i < 8; i++) await submit(wrongFor(second.code), /incorreto/);
    await submit(second.code, /Muitas tentativas/);
    assert.match((await message.textContent()) ?? '', /^Muitas tentativas\. Espere \d+ segundos e tente de novo\.$/);
    assert.equal(await page.locator('#okit-code-form button').isDisabled(), true, 'the button waits too');
    await shoot('phone', page, 'code-rate-limited');
    assert.deepEqual(await phone.cspViolations(), []);
    assert.deepEqual(phone.external, []);
    assert.deepEqual(phone.pageErrors, []);
  } finally {
    await phone.context.close();
  }
});

test('the computer takes the session back: the phone shows that it continued on the other device, and the computer captures again', async () => {
  const session = await openSession(stack.url);
  const computer = await newComputer();
  const phone = await newPhone();
  const shoot = shooter('take-back');
  const pc = computer.page;
  const mob = phone.page;
  try {
    await computerToFirstPhoto(pc, session.url, async () => {});
    const link = await handOff(pc, () => shoot('computer', pc, 'qr-code'));
    await mob.goto(link);
    const m = flowLocators(mob);
    // The computer's answers came with the session: the phone opens at the first photo.
    await m.step('document-front').waitFor();
    await shoot('phone', mob, 'document-front');
    const { flow } = flowLocators(pc);
    await flow.locator('[part~="handoff"][data-phase="claimed"]').waitFor({ timeout: 10_000 });
    await shoot('computer', pc, 'following');
    await flow.locator('[part~="handoff"] button', { hasText: 'Voltar a este computador' }).click();
    // The computer is back on its photo step, with the panel gone.
    await flowLocators(pc).step('document-front').waitFor({ timeout: 10_000 });
    assert.equal(await flow.locator('[part~="handoff"]').count(), 0);
    await shoot('computer', pc, 'taken-back');
    // The phone is told, and can do nothing more with the session.
    const heading = m.flow.locator(':is(h1, h2, h3)', { hasText: 'A verificação continuou no outro aparelho' });
    await heading.waitFor({ timeout: 10_000 });
    await shoot('phone', mob, 'continued-on-the-other-device');
    const phoneEvents = await flowEvents(mob);
    assert.deepEqual(
      phoneEvents.filter((e) => e.type === 'onboarding-handoff').map((e) => e.detail?.state),
      ['reclaimed'],
    );
    // The computer captures again: from a file, since it has no camera.
    await flow.locator('input[type=file]:not([capture])').setInputFiles(jpeg);
    await flow.locator('img[part~="preview"]').waitFor({ timeout: 30_000 });
    assert.equal(await flow.locator('#capture-error').count(), 0);
    await shoot('computer', pc, 'captures-again');
    const events = await flowEvents(pc);
    assert.deepEqual(
      events.filter((e) => e.type === 'onboarding-handoff').map((e) => e.detail?.state),
      ['offered', 'claimed', 'reclaimed'],
    );
    await assertClean(computer, 'the computer');
  } catch (error) {
    await shoot('computer', pc, 'failure').catch(() => {});
    await shoot('phone', mob, 'failure').catch(() => {});
    throw error;
  } finally {
    await Promise.all([computer.context.close(), phone.context.close()]);
  }
});
