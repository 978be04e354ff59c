/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, onlyIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  captureView,
  liveCamera,
  hasButton,
  CPF,
  chooseType,
  cleanupListeners,
  click,
  controlDouble,
  errorText,
  heading,
  mount,
  openCamera,
  passConsent,
  passCpf,
  passIntro,
  pickFile,
  preview,
  reachReviewWithFiles,
  root,
  stepOf,
  takePhoto,
  waitFor,
  waitForStep,
  photoFor,
  buttonText,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

/**
 * Why the walks that Tab past the element's last stop run in Chromium only: Firefox then moves
 * focus out of the page into its own toolbar, and a page without focus draws no focus ring for
 * the rest of the test; WebKit has no keyboard command.
 */
const TAB_OUT = `Firefox tabs out of the page into its toolbar after the last stop (the page then draws no focus ring); ${NOT_IN.keyboard}`;

const active = (el: OnboardingFlow): Element | null => root(el).activeElement;
const label = (node: Element | null): string => (node ? (node.getAttribute('aria-label') ?? buttonText(node)) : '').trim();

async function press(key: string): Promise<void> {
  // Playwright calls the space bar 'Space', puppeteer ' ' (which Playwright takes too).
  await sendKeys({ press: key === 'Space' ? ' ' : key });
}

/** Tabs forward until `match` holds for the focused element (at most `max` presses). */
async function tabTo(el: OnboardingFlow, match: (node: Element | null) => boolean, what: string, max = 12): Promise<void> {
  for (let i = 0; i < max; i++) {
    await press('Tab');
    await el.updateComplete;
    if (match(active(el))) return;
  }
  throw new Error(`Tab never reached ${what} on ${stepOf(el)}`);
}

const buttonNamed = (text: string) => (node: Element | null) => node?.tagName === 'BUTTON' && label(node) === text;

/** A short name of a focused control, for messages and the lists of stops. */
function describeStop(node: Element): string {
  if (node instanceof HTMLInputElement) return node.id ? `input#${node.id}` : `input[type=${node.type}]`;
  return `${node.tagName.toLowerCase()} ${label(node)}`.trim();
}

/**
 * What a person sees focused: the control itself, or for a visually hidden one (the file input
 * inside its label) the nearest ancestor that takes up room on the screen.
 */
function visibleBox(node: HTMLElement): HTMLElement {
  let box: HTMLElement | null = node;
  while (box) {
    const r = box.getBoundingClientRect();
    if (r.width > 2 && r.height > 2) return box;
    box = box.parentElement;
  }
  throw new Error(`${describeStop(node)} has no visible box`);
}

/**
 * From the step's heading, presses Tab until focus leaves the element or comes round again, and
 * checks at every stop that a focus outline of at least 2 px is drawn on what the person sees,
 * and that it is at least 24 px in both directions. Returns the stops, in Tab order.
 */
async function checkTabStops(el: OnboardingFlow, where: string, options: { allowNone?: boolean } = {}): Promise<string[]> {
  heading(el).focus();
  const seen: Element[] = [];
  for (let i = 0; i < 40; i++) {
    await press('Tab');
    await el.updateComplete;
    const node = active(el);
    if (!node || node === heading(el) || seen.includes(node)) break;
    seen.push(node);
    const box = visibleBox(node as HTMLElement);
    const style = getComputedStyle(box);
    const what = `${where}: ${describeStop(node)}${box === node ? '' : ` (shown on its ${box.tagName.toLowerCase()})`}`;
    expect(style.outlineStyle, `${what} has no focus outline`).to.not.equal('none');
    expect(parseFloat(style.outlineWidth), `${what}: outline width`).to.be.at.least(2);
    const rect = box.getBoundingClientRect();
    expect(Math.min(rect.width, rect.height), `${what}: target size`).to.be.at.least(24);
  }
  if (!options.allowNone) expect(seen.length, `${where}: Tab reached nothing`).to.be.greaterThan(0);
  return seen.map(describeStop);
}

/**
 * The same walk inside the capture view: a modal, so Tab goes round its own controls (focus
 * starts on the shutter) and never reaches the page behind it. Past its last control, a browser
 * whose page has focus lets Tab out to its own UI (in headless Chromium: the document, nothing
 * focused), as it should: a modal is no keyboard trap. The next Tab comes back into the view.
 */
async function checkViewTabStops(el: OnboardingFlow): Promise<string[]> {
  const viewRoot = captureView(el)!.shadowRoot!;
  // The modal's autofocus lands on the shutter as it opens; wait for it rather than race it.
  await waitFor(() => !!viewRoot.activeElement, 'focus never moved into the capture view');
  const seen: Element[] = [];
  let outsideTheView = 0;
  for (let i = 0; i < 14; i++) {
    const node = viewRoot.activeElement;
    if (!node) {
      // Out of the view: to the browser, never to anything on the page behind the modal.
      const focused = document.activeElement;
      expect(
        focused === null || focused === document.body,
        `Tab left the capture view for ${focused?.tagName.toLowerCase()} on the page`,
      ).to.equal(true);
      outsideTheView++;
      expect(outsideTheView, 'Tab never came back into the capture view').to.be.at.most(1);
      await press('Tab');
      continue;
    }
    if (seen.includes(node)) break;
    seen.push(node);
    const style = getComputedStyle(node);
    expect(style.outlineStyle, `capture view: ${describeStop(node)} has no focus outline`).to.not.equal('none');
    const rect = node.getBoundingClientRect();
    expect(Math.min(rect.width, rect.height), `capture view: ${describeStop(node)} target size`).to.be.at.least(24);
    await press('Tab');
  }
  expect(viewRoot.activeElement, 'Tab came back round to the first control of the view').to.equal(seen[0]);
  return seen.map(describeStop);
}

