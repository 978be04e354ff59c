/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * Text at 200% without loss (WCAG 1.4.4 and 1.4.10): the page's root font size doubled (the
 * element's and the capture view's sizes are in rem), at a laptop's width and a phone's, on each
 * main state. Nothing scrolls sideways, no text is cut by a box that hides its overflow or runs
 * out of the element (or of the capture view), every button holds its label and stays within the
 * width, and the capture view's shutter, back and close stay on screen. Every problem of the walk
 * is reported at its end; screenshots of some states are saved for a person to look at.
 */
import { currentEngine, type Engine } from '@onboarding-kit/testing/engine';
import { expect, nextFrame } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { normalizeEndpoint } from '../api/index.js';
import { resumeKeyFor, type KeptOnboarding } from '../controllers/kept-onboarding.js';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  captureView,
  cardJpeg,
  chooseType,
  cleanupListeners,
  click,
  companionNamespace,
  controlDouble,
  errorText,
  hasButton,
  heading,
  mount,
  openCamera,
  passConsent,
  passCpf,
  passIntro,
  photoFor,
  pickFile,
  preview,
  root,
  typeInto,
  waitFor,
  waitForStep,
} from './test-helpers.js';

type Size = 'phone' | 'laptop';
const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1366, height: 768 } } as const;

const mounted: HTMLElement[] = [];
afterEach(async () => {
  cleanupListeners();
  while (mounted.length) mounted.pop()!.remove();
  sessionStorage.clear();
  document.documentElement.style.fontSize = '';
  if (currentEngine() !== 'webkit') await setViewport(SIZES.laptop);
});

/** WebKit's driver cannot resize the page: there the element alone is narrowed to the phone's width. */
async function viewport(el: OnboardingFlow, size: Size): Promise<void> {
  if (currentEngine() === 'webkit') el.style.width = size === 'phone' ? `${SIZES.phone.width}px` : '';
  else await setViewport(SIZES[size]);
  await el.updateComplete;
  await nextFrame();
  await nextFrame();
}

const parentOf = (node: Element): Element | null => node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);

/** Text meant for assistive technology only (clipped to nothing), or not rendered at all. */
function notShown(node: Element): boolean {
  for (let n: Element | null = node; n; n = parentOf(n)) {
    const s = getComputedStyle(n);
    if (s.display === 'none' || s.visibility === 'hidden') return true;
    if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return true;
  }
  return false;
}

function describe_(node: Element): string {
  const part = node.getAttribute('part');
  return `<${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.classList.length ? `.${[...node.classList].join('.')}` : ''}${part ? ` part="${part}"` : ''}>`;
}

interface Box {
  left: number;
  right: number;
  top?: number;
  bottom?: number;
}

const outside = (r: DOMRect, box: Box): boolean =>
  r.left < box.left - 1 ||
  r.right > box.right + 1 ||
  (box.top !== undefined && r.top < box.top - 1) ||
  (box.bottom !== undefined && r.bottom > box.bottom + 1);
const fmt = (r: DOMRect | Box): string =>
  'x' in r
    ? `[${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}]`
    : `[${Math.round(r.left)}..${Math.round(r.right)}${r.top !== undefined ? ` x ${Math.round(r.top)}..${Math.round(r.bottom!)}` : ''}]`;

