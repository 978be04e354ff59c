/**
 * The hosted pages wear the flow's action layout (docs/hosted-page.md): on a phone (390x844) the
 * short-code page's button and a message page's one action fill the card's column, and the flow
 * of a session page has its main action full width, lowest, with Back before the heading; on a
 * laptop (1366x768) the page is one centred column of 560 px at most. Screenshots at both sizes
 * go to test/artifacts/e2e/hosted-action-layout/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { CreateSessionResponse } from '@onboarding-kit/contract';
import { buildDemo, type BuiltDemo } from './helpers/build-demo.js';
import { launchBrowser, recordedContext } from './helpers/browser.js';
import { REPO_ROOT, startStack, type RunningStack } from './helpers/stack.js';

const API_KEY = `sk_e2e_${randomBytes(24).toString('hex')}`;
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
const ARTIFACTS = join(REPO_ROOT, 'test', 'artifacts', 'e2e', 'hosted-action-layout');

let built: BuiltDemo;
let stack: RunningStack;
let browser: Browser;

before(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  built = await buildDemo();
  stack = await startStack({ demoDir: built.demoDir, env: { ONBOARDING_API_KEYS: API_KEY } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stack?.stop();
  await built?.remove();
});

type Box = { left: number; right: number; top: number; bottom: number; width: number };

async function box(page: Page, selector: string): Promise<Box> {
  return page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
    });
}

/** The content box of `selector`: its width less its padding. */
async function contentWidth(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const s = getComputedStyle(e);
      return e.getBoundingClientRect().width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    });
}

async function at(page: Page, size: { width: number; height: number }, shot: string): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(ARTIFACTS, `${shot}-${size.width}x${size.height}.png`), fullPage: true });
}

/** At the laptop's width, `selector` is at most 560 px wide and centred in the window. */
async function assertCentredColumn(page: Page, selector: string, what: string): Promise<void> {
  const b = await box(page, selector);
  assert.ok(b.width <= 560.5, `${what}: ${b.width}px wide`);
  assert.ok(Math.abs(b.left - (LAPTOP.width - b.right)) <= 1, `${what}: off centre (${b.left} / ${LAPTOP.width - b.right})`);
}

test('the short-code page and a message page: the one action fills the column; a centred column of 560 px on a laptop', async () => {
  const { page, context } = await recordedContext(browser, { camera: false, locale: 'pt-BR' });
  try {
    await page.goto(`${stack.url}/h`);
    await at(page, PHONE, 'code');
    const button = await box(page, '#okit-code-form button[type=submit]');
    assert.ok(Math.abs(button.width - (await contentWidth(page, '#okit-code-view'))) <= 1, `the button is ${button.width}px wide`);
    await at(page, LAPTOP, 'code');
    await assertCentredColumn(page, '#okit-code-view', 'the short-code card');
    await page.goto(`${stack.url}/capture/not-a-token`);
    await at(page, PHONE, 'message');
    const actions = await page.locator('.okit-actions a').count();
    if (actions) {
      const action = await box(page, '.okit-actions a');
      assert.ok(Math.abs(action.width - (await contentWidth(page, '.okit-card'))) <= 1, `the action is ${action.width}px wide`);
    }
    await at(page, LAPTOP, 'message');
    await assertCentredColumn(page, '.okit-card', 'the message card');
  } finally {
    await context.close();
  }
});

test("a session's page: the flow's main action full width and lowest, Back before the heading; one centred column on a laptop", async () => {
  const res = await fetch(`${stack.url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `e2e-layout-${randomBytes(3).toString('hex')}` }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const session = (await res.json()) as CreateSessionResponse;
  const { page, context } = await recordedContext(browser, { camera: false, locale: 'pt-BR' });
  try {
    await page.setViewportSize(PHONE);
    await page.goto(session.url);
    const flow = page.locator('onboarding-flow');
    await flow.locator('[part~=button-primary]').first().waitFor({ timeout: 30_000 });
    await at(page, PHONE, 'session-intro');
    const primary = await box(page, 'onboarding-flow >> [part~=actions] > [part~=button-primary]');
    const column = await contentWidth(page, 'onboarding-flow >> [part=base]');
    assert.ok(Math.abs(primary.width - column) <= 2, `the main action is ${primary.width}px wide in ${column}px`);
    await flow.locator('[part~=button-primary]').first().click();
    await flow.locator('#consent').check();
    await flow.locator('[part~=button-primary]').first().click();
    await flow.locator('[part=back]').waitFor({ timeout: 10_000 });
    const back = await box(page, 'onboarding-flow >> [part=back]');
    const heading = await box(page, 'onboarding-flow >> h2');
    assert.ok(back.bottom <= heading.top + 0.5, 'Back is above the heading');
    assert.equal((await flow.locator('[part=back]').textContent())?.replace('←', '').trim(), 'Voltar');
    await at(page, PHONE, 'session-cpf');
    // A view with actions (the page's views share one stylesheet): sticky on a phone, set off by a
    // line from what scrolls under it.
    const bar = await page.evaluate(() => {
      const actions = document.querySelector('[data-okit-view] .okit-actions')!;
      const views = [...document.querySelectorAll<HTMLElement>('[data-okit-view]')];
      const was = views.map((v) => v.hidden);
      for (const v of views) v.hidden = !v.contains(actions);
      const s = getComputedStyle(actions);
      const seen = [s.position, s.borderTopStyle, s.borderTopWidth];
      views.forEach((v, i) => (v.hidden = was[i]!));
      return seen;
    });
    assert.deepEqual(bar, ['sticky', 'solid', '1px']);
    await at(page, LAPTOP, 'session-cpf');
    await assertCentredColumn(page, 'onboarding-flow', 'the flow');
  } finally {
    await context.close();
  }
});