describe('<onboarding-flow> keyboard only', () => {
  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'walks the intro, consent, CPF (with a check-digit error), type, photos and upload with the keyboard alone',
    async function () {
      this.timeout(120_000);
      const { el } = await mount();
      el.start();
      await el.updateComplete;
      expect(active(el)).to.equal(heading(el));

      // The intro: its one button is the first stop; Enter leads to the consent, its heading focused.
      expect(stepOf(el)).to.equal('intro');
      await press('Tab');
      expect(label(active(el))).to.equal('Começar');
      await press('Enter');
      await waitForStep(el, 'consent');
      expect(active(el)).to.equal(heading(el));

      // Consent: the "Ler detalhes" disclosure first (Enter unfolds the full text, again folds it),
      // then Tab to the box, Space ticks it; Continue with Enter.
      await press('Tab');
      expect(active(el)?.tagName).to.equal('SUMMARY');
      expect(label(active(el))).to.equal('Ler detalhes');
      await press('Enter');
      expect(root(el).querySelector('details')!.open).to.equal(true);
      await press('Enter');
      expect(root(el).querySelector('details')!.open).to.equal(false);
      await press('Tab');
      expect(active(el)?.id).to.equal('consent');
      await press('Space');
      expect(root(el).querySelector<HTMLInputElement>('#consent')!.checked).to.equal(true);
      // The main action comes first, then the link above it.
      await press('Tab');
      expect(label(active(el))).to.equal('Continuar');
      await press('Tab');
      expect(label(active(el))).to.equal('Agora não');
      await press('Shift+Tab');
      expect(label(active(el))).to.equal('Continuar');
      await press('Enter');
      await waitForStep(el, 'cpf');
      expect(active(el)).to.equal(heading(el));

      // CPF: typed digits are masked; a wrong check digit is announced and tied to the field.
      await press('Tab');
      expect(active(el)?.id).to.equal('cpf');
      const cpf = root(el).querySelector<HTMLInputElement>('#cpf')!;
      expect(cpf.inputMode).to.equal('numeric');
      expect(cpf.autocomplete).to.equal('off');
      await sendKeys({ type: '52998224726' });
      expect(cpf.value).to.equal('529.982.247-26');
      await press('Enter');
      await el.updateComplete;
      expect(stepOf(el)).to.equal('cpf');
      expect(cpf.getAttribute('aria-invalid')).to.equal('true');
      const error = root(el).querySelector('#cpf-error')!;
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.textContent).to.contain('dígitos verificadores');
      expect(cpf.getAttribute('aria-describedby')).to.contain('cpf-error');
      expect(active(el)).to.equal(cpf);
      await expect(el).to.be.accessible();
      await press('Backspace');
      await sendKeys({ type: '5' });
      expect(cpf.value).to.equal(CPF.approved);
      expect(root(el).querySelector('#cpf-error')).to.equal(null);
      await press('Enter');
      await waitForStep(el, 'document-type');
      expect(active(el)).to.equal(heading(el));

      // Type: arrows move within the radio group, Space selects.
      await press('Tab');
      expect((active(el) as HTMLInputElement).type).to.equal('radio');
      await press('Space');
      await press('ArrowDown');
      await el.updateComplete;
      expect(root(el).querySelector<HTMLInputElement>('#doctype-RG')!.checked).to.equal(true);
      await tabTo(el, buttonNamed('Continuar'), 'Continuar');
      await press('Enter');
      await waitForStep(el, 'document-front');
      expect(heading(el).textContent).to.contain('RG');

      // Each photo: open the camera, take the photo, use it.
      for (const next of ['document-back', 'selfie', 'review']) {
        await tabTo(el, buttonNamed('Abrir câmera'), 'Abrir câmera');
        await press('Enter');
        await waitFor(() => {
          const v = captureView(el)?.video;
          return !!v && v.videoWidth > 0;
        }, 'camera never went live');
        await el.updateComplete;
        // The capture view is a modal: focus starts on its shutter.
        expect(captureView(el)!.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Tirar foto');
        await press('Enter');
        if (next === 'review') {
          // The fake camera's card is no face: refused twice, it cannot be kept; the file picker is the next Tab stop.
          await waitFor(() => hasButton(el, 'Tirar outra foto'), 'the card was not refused as a selfie', 25_000);
          await el.updateComplete;
          expect(label(active(el))).to.equal('Tirar outra foto');
          await press('Enter');
          await liveCamera(el);
          await waitFor(
            () => captureView(el)?.shadowRoot?.activeElement?.getAttribute('aria-label') === 'Tirar foto',
            'the camera did not reopen with focus on its shutter',
          );
          await press('Enter');
          await waitFor(() => !!root(el).querySelector('[part~=face-tips]'), 'no tips after the second refusal', 25_000);
          await el.updateComplete;
          expect(hasButton(el, 'Usar mesmo assim')).to.equal(false);
          expect(label(active(el))).to.equal('Tirar outra foto');
          await press('Tab');
          expect((active(el) as HTMLInputElement | null)?.type).to.equal('file');
          // The system's file dialog is no part of the page: the file is handed to the picker Tab reached.
          await pickFile(el, await photoFor(el));
        }
        await waitFor(() => !!preview(el), 'no preview', 25_000);
        await el.updateComplete;
        expect(label(active(el))).to.equal('Usar esta foto');
        await press('Enter');
        await waitForStep(el, next);
        expect(active(el)).to.equal(heading(el));
      }

      await tabTo(el, buttonNamed('Enviar'), 'Enviar');
      await press('Enter');
      await waitForStep(el, 'outcome');
      expect(active(el)).to.equal(heading(el));
      await tabTo(el, buttonNamed('Começar de novo'), 'Começar de novo');
      await press('Enter');
      await waitForStep(el, 'intro');
      expect(active(el)).to.equal(heading(el));
    },
  );

  onlyIn(['chromium'], TAB_OUT)('every stop Tab reaches on the way to an outcome shows a focus outline', async function () {
    this.timeout(120_000);
    const { el, ns } = await mount();
    // Each walk ends with a Tab out of the element: onto this button, not out of the page. A Tab
    // out of the page leaves Chromium's page without focus, and a page without focus may not
    // have the capture view's autofocus land when it opens later in this walk.
    const after = document.createElement('button');
    after.textContent = 'after the element';
    el.after(after); // inside the fixture's wrapper, which goes after the test
    el.start();
    await el.updateComplete;
    const stops: Record<string, string[]> = {};
    // The intro's one stop is intro.test.ts's.
    await passIntro(el);
    stops.consent = await checkTabStops(el, 'consent');
    await passConsent(el);
    stops.cpf = await checkTabStops(el, 'cpf');
    await passCpf(el, CPF.error);
    stops.type = await checkTabStops(el, 'document-type');
    await chooseType(el, 'CNH');
    stops.front = await checkTabStops(el, 'document-front, camera closed');
    el.manualCapture = true;
    await openCamera(el);
    stops.live = await checkViewTabStops(el);
    await takePhoto(el);
    stops.preview = await checkTabStops(el, 'document-front, photo taken');
    await click(el, 'Usar esta foto');
    for (const step of ['document-back', 'selfie']) {
      await waitForStep(el, step);
      stops[step] = await checkTabStops(el, step);
      await pickFile(el, await photoFor(el));
      await click(el, 'Usar esta foto');
    }
    await waitForStep(el, 'review');
    stops.review = await checkTabStops(el, 'review');
    await controlDouble(ns, { holdUploads: true });
    await click(el, 'Enviar');
    await waitForStep(el, 'upload');
    stops.upload = await checkTabStops(el, 'upload');
    await click(el, 'Cancelar envio');
    await waitForStep(el, 'review');
    await controlDouble(ns, { holdUploads: false });
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    stops.outcome = await checkTabStops(el, 'outcome ERROR');

    // The walk did reach the controls that matter (so a step that lost its stops would show here).
    expect(stops.consent).to.include.members(['input#consent', 'button Continuar']);
    expect(stops.cpf).to.include('input#cpf');
    expect(stops.type.some((s) => s.startsWith('input#doctype-'))).to.equal(true);
    for (const step of ['front', 'document-back', 'selfie']) expect(stops[step], step).to.include('input[type=file]');
    expect(stops.front).to.include('button Abrir câmera');
    expect(stops.live).to.include.members(['button Voltar', 'button Fechar câmera', 'button Tirar foto']);
    expect(stops.preview).to.include('button Usar esta foto');
    expect(stops.review).to.include('button Enviar');
    expect(stops.upload).to.include('button Cancelar envio');
    expect(stops.outcome).to.include.members(['button Copiar código', 'button Começar de novo']);
  });

  onlyIn(['chromium'], TAB_OUT)('every stop Tab reaches on an upload error and while processing shows a focus outline', async function () {
    this.timeout(120_000);
    const { el, ns } = await mount();
    await reachReviewWithFiles(el, CPF.manual);
    await controlDouble(ns, { failUploads: 'http-503' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    const error = await checkTabStops(el, 'upload error');
    expect(error).to.include('button Tentar novamente');
    await controlDouble(ns, { failUploads: null });
    await click(el, 'Tentar novamente');
    // A manual review never decides on its own: the processing step stays.
    await waitForStep(el, 'processing');
    await checkTabStops(el, 'processing', { allowNone: true });
  });
});