/** Every piece of text in `shadow` that runs out of `box` or is cut by an ancestor that hides or scrolls its overflow. */
function textLoss(shadow: ShadowRoot, box: Box): string[] {
  const problems: string[] = [];
  const walker = document.createTreeWalker(shadow, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    const owner = t.parentElement;
    if (!owner || !t.data.trim() || notShown(owner)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const what = `"${t.data.trim().slice(0, 40)}" in ${describe_(owner)}`;
    // A word split over two lines reads as two (a narrow column with overflow-wrap: anywhere does that).
    // A line may end after a hyphen ("usá-" / "la"), as in print: each part up to a hyphen counts as one.
    for (const match of t.data.matchAll(/[^\s-]+-?/g)) {
      const word = document.createRange();
      word.setStart(t, match.index);
      word.setEnd(t, match.index + match[0].length);
      const lines = new Set([...word.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) {
        problems.push(`${what} breaks the word "${match[0]}" over ${lines.size} lines`);
        break;
      }
    }
    let block: Element = owner;
    while (getComputedStyle(block).display.startsWith('inline') && block.parentElement) block = block.parentElement;
    const own = block.getBoundingClientRect();
    for (const r of rects) {
      // A line kept whole on purpose (nowrap) may spill past its own box; it must still stay in the area.
      if (getComputedStyle(block).whiteSpace !== 'nowrap' && (r.right > own.right + 1 || r.left < own.left - 1)) {
        problems.push(`${what} overflows its box ${describe_(block)}: ${fmt(r)} beyond ${fmt(own)}`);
        break;
      }
      if (outside(r, box)) {
        problems.push(`${what} runs out of its area: ${fmt(r)} beyond ${fmt(box)}`);
        break;
      }
      let cut = false;
      for (let a: Element | null = owner; a && a !== document.body && a !== document.documentElement; a = parentOf(a)) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const ar = a.getBoundingClientRect();
        const inner = {
          left: ar.left + a.clientLeft,
          right: ar.left + a.clientLeft + a.clientWidth,
          top: ar.top + a.clientTop,
          bottom: ar.top + a.clientTop + a.clientHeight,
        };
        if (outside(r, inner)) {
          problems.push(`${what} is cut by ${describe_(a)} (overflow ${s.overflowX}/${s.overflowY}): ${fmt(r)} beyond ${fmt(inner)}`);
          cut = true;
          break;
        }
      }
      if (cut) break;
    }
  }
  return problems;
}

/** Buttons and labels that hold more than they show, or reach past `box` sideways. */
function controlLoss(shadow: ShadowRoot, box: Box): string[] {
  const problems: string[] = [];
  for (const node of shadow.querySelectorAll<HTMLElement>('button, label, summary, .file-button, [part~=button]')) {
    if (notShown(node) || node.getClientRects().length === 0) continue;
    const label = (node.getAttribute('aria-label') ?? node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    if (node.scrollWidth > node.clientWidth + 1)
      problems.push(
        `${describe_(node)} "${label}" holds more than it shows: scrollWidth ${node.scrollWidth} > clientWidth ${node.clientWidth}`,
      );
    if (node.tagName === 'BUTTON' || node.matches('.file-button')) {
      const r = node.getBoundingClientRect();
      if (outside(r, { left: box.left, right: box.right }))
        problems.push(`${describe_(node)} "${label}" reaches past the width: ${fmt(r)} beyond ${fmt(box)}`);
    }
  }
  return problems;
}

/** Everything lost on the screen as it is now. */
function lossNow(el: OnboardingFlow): string[] {
  const problems: string[] = [];
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const page = document.scrollingElement!;
  if (page.scrollWidth > vw + 1) problems.push(`the page scrolls sideways: scrollWidth ${page.scrollWidth} > ${vw}`);
  if (el.scrollWidth > el.clientWidth + 1)
    problems.push(`the element scrolls sideways: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
  const host = el.getBoundingClientRect();
  const flowBox = { left: Math.max(0, host.left), right: Math.min(vw, host.right) };
  problems.push(...textLoss(root(el), flowBox), ...controlLoss(root(el), flowBox));
  const view = captureView(el);
  if (view) {
    const viewRoot = view.shadowRoot!;
    const d = viewRoot.querySelector('dialog')!.getBoundingClientRect();
    const viewBox = { left: Math.max(0, d.left), right: Math.min(vw, d.right), top: Math.max(0, d.top), bottom: Math.min(vh, d.bottom) };
    problems.push(
      ...textLoss(viewRoot, viewBox).map((p) => `capture view: ${p}`),
      ...controlLoss(viewRoot, viewBox).map((p) => `capture view: ${p}`),
    );
    for (const part of ['shutter', 'capture-back', 'capture-close']) {
      const control = viewRoot.querySelector(`[part~=${part}]`);
      if (!control) {
        problems.push(`capture view: no ${part}`);
        continue;
      }
      const r = control.getBoundingClientRect();
      if (r.width === 0 || outside(r, viewBox)) problems.push(`capture view: the ${part} is off screen: ${fmt(r)} beyond ${fmt(viewBox)}`);
    }
    // The instruction (or the hint in its place) never covers the preview, whose guide the person lines up with.
    const stage = viewRoot.querySelector('.stage')?.getBoundingClientRect();
    for (const text of viewRoot.querySelectorAll<HTMLElement>('#instruction, [part~=capture-hint]')) {
      if (!stage || getComputedStyle(text).visibility === 'hidden' || (text.hidden && getComputedStyle(text).display === 'none')) continue;
      const t = text.getBoundingClientRect();
      const overlap =
        Math.min(t.bottom, stage.bottom) - Math.max(t.top, stage.top) > 0.5 &&
        Math.min(t.right, stage.right) - Math.max(t.left, stage.left) > 0.5;
      if (overlap)
        problems.push(`capture view: "${text.textContent!.trim().slice(0, 40)}" covers the preview: ${fmt(t)} over ${fmt(stage)}`);
    }
  }
  return problems;
}

/**
 * Losses found in the element and reported to be fixed there (issue 14, item 6), each said once
 * here rather than tolerated silently: the walk still fails on anything else, and on an entry
 * that stops happening in the engines it names. WebKit narrows the element instead of the window,
 * so its media queries keep the wide layout of the stage list: its losses differ.
 */
const KNOWN_LOSS: { state: string; problem: RegExp; why: string; engines?: Engine[] }[] = [];

/** Collects the losses of each state at both sizes; `done()` fails with all of them. */
class ZoomWalk {
  readonly checked: string[] = [];
  readonly problems: string[] = [];

  constructor(private readonly el: OnboardingFlow) {}

  async check(state: string, options: { shots?: boolean } = {}): Promise<void> {
    this.checked.push(state);
    for (const size of ['phone', 'laptop'] as const) {
      await viewport(this.el, size);
      this.problems.push(...lossNow(this.el).map((p) => `[${state} @ ${size}] ${p}`));
      if (options.shots) {
        const name = `zoom200-${state.replace(/[^a-z0-9]+/gi, '-')}-${size}`;
        const path = await executeServerCommand<string, { name: string }>('screenshot', { name });
        console.log(`${state} @ ${size}: ${path}`);
      }
    }
  }

  /**
   * Fails with every problem no KNOWN_LOSS entry names, and with every entry that no longer
   * happens (so a fix in the element has its entry removed here, and nothing stays tolerated).
   */
  done(expected: string[]): void {
    const known = KNOWN_LOSS.filter((k) => !k.engines || k.engines.includes(currentEngine()));
    const unknown = this.problems.filter((p) => !known.some((k) => k.problem.test(p)));
    expect(unknown, `text at 200% loses something:\n${unknown.join('\n')}`).to.deep.equal([]);
    const states = new Set(this.checked);
    const gone = known.filter((k) => states.has(k.state) && !this.problems.some((p) => k.problem.test(p)));
    expect(
      gone.map((k) => k.problem.source),
      'known losses that no longer happen: remove them from KNOWN_LOSS',
    ).to.deep.equal([]);
    expect(this.checked).to.deep.equal(expected);
  }
}

/** An onboarding created on the companion double and kept as the element keeps it: a reload resumes it. */
async function keptOnboarding(cpf: string): Promise<string> {
  const base = `/test-companion/${companionNamespace()}`;
  const bytes = new Uint8Array(await (await cardJpeg()).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const image = btoa(binary);
  const res = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cpf, documentType: 'CNH', images: { documentFront: image, documentBack: image, selfie: image } }),
  });
  if (!res.ok) throw new Error(`creation failed: ${res.status}`);
  const created = (await res.json()) as { tokenOnboarding: string; accessKey: string };
  const endpoint = normalizeEndpoint(base);
  const kept: KeptOnboarding = { ...created, endpoint, savedAt: Date.now() };
  sessionStorage.setItem(resumeKeyFor(endpoint, '')!, JSON.stringify(kept));
  return base;
}

describe('<onboarding-flow> text at 200%', () => {
  it('the element sizes its text in rem: doubling the root font size doubles it', async () => {
    const { el } = await mount();
    const before = parseFloat(getComputedStyle(heading(el)).fontSize);
    document.documentElement.style.fontSize = '200%';
    await el.updateComplete;
    expect(parseFloat(getComputedStyle(heading(el)).fontSize)).to.equal(before * 2);
    expect(parseFloat(getComputedStyle(root(el).querySelector('button')!).fontSize)).to.equal(32);
  });

  it('from the intro to the review: nothing scrolls sideways, no text is cut, every button holds its label; the capture view keeps its controls on screen', async function () {
    this.timeout(180_000);
    document.documentElement.style.fontSize = '200%';
    const { el } = await mount();
    const walk = new ZoomWalk(el);
    await walk.check('intro', { shots: true });
    await passIntro(el);
    root(el).querySelector('details')!.open = true;
    await waitFor(() => root(el).querySelectorAll('details h3').length > 0, 'the full consent text');
    await walk.check('consent, details open', { shots: true });
    await passConsent(el);
    await typeInto(root(el).querySelector<HTMLInputElement>('#cpf')!, '529.982.247-26');
    await el.updateComplete;
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await el.updateComplete;
    expect(root(el).querySelector('#cpf-error')).to.exist;
    await walk.check('cpf, error', { shots: true });
    await passCpf(el, CPF.approved, 'Maria Silva');
    await walk.check('document-type');
    await chooseType(el, 'CNH');
    await walk.check('document-front');
    el.manualCapture = true;
    await openCamera(el);
    await captureView(el)!.updateComplete;
    await walk.check('capture view', { shots: true });
    captureView(el)!.shadowRoot!.querySelector<HTMLButtonElement>('[part~=capture-close]')!.click();
    await waitFor(() => !captureView(el), 'the view stayed open');
    await pickFile(el, await photoFor(el));
    expect(preview(el), errorText(el)).to.exist;
    await walk.check('document-front, accepted');
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    // A card is no face: refused twice, it cannot be kept; the tips and the file picker are offered instead.
    await pickFile(el, await cardJpeg('selfie.jpg'));
    await click(el, 'Tirar outra foto');
    await pickFile(el, await cardJpeg('selfie2.jpg'));
    expect(hasButton(el, 'Usar mesmo assim')).to.equal(false);
    expect(root(el).querySelector('[part~=face-tips]')).to.not.equal(null);
    await walk.check('selfie, refused twice', { shots: true });
    await click(el, 'Tirar outra foto');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await walk.check('review', { shots: true });
    walk.done([
      'intro',
      'consent, details open',
      'cpf, error',
      'document-type',
      'document-front',
      'capture view',
      'document-front, accepted',
      'selfie, refused twice',
      'review',
    ]);
  });

  it('after sending: upload, an upload error with a support code, processing, the ERROR outcome', async function () {
    this.timeout(180_000);
    document.documentElement.style.fontSize = '200%';
    const { el, ns } = await mount();
    const walk = new ZoomWalk(el);
    await passConsent(el);
    await passCpf(el, CPF.manual);
    await chooseType(el, 'CNH');
    for (const step of ['document-front', 'document-back', 'selfie']) {
      await waitForStep(el, step);
      await pickFile(el, await photoFor(el));
      await click(el, 'Usar esta foto');
    }
    await waitForStep(el, 'review');
    await controlDouble(ns, { holdUploads: true });
    await click(el, 'Enviar');
    await waitForStep(el, 'upload');
    await walk.check('upload');
    await click(el, 'Cancelar envio');
    await waitForStep(el, 'review');
    await controlDouble(ns, {
      holdUploads: false,
      failUploads: {
        status: 400,
        error: { code: 'invalid_cpf', message: 'CPF refused upstream.', field: 'cpf', externalId: '5f0c2a9e-7d41-4c3b-9a8e-2b6d1f4e8c70' },
      },
    });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await el.updateComplete;
    await walk.check('upload error', { shots: true });
    await controlDouble(ns, { failUploads: null });
    await click(el, 'Voltar às fotos');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitForStep(el, 'processing');
    await walk.check('processing', { shots: true });
    el.remove();

    const base = await keptOnboarding(CPF.error);
    const again = document.createElement('onboarding-flow');
    again.endpoint = base;
    again.locale = 'pt-BR';
    document.body.append(again);
    mounted.push(again);
    await again.updateComplete;
    await waitForStep(again, 'outcome');
    await waitFor(
      () => !!root(again).querySelector('[data-support-code]') && root(again).querySelectorAll('[part~=outcome] p').length > 0,
      'no support code',
    );
    const outcome = new ZoomWalk(again);
    await outcome.check('outcome ERROR', { shots: true });
    walk.done(['upload', 'upload error', 'processing']);
    outcome.done(['outcome ERROR']);
  });
});
