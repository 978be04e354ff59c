/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * Outcomes and waiting: the three outcome screens, what the waiting screen says as time passes
 * and while the companion cannot be reached, and a reload that resumes the wait. Most tests start
 * from an onboarding created beforehand and kept as the element keeps it, as a reload finds it.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { supportCodeOf } from '@onboarding-kit/contract';
import { normalizeEndpoint } from '../api/index.js';
import { resumeKeyFor, type KeptOnboarding } from '../controllers/kept-onboarding.js';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  cardJpeg,
  cleanupListeners,
  click,
  companionNamespace,
  controlDouble,
  decide,
  doubleState,
  hasButton,
  heading,
  mount,
  reachReviewWithFiles,
  realEndpoint,
  realState,
  root,
  stepOf,
  text,
  waitFor,
  waitForStep,
} from './test-helpers.js';

const mounted: HTMLElement[] = [];
afterEach(async () => {
  cleanupListeners();
  while (mounted.length) mounted.pop()!.remove();
  sessionStorage.clear();
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

async function jpegBase64(): Promise<string> {
  const bytes = new Uint8Array(await (await cardJpeg()).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Creates an onboarding as the element would have, answering its token and access key. */
async function create(base: string, cpf: string, secret?: string): Promise<{ tokenOnboarding: string; accessKey: string }> {
  const image = await jpegBase64();
  const res = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret && { authorization: `Bearer ${secret}` }) },
    body: JSON.stringify({ cpf, documentType: 'CNH', images: { documentFront: image, documentBack: image, selfie: image } }),
  });
  if (!res.ok) throw new Error(`creation failed: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ tokenOnboarding: string; accessKey: string }>;
}

/** Keeps an onboarding in sessionStorage as the element does once the creation answered. */
function keep(endpoint: string, created: { tokenOnboarding: string; accessKey: string }, agoMs = 0, secret = ''): string {
  const normalized = normalizeEndpoint(endpoint);
  const key = resumeKeyFor(normalized, secret)!;
  const kept: KeptOnboarding = { ...created, endpoint: normalized, savedAt: Date.now() - agoMs };
  sessionStorage.setItem(key, JSON.stringify(kept));
  return key;
}

/** Mounts the element as a reloaded page would (poll timings set before it connects). */
async function reload(
  endpoint: string,
  options: { session?: string; children?: string } = {},
): Promise<{ el: OnboardingFlow; events: CustomEvent[] }> {
  const el = document.createElement('onboarding-flow');
  el.endpoint = endpoint;
  el.locale = 'pt-BR';
  el.pollOptions = { initialDelayMs: 200, maxDelayMs: 400, totalMs: 30_000 };
  if (options.session) el.session = options.session;
  if (options.children) el.innerHTML = options.children;
  const events: CustomEvent[] = [];
  for (const name of ['onboarding-error', 'onboarding-complete']) el.addEventListener(name, (e) => events.push(e as CustomEvent));
  document.body.append(el);
  mounted.push(el);
  await el.updateComplete;
  return { el, events };
}

async function viewport(el: OnboardingFlow, size: 'phone' | 'laptop'): Promise<void> {
  // WebKit's driver cannot resize the page: the element alone is narrowed there.
  if (currentEngine() === 'webkit') el.style.width = size === 'phone' ? '390px' : '';
  else await setViewport(size === 'phone' ? { width: 390, height: 844 } : { width: 1366, height: 768 });
  await el.updateComplete;
}

async function shots(el: OnboardingFlow, name: string): Promise<void> {
  for (const size of ['phone', 'laptop'] as const) {
    await viewport(el, size);
    const path = await executeServerCommand<string, { name: string }>('screenshot', { name: `${name}-${size}` });
    console.log(`${name}-${size}: ${path}`);
  }
}

const outcomeBox = (el: OnboardingFlow): HTMLElement => root(el).querySelector<HTMLElement>('[part~=outcome]')!;

/** A support code: 8 characters in two groups of four, Crockford's base 32 (no I, L, O, U). */
const SUPPORT_CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/**
 * The ending's icon: large, centred above the heading, hidden from assistive technology; the
 * heading keeps the focus.
 */
function expectEndingIcon(el: OnboardingFlow, ending: string): void {
  const section = root(el).querySelector<HTMLElement>('section[data-step]')!;
  expect(section.getAttribute('data-ending')).to.equal(ending);
  const icon = section.querySelector<SVGElement>(':scope > svg.ending-icon')!;
  expect(icon, 'no ending icon').to.exist;
  expect(icon.getAttribute('aria-hidden')).to.equal('true');
  const box = icon.getBoundingClientRect();
  const h = heading(el).getBoundingClientRect();
  expect(box.width).to.be.at.least(64);
  expect(box.bottom).to.be.at.most(h.top + 0.5);
  const middle = (r: DOMRect) => r.left + r.width / 2;
  expect(Math.abs(middle(box) - middle(section.getBoundingClientRect()))).to.be.below(2);
  expect(root(el).activeElement).to.equal(heading(el));
}

/** The actions of the step: buttons and links, by their text. */
const actions = (el: OnboardingFlow): string[] =>
  [...root(el).querySelectorAll<HTMLElement>('[part~=actions] :is(button, a)')].map((a) => a.textContent!.trim());

/** Where a link of the step goes (read, not followed: the test page stays). */
function follow(el: OnboardingFlow, label: string): { href: string; target: string } {
  const a = [...root(el).querySelectorAll<HTMLAnchorElement>('a')].find((x) => x.textContent!.trim() === label);
  if (!a) throw new Error(`no link "${label}" in ${actions(el).join(' | ')}`);
  return { href: a.href, target: a.target };
}

describe('<onboarding-flow> outcomes and waiting', () => {
  it('APPROVED: a calm screen with a large icon and the integrator’s continue slot as its action; the kept onboarding is forgotten', async function () {
    this.timeout(60_000);
    const base = `/test-companion/${companionNamespace()}`;
    const key = keep(base, await create(base, CPF.approved));
    const { el } = await reload(base, { children: '<a slot="continue" href="#next">Continuar para a loja</a>' });
    await waitForStep(el, 'outcome');
    expect(outcomeBox(el).getAttribute('data-status')).to.equal('APPROVED');
    expect(heading(el).textContent).to.equal('Identidade verificada');
    await viewport(el, 'phone');
    expectEndingIcon(el, 'approved');
    const slot = root(el).querySelector<HTMLSlotElement>('[part~=actions] slot[name=continue]')!;
    expect(slot.assignedElements().map((a) => a.textContent)).to.deep.equal(['Continuar para a loja']);
    await waitFor(() => text(el).includes('Sua identidade foi confirmada'), 'no approval text');
    expect(sessionStorage.getItem(key)).to.equal(null);
    await expect(el).to.be.accessible();
    await shots(el, 'outcome-approved');
  });

  it('APPROVED under a session with a returnUrl: "Continuar" goes back to it with the session and the status', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const secret = 'cs_test_outcome_return_0123456789abcdef';
    const id = `ses_${'4f'.repeat(16)}`;
    await controlDouble(ns, {
      sessions: [
        { clientSecret: secret, id, prefill: { cpf: CPF.approved.replace(/\D/g, '') }, returnUrl: 'https://shop.example/kyc/done?step=2' },
      ],
    });
    keep(base, await create(base, CPF.approved, secret), 0, secret);
    // A slot too: the session's way back comes first.
    const { el } = await reload(base, { session: secret, children: '<a slot="continue" href="#slot">Pela página</a>' });
    await waitForStep(el, 'outcome');
    await waitFor(() => actions(el).includes('Continuar'), 'no Continuar');
    expect(actions(el)).to.deep.equal(['Continuar']);
    const main = root(el).querySelector<HTMLAnchorElement>('[part~=actions] a[part~=continue]')!;
    expect(main.getAttribute('part')).to.include('button-primary');
    expect(main.getBoundingClientRect().height).to.be.at.least(44);
    const went = follow(el, 'Continuar');
    const url = new URL(went.href);
    expect(url.origin + url.pathname).to.equal('https://shop.example/kyc/done');
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({ step: '2', session: id, status: 'APPROVED' });
    expect(went.target).to.equal('');
    expectEndingIcon(el, 'approved');
    await expect(el).to.be.accessible();
    await shots(el, 'outcome-approved-return');
  });

  it('APPROVED with continue-event: "Continuar" fires onboarding-continue; with no way on at all, the screen says the page may be closed', async function () {
    this.timeout(60_000);
    const base = `/test-companion/${companionNamespace()}`;
    const created = await create(base, CPF.approved);
    keep(base, created);
    const el = document.createElement('onboarding-flow');
    el.setAttribute('continue-event', '');
    el.endpoint = base;
    const continued: CustomEvent[] = [];
    document.addEventListener('onboarding-continue', (e) => continued.push(e as CustomEvent));
    document.body.append(el);
    mounted.push(el);
    // The first render lays out the step's section that waitForStep reads.
    await el.updateComplete;
    await waitForStep(el, 'outcome');
    await waitFor(() => hasButton(el, 'Continuar'), 'no Continuar');
    expect(root(el).querySelector('[data-approved-close]')).to.equal(null);
    await click(el, 'Continuar');
    expect(continued).to.have.length(1);
    expect(continued[0]!.detail).to.deep.equal({ tokenOnboarding: created.tokenOnboarding, status: 'APPROVED' });
    expect(continued[0]!.composed && continued[0]!.bubbles).to.equal(true);
    await expect(el).to.be.accessible();

    keep(base, await create(base, CPF.approved));
    const { el: plain } = await reload(base);
    await waitForStep(plain, 'outcome');
    await waitFor(() => text(plain).includes('Você já pode fechar esta página'), 'no closing text');
    expect(actions(plain)).to.deep.equal(['Começar de novo']);
  });

  it('REFUSED without a session: the reason, what to do next, a new try with other photos and the help slot', async function () {
    this.timeout(60_000);
    const base = `/test-companion/${companionNamespace()}`;
    keep(base, await create(base, CPF.refused));
    const { el } = await reload(base, { children: '<p slot="refused-help">Dúvidas? Ligue 0800 000 0000.</p>' });
    await waitForStep(el, 'outcome');
    expect(outcomeBox(el).getAttribute('data-status')).to.equal('REFUSED');
    await waitFor(() => text(el).includes('tentar de novo com outras fotos'), 'no next step');
    expect(root(el).querySelector('[data-reason]')!.textContent).to.equal('Motivo: Documento com sinais de adulteração');
    expect(outcomeBox(el).querySelector<HTMLSlotElement>('slot[name=refused-help]')!.assignedElements()).to.have.length(1);
    expect(root(el).querySelector('[part~=button-primary]')!.textContent!.trim()).to.equal('Tentar com outras fotos');
    await expect(el).to.be.accessible();
    await shots(el, 'outcome-refused');
    // After a reload nothing entered is left: the new try starts from the beginning.
    await click(el, 'Tentar com outras fotos');
    expect(stepOf(el)).to.equal('intro');
  });

  it('REFUSED after a full flow: "Tentar com outras fotos" keeps the data and goes back to the first photo', async function () {
    this.timeout(90_000);
    const { el } = await mount();
    await reachReviewWithFiles(el, CPF.refused);
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    await waitFor(() => hasButton(el, 'Tentar com outras fotos'), 'no retry button');
    await click(el, 'Tentar com outras fotos');
    await waitForStep(el, 'document-front');
    expect(root(el).querySelector('img[part~=preview]')).to.equal(null);
  });

  it('REFUSED under a session: no new try here, the person is sent to the service; a spent session is no error after a reload', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const secret = 'cs_test_outcome_refused_0123456789abcdef';
    await controlDouble(ns, { sessions: [{ clientSecret: secret, id: 'ses_refused', prefill: { cpf: CPF.refused.replace(/\D/g, '') } }] });
    const key = keep(base, await create(base, CPF.refused, secret), 0, secret);
    expect(key).not.to.include(secret);
    const { el, events } = await reload(base, { session: secret });
    await waitForStep(el, 'outcome');
    await waitFor(() => text(el).includes('fale com o serviço que pediu esta verificação'), 'no contact text');
    expect(hasButton(el, 'Tentar com outras fotos')).to.equal(false);
    expect(hasButton(el, 'Começar de novo')).to.equal(false);
    await waitFor(() => sessionStorage.getItem(key) === null, 'kept onboarding not forgotten');
    expect(events.filter((e) => e.type === 'onboarding-error')).to.deep.equal([]);
    expect(actions(el)).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('REFUSED under a session with help-url and a returnUrl: the help page is the main action, the way back beside it', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const secret = 'cs_test_outcome_help_0123456789abcdef00';
    const id = `ses_${'a1'.repeat(16)}`;
    await controlDouble(ns, {
      sessions: [{ clientSecret: secret, id, prefill: { cpf: CPF.refused.replace(/\D/g, '') }, returnUrl: 'https://shop.example/back' }],
    });
    keep(base, await create(base, CPF.refused, secret), 0, secret);
    const el = document.createElement('onboarding-flow');
    el.setAttribute('help-url', 'https://shop.example/ajuda');
    el.endpoint = base;
    el.session = secret;
    document.body.append(el);
    mounted.push(el);
    // The first render lays out the step's section that waitForStep reads.
    await el.updateComplete;
    await waitForStep(el, 'outcome');
    await waitFor(() => actions(el).includes('Central de ajuda'), 'no help link');
    expect(actions(el)).to.deep.equal(['Central de ajuda', 'Voltar ao site']);
    expect(root(el).querySelector('[part~=help-link]')!.getAttribute('part')).to.include('button-primary');
    expect(text(el)).to.include('central de ajuda do serviço');
    const help = follow(el, 'Central de ajuda');
    expect(help).to.deep.equal({ href: 'https://shop.example/ajuda', target: '_blank' });
    const back = new URL(follow(el, 'Voltar ao site').href);
    expect(Object.fromEntries(back.searchParams)).to.deep.equal({ session: id, status: 'REFUSED' });
    await viewport(el, 'phone');
    expectEndingIcon(el, 'refused');
    await expect(el).to.be.accessible();
    await shots(el, 'outcome-refused-help');
  });

  it('ERROR (real companion): an 8-character support code to read aloud, calm, copy button kept, and Tentar novamente', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = await realEndpoint(ns);
    const created = await create(base, CPF.error);
    keep(base, created);
    const { el } = await reload(base);
    await waitForStep(el, 'outcome');
    expect(outcomeBox(el).getAttribute('data-status')).to.equal('ERROR');
    expect((await realState(ns, created.tokenOnboarding, created.accessKey)).status).to.equal('ERROR');
    const code = root(el).querySelector('[data-support-code]')!;
    // Without a session, the code stands for the onboarding's token.
    expect(code.textContent).to.match(SUPPORT_CODE);
    expect(code.textContent).to.equal(supportCodeOf(created.tokenOnboarding));
    expect(hasButton(el, 'Copiar código')).to.equal(true);
    await waitFor(() => hasButton(el, 'Tentar novamente'), 'no retry');
    expect(root(el).querySelector('[part~=button-primary]')!.textContent!.trim()).to.equal('Tentar novamente');
    // Not an error alert: body text colour and weight, not the error red, not bold.
    await waitFor(() => text(el).includes('Houve um problema técnico'), 'no error text');
    const box = outcomeBox(el);
    const paragraph = box.querySelector('p')!;
    const errorRed = getComputedStyle(el).getPropertyValue('--onboarding-color-error').trim() || 'rgb(179, 38, 30)';
    expect(getComputedStyle(paragraph).color).not.to.equal('rgb(179, 38, 30)', errorRed);
    expect(Number(getComputedStyle(paragraph).fontWeight)).to.be.below(600);
    expect(Number(getComputedStyle(box.querySelector('button')!).fontWeight)).to.be.below(700);
    await viewport(el, 'phone');
    expect(code.getClientRects().length, 'the code broken across lines at 390 px').to.equal(1);
    expect(code.getBoundingClientRect().right).to.be.at.most(el.getBoundingClientRect().right + 0.5);
    expectEndingIcon(el, 'error');
    await expect(el).to.be.accessible();
    await shots(el, 'outcome-error');
    // After a reload nothing entered is left: the new try starts from the beginning.
    await click(el, 'Tentar novamente');
    expect(stepOf(el)).to.equal('intro');
  });

  it('ERROR under a session: the code stands for the session, no new try (the session is spent), whom to contact', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const secret = 'cs_test_outcome_error_0123456789abcdef0';
    const id = `ses_${'0123456789abcdef'.repeat(2)}`;
    await controlDouble(ns, { sessions: [{ clientSecret: secret, id, prefill: { cpf: CPF.error.replace(/\D/g, '') } }] });
    keep(base, await create(base, CPF.error, secret), 0, secret);
    const { el } = await reload(base, { session: secret });
    await waitForStep(el, 'outcome');
    await waitFor(() => text(el).includes('Fale com o suporte do serviço'), 'no contact text');
    expect(root(el).querySelector('[data-support-code]')!.textContent).to.equal(supportCodeOf(id));
    expect(supportCodeOf(id)).to.equal('04HM-ASW9');
    expect(hasButton(el, 'Tentar novamente')).to.equal(false);
    expectEndingIcon(el, 'error');
    await expect(el).to.be.accessible();
  });

  it('a dropped watch: the support code, then "Tentar novamente" follows the status again and reaches the outcome', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const created = await create(base, CPF.manual);
    await controlDouble(ns, { events: 'fail', failReads: true });
    keep(base, created);
    const el = document.createElement('onboarding-flow');
    el.endpoint = base;
    el.pollOptions = { initialDelayMs: 100, maxDelayMs: 200, totalMs: 1_500 };
    document.body.append(el);
    mounted.push(el);
    // The first render lays out the step's section that waitForStep reads.
    await el.updateComplete;
    await waitForStep(el, 'processing');
    await waitFor(() => !!root(el).querySelector('#processing-error'), 'the watch never gave up');
    expect(root(el).querySelector('[data-support-code]')!.textContent).to.equal(supportCodeOf(created.tokenOnboarding));
    await waitFor(() => hasButton(el, 'Tentar novamente'), 'no retry');
    await viewport(el, 'phone');
    await expect(el).to.be.accessible();
    await shots(el, 'processing-dropped');
    await controlDouble(ns, { events: 'normal', failReads: false });
    await controlDouble(ns, { decide: { token: created.tokenOnboarding, status: 'APPROVED' } });
    await click(el, 'Tentar novamente');
    await waitForStep(el, 'outcome');
    expect(outcomeBox(el).getAttribute('data-status')).to.equal('APPROVED');
  });

  it('a session that ended: a large icon above the heading too, which keeps the focus', async function () {
    this.timeout(30_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const secret = 'cs_test_outcome_expired_0123456789abcde';
    await controlDouble(ns, { sessions: [{ clientSecret: secret, id: `ses_${'e'.repeat(32)}`, status: 'expired' }] });
    const { el } = await reload(base, { session: secret });
    await waitFor(() => !!root(el).querySelector('[data-session-problem]'), 'no session problem');
    expectEndingIcon(el, 'refused');
    await expect(el).to.be.accessible();
    await shots(el, 'session-expired');
  });

  it('waiting: "taking longer" after 30 s, possible manual review after 2 min (page must stay open without a session)', async function () {
    this.timeout(60_000);
    const base = `/test-companion/${companionNamespace()}`;
    const created = await create(base, CPF.manual);
    keep(base, created, 40_000);
    let { el } = await reload(base);
    await waitForStep(el, 'processing');
    await waitFor(() => !!root(el).querySelector('[data-wait=slow]'), 'no slow notice');
    expect(text(el)).to.include('Está levando mais tempo que o normal');
    el.remove();
    keep(base, created, 3 * 60_000);
    ({ el } = await reload(base));
    await waitForStep(el, 'processing');
    await waitFor(() => !!root(el).querySelector('[data-wait=review]'), 'no manual review notice');
    expect(text(el)).to.include('análise manual');
    expect(text(el)).to.include('Deixe esta página aberta');
    await expect(el).to.be.accessible();
  });

  it('waiting under a session: after 2 min the person may close the page', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const secret = 'cs_test_outcome_manual_0123456789abcdef';
    await controlDouble(ns, { sessions: [{ clientSecret: secret, id: 'ses_manual', prefill: { cpf: CPF.manual.replace(/\D/g, '') } }] });
    keep(base, await create(base, CPF.manual, secret), 3 * 60_000, secret);
    const { el } = await reload(base, { session: secret });
    await waitForStep(el, 'processing');
    await waitFor(() => text(el).includes('Você pode fechar esta página'), 'no close notice');
  });

  it('an offline banner while neither the stream nor polling reaches the companion, gone once they do', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const base = `/test-companion/${ns}`;
    const created = await create(base, CPF.manual);
    await controlDouble(ns, { events: 'fail', failReads: true });
    keep(base, created);
    const { el } = await reload(base);
    await waitForStep(el, 'processing');
    const banner = () => root(el).querySelector('[part~=offline]');
    await waitFor(() => !!banner(), 'no offline banner');
    expect(banner()!.closest('[role=status]')).not.to.equal(null);
    expect(banner()!.textContent).to.include('Sem conexão');
    await expect(el).to.be.accessible();
    await controlDouble(ns, { failReads: false });
    await waitFor(() => !banner(), 'the banner stayed');
    await controlDouble(ns, { decide: { token: created.tokenOnboarding, status: 'APPROVED' } });
    await waitForStep(el, 'outcome');
  });

  it('a reload mid-wait resumes it: only token, key, endpoint and time are kept, and forgotten at the outcome', async function () {
    this.timeout(90_000);
    const { el, ns } = await mount({ companion: 'real' });
    await reachReviewWithFiles(el, CPF.manual);
    await click(el, 'Enviar');
    await waitForStep(el, 'processing');
    const keys = Object.keys(sessionStorage).filter((k) => k.startsWith('onboarding-kit:'));
    expect(keys).to.have.length(1);
    const raw = sessionStorage.getItem(keys[0]!)!;
    const kept = JSON.parse(raw) as KeptOnboarding;
    expect(Object.keys(kept).sort()).to.deep.equal(['accessKey', 'endpoint', 'savedAt', 'tokenOnboarding']);
    expect(raw.length).to.be.below(400);
    expect(raw).not.to.include(CPF.manual.replace(/\D/g, ''));
    el.remove();
    const { el: again } = await reload(el.endpoint);
    await waitForStep(again, 'processing');
    await decide(kept.tokenOnboarding, 'APPROVED');
    await waitForStep(again, 'outcome');
    expect(outcomeBox(again).getAttribute('data-status')).to.equal('APPROVED');
    expect(sessionStorage.getItem(keys[0]!)).to.equal(null);
    expect((await realState(ns, kept.tokenOnboarding, kept.accessKey)).status).to.equal('APPROVED');
  });

  it('resumes too when a framework sets the endpoint after the first render', async function () {
    this.timeout(30_000);
    const base = `/test-companion/${companionNamespace()}`;
    keep(base, await create(base, CPF.approved));
    const { el } = await reload('');
    expect(stepOf(el)).to.equal('intro');
    el.endpoint = base;
    await waitForStep(el, 'outcome');
    expect(outcomeBox(el).getAttribute('data-status')).to.equal('APPROVED');
  });

  it('a kept onboarding older than 48 h is dropped: the flow starts at the intro', async function () {
    this.timeout(30_000);
    const base = `/test-companion/${companionNamespace()}`;
    const key = keep(base, await create(base, CPF.manual), 49 * 60 * 60_000);
    const { el } = await reload(base);
    expect(stepOf(el)).to.equal('intro');
    expect(sessionStorage.getItem(key)).to.equal(null);
  });

  it('warns before the page is left during an upload, and only then', async function () {
    this.timeout(90_000);
    const { el, ns } = await mount();
    await reachReviewWithFiles(el, CPF.approved);
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).to.equal(false);
    await controlDouble(ns, { holdUploads: true });
    await click(el, 'Enviar');
    await waitFor(() => stepOf(el) === 'upload', 'no upload');
    expect(leave()).to.equal(true);
    await click(el, 'Cancelar envio');
    await waitForStep(el, 'review');
    expect(leave()).to.equal(false);
    // Sent again and answered: nothing to lose any more.
    await controlDouble(ns, { holdUploads: false });
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    expect(leave()).to.equal(false);
    expect((await doubleState(ns)).onboardings).to.have.length(1);
  });
});
