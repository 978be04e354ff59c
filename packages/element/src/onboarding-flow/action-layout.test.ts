/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * One action layout on every step (steps/action-bar.ts): on a phone (390x844) the main action
 * fills the column and is the lowest action, the others are text links above it, Back is in the
 * step's header before the heading, and on a step longer than the screen the main action stays
 * at the bottom of the viewport; on a laptop (1366x768) the flow is one centred column of 560 px
 * at most. The keyboard meets Back, the content, the main action, then the others. Screenshots of
 * each step at both sizes are saved for a person to look at.
 */
import { currentEngine, onlyIn } from '@onboarding-kit/testing/engine';
import { expect, nextFrame } from '@open-wc/testing';
import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  cardJpeg,
  chooseType,
  cleanupListeners,
  click,
  controlDouble,
  heading,
  mount,
  passConsent,
  passCpf,
  passIntro,
  pickFile,
  preview,
  reachReviewWithFiles,
  root,
  buttonText,
  waitFor,
  waitForStep,
  CPF,
} from './test-helpers.js';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
const webkit = () => currentEngine() === 'webkit';

afterEach(async () => {
  cleanupListeners();
  if (!webkit()) await setViewport(LAPTOP);
  window.scrollTo(0, 0);
});

/** WebKit's driver cannot resize the page: there the element alone is narrowed to the phone's width. */
async function size(el: OnboardingFlow, s: 'phone' | 'laptop'): Promise<void> {
  if (webkit()) el.style.width = s === 'phone' ? `${PHONE.width}px` : '';
  else await setViewport(s === 'phone' ? PHONE : LAPTOP);
  await el.updateComplete;
  await nextFrame();
  await nextFrame();
}

const actions = (el: OnboardingFlow): HTMLElement => root(el).querySelector<HTMLElement>('[part~=actions]')!;
const rect = (e: Element): DOMRect => e.getBoundingClientRect();

/** The action bar's controls: its buttons and the file pickers' labels. */
function controls(el: OnboardingFlow): HTMLElement[] {
  return [...actions(el).children].filter((c): c is HTMLElement => c.matches('button, label'));
}

/** What is wrong with the layout of the step shown at the phone's width, if anything. */
function phoneProblems(el: OnboardingFlow, options: { back: boolean }): string[] {
  const problems: string[] = [];
  const bar = actions(el);
  const base = root(el).querySelector<HTMLElement>('[part=base]')!;
  const pad = parseFloat(getComputedStyle(base).paddingLeft) + parseFloat(getComputedStyle(base).paddingRight);
  const column = rect(base).width - pad;
  const primary = bar.querySelector<HTMLElement>(':scope > [part~=button-primary]');
  if (!primary) return ['no main action'];
  if (Math.abs(rect(primary).width - column) > 2) problems.push(`main action ${rect(primary).width}px wide in a ${column}px column`);
  const lowest = Math.max(...controls(el).map((c) => rect(c).bottom));
  if (rect(primary).bottom < lowest - 0.5) problems.push('an action sits below the main one');
  for (const c of controls(el)) {
    if (c === primary) continue;
    if (!c.matches('.link')) problems.push(`"${c.textContent!.trim()}" is not a text link`);
    if (rect(c).bottom > rect(primary).top + 0.5) problems.push(`"${c.textContent!.trim()}" is beside or below the main action`);
    if (rect(c).right > rect(base).right || rect(c).left < rect(base).left)
      problems.push(`"${c.textContent!.trim()}" runs out of the column`);
    if (rect(c).height < 24) problems.push(`"${c.textContent!.trim()}" is ${rect(c).height}px high`);
  }
  const back = root(el).querySelector<HTMLElement>('[part=back]');
  if (options.back) {
    if (!back) problems.push('no Back in the header');
    else {
      if (buttonText(back) !== 'Voltar') problems.push(`Back is named "${back.textContent}"`);
      if (!(back.compareDocumentPosition(heading(el)) & Node.DOCUMENT_POSITION_FOLLOWING)) problems.push('Back comes after the heading');
      if (rect(back).bottom > rect(heading(el)).top + 0.5) problems.push('Back is not above the heading');
      if (bar.contains(back)) problems.push('Back is among the actions');
    }
  } else if (back) problems.push('a Back where the step has none');
  if ([...bar.querySelectorAll('button')].some((b) => b.textContent!.trim() === 'Voltar')) problems.push('Voltar beside the main action');
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth) problems.push('the page scrolls sideways');
  return problems;
}

/** The flow is one column of 560 px at most, centred in what holds it. */
function laptopProblems(el: OnboardingFlow): string[] {
  const box = rect(el);
  const holder = rect(el.parentElement!);
  const problems: string[] = [];
  if (box.width > 560.5) problems.push(`the column is ${box.width}px wide`);
  const left = box.left - holder.left;
  const right = holder.right - box.right;
  if (Math.abs(left - right) > 1) problems.push(`the column is off centre (${left}px left, ${right}px right)`);
  const primary = actions(el).querySelector<HTMLElement>(':scope > [part~=button-primary]');
  if (primary && rect(primary).width < box.width * 0.8) problems.push('the main action is not full width');
  return problems;
}

/** Checks the step at both sizes and saves a screenshot of each. */
async function check(el: OnboardingFlow, name: string, options: { back: boolean }): Promise<void> {
  await size(el, 'phone');
  window.scrollTo(0, 0);
  expect(phoneProblems(el, options), `${name} at 390 px`).to.deep.equal([]);
  console.log(await executeServerCommand<string, { name: string }>('screenshot', { name: `layout-${name}-phone` }));
  await size(el, 'laptop');
  expect(laptopProblems(el), `${name} at 1366 px`).to.deep.equal([]);
  console.log(await executeServerCommand<string, { name: string }>('screenshot', { name: `layout-${name}-laptop` }));
  await size(el, 'phone');
}

/** The element's control with the focus (inside its shadow root). */
const focused = (el: OnboardingFlow): string => {
  const a = root(el).activeElement as HTMLElement | null;
  return a ? a.id || buttonText(a) : '';
};

describe('<onboarding-flow> one action layout', () => {
  it('every step before the photos: main action full width and lowest, links above it, Back before the heading', async function () {
    this.timeout(120_000);
    const { el, ns } = await mount({ withV1: true });
    await size(el, 'phone');
    await waitForStep(el, 'intro');
    await check(el, 'intro', { back: false });
    await passIntro(el);
    await check(el, 'consent', { back: false });
    await passConsent(el);
    await check(el, 'cpf', { back: true });
    await passCpf(el, CPF.approved);
    await check(el, 'document-type', { back: true });
    await chooseType(el, 'CNH');
    await waitFor(() => !!root(el).querySelector('[data-capture-start]'), 'no capture step');
    await check(el, 'document-front', { back: true });
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!preview(el), 'no preview');
    await check(el, 'preview', { back: true });
    expect(actions(el).querySelector('[part~=button-primary]')!.textContent!.trim()).to.equal('Usar esta foto');
    // Back leads where it always did: the document type, heading focused.
    await click(el, 'Voltar');
    await waitForStep(el, 'document-type');
    await waitFor(() => root(el).activeElement === heading(el), 'the heading has no focus');
    void ns;
  });

  it('the review and an upload error keep the layout', async function () {
    this.timeout(120_000);
    const { el, ns } = await mount({ withV1: true });
    await size(el, 'phone');
    await reachReviewWithFiles(el);
    await check(el, 'review', { back: true });
    await controlDouble(ns, { failUploads: { status: 422, error: { code: 'invalid_cpf', message: 'CPF inválido', field: 'cpf' } } });
    await click(el, 'Enviar');
    await waitFor(() => !!root(el).querySelector('#upload-error'), 'no upload error');
    await controlDouble(ns, { failUploads: null });
    await check(el, 'upload-error', { back: false });
  });

  it('on a step longer than the phone’s screen, the main action stays at the bottom of the viewport', async function () {
    this.timeout(60_000);
    if (webkit()) this.skip(); // Its driver cannot resize the page, so the phone's media query never applies.
    const { el } = await mount({ withV1: true });
    await size(el, 'phone');
    await passIntro(el);
    const details = root(el).querySelector<HTMLDetailsElement>('details')!;
    details.open = true;
    await waitFor(() => (root(el).querySelector('details')!.textContent ?? '').length > 600, 'the full consent text did not load');
    await el.updateComplete;
    await nextFrame();
    expect(rect(el).height, 'the step is not longer than the screen').to.be.greaterThan(PHONE.height);
    window.scrollTo(0, 0);
    await nextFrame();
    const primary = actions(el).querySelector<HTMLElement>('[part~=button-primary]')!;
    expect(Math.round(rect(primary).bottom)).to.be.within(PHONE.height - 40, PHONE.height);
    const bar = getComputedStyle(actions(el));
    expect(bar.position).to.equal('sticky');
    // A line sets the bar off from the text scrolling under it.
    expect([bar.borderTopStyle, bar.borderTopWidth]).to.deep.equal(['solid', '1px']);
    console.log(await executeServerCommand<string, { name: string }>('screenshot', { name: 'layout-consent-long-phone' }));
    // Still the lowest action and full width when scrolled to the end.
    window.scrollTo(0, document.documentElement.scrollHeight);
    await nextFrame();
    expect(phoneProblems(el, { back: false })).to.deep.equal([]);
  });

  onlyIn(['chromium'], "Firefox's driver knows no Shift+Tab, WebKit's sends no keys")(
    'the keyboard meets Back, the content, the main action, then the links',
    async function () {
      this.timeout(60_000);
      const { el } = await mount({ withV1: true });
      await size(el, 'phone');
      await passConsent(el);
      await waitFor(() => root(el).activeElement === heading(el), 'the heading has no focus');
      await sendKeys({ press: 'Shift+Tab' });
      expect(focused(el)).to.equal('Voltar');
      const order: string[] = [];
      for (let i = 0; i < 4; i++) {
        await sendKeys({ press: 'Tab' });
        order.push(focused(el));
      }
      expect(order).to.deep.equal(['cpf', 'name', 'Continuar', '']);
      await expect(el).to.be.accessible();
    },
  );
});
