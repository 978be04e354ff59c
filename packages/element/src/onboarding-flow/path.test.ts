/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import {
  CPF,
  button,
  cardJpeg,
  chooseType,
  cleanupListeners,
  click,
  heading,
  mount,
  passConsent,
  passCpf,
  passIntro,
  pickFile,
  root,
  stepOf,
  waitFor,
  waitForStep,
  photoFor,
} from './test-helpers.js';
import { ptBR } from '../messages/index.js';
import { consentText } from '../messages/consent-text.js';
import type { OnboardingFlow } from './onboarding-flow.js';

type GetUserMedia = MediaDevices['getUserMedia'];

afterEach(async () => {
  cleanupListeners();
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

/**
 * A phone's (390x844) or a laptop's (1366x768) viewport. WebKit's driver cannot resize the page,
 * so there the element alone is narrowed to the phone's width.
 */
async function viewport(el: OnboardingFlow, size: 'phone' | 'laptop'): Promise<void> {
  if (currentEngine() === 'webkit') el.style.width = size === 'phone' ? '390px' : '';
  else await setViewport(size === 'phone' ? { width: 390, height: 844 } : { width: 1366, height: 768 });
  await el.updateComplete;
}

/** Whether `node` is on the first screen of the page, unscrolled, at the given viewport height. */
const aboveTheFold = (node: Element, height: number): boolean => node.getBoundingClientRect().bottom + window.scrollY <= height;

/** The list of steps as shown: each step's name, which one is current, and how many come before it. */
function stages(el: OnboardingFlow): { names: string[]; current: string | null; done: number } {
  const items = [...root(el).querySelectorAll('[part~=stages] > [part~=stage]')];
  const name = (li: Element) => li.textContent!.replace(/\s+/g, ' ').trim();
  const current = items.find((li) => li.getAttribute('aria-current') === 'step');
  expect(root(el).querySelectorAll('[part~=stage-current]').length).to.equal(current ? 1 : 0);
  if (current) expect(current.matches('[part~=stage-current]')).to.equal(true);
  return { names: items.map(name), current: current ? name(current) : null, done: current ? items.indexOf(current) : 0 };
}

/** Every thumbnail decoded: WebKit paints a new blob image a while after it is in the DOM, and a screenshot is for looking at. */
async function thumbnailsShown(el: HTMLElement): Promise<void> {
  await Promise.all(
    [...el.shadowRoot!.querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((img) => img.decode().catch(() => undefined)),
  );
  // Decoded is not yet painted: WebKitGTK composites a frame or more later, and left one thumbnail blank in screenshots.
  for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function shot(name: string): Promise<void> {
  const path = await executeServerCommand<string, { name: string }>('screenshot', { name });
  console.log(`${name}: ${path}`);
}

describe('<onboarding-flow> a shorter, clearer path', () => {
  it('shows five named steps, the document step counting its sides, and none on the intro or after sending', async function () {
    this.timeout(90_000);
    const { el, events } = await mount();
    // The intro comes before the first of them: nothing has been done yet.
    expect(stepOf(el)).to.equal('intro');
    expect(root(el).querySelector('[part~=stages]')).to.equal(null);
    await passIntro(el);
    expect(root(el).querySelector('[aria-live=polite]')!.textContent).to.contain('Etapa 1 de 5: Uso dos seus dados');
    expect(stages(el)).to.deep.equal({
      names: ['Consentimento', 'Dados', 'Documento', 'Selfie', 'Revisão'],
      current: 'Consentimento',
      done: 0,
    });
    expect(root(el).querySelector('[part~=stages]')!.getAttribute('aria-label')).to.equal('Etapas');
    await passConsent(el);
    expect(stages(el).current).to.equal('Dados');
    expect(root(el).querySelector('[aria-live=polite]')!.textContent).to.contain('Etapa 2 de 5: Seu CPF');
    await passCpf(el, CPF.approved);
    expect(stages(el).current).to.equal('Dados');
    await chooseType(el, 'CNH');
    expect(heading(el).textContent).to.equal('Frente da CNH');
    expect(stages(el)).to.include({ current: 'Documento · lado 1 de 2', done: 2 });
    expect(root(el).activeElement).to.equal(heading(el));
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    expect(heading(el).textContent).to.equal('Verso da CNH');
    expect(stages(el).current).to.equal('Documento · lado 2 de 2');
    expect(root(el).querySelector('[aria-live=polite]')!.textContent).to.contain('Etapa 3 de 5: Verso da CNH');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    expect(stages(el)).to.include({ current: 'Selfie', done: 3 });
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    expect(stages(el)).to.include({ current: 'Revisão', done: 4 });
    await expect(el).to.be.accessible();
    // Integrators still see every step name they knew.
    expect(events.filter((e) => e.type === 'onboarding-step-change').map((e) => e.detail.step)).to.deep.equal([
      'consent',
      'cpf',
      'document-type',
      'document-front',
      'document-back',
      'selfie',
      'review',
    ]);
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    expect(root(el).querySelector('[part~=stages]')).to.equal(null);
  });

  it('short capture headings per document type and locale', async function () {
    this.timeout(60_000);
    for (const [locale, type, front, back] of [
      ['en', 'RG', 'RG front', 'RG back'],
      ['es', 'CNH', 'Frente de la CNH', 'Dorso de la CNH'],
      ['pt-BR', 'RG', 'Frente do RG', 'Verso do RG'],
    ] as const) {
      const { el } = await mount({ locale });
      await passConsent(el);
      await passCpf(el, CPF.approved);
      await chooseType(el, type);
      expect(heading(el).textContent, locale).to.equal(front);
      await pickFile(el, await photoFor(el));
      await click(el, { en: 'Use this photo', es: 'Usar esta foto', 'pt-BR': 'Usar esta foto' }[locale]);
      await waitForStep(el, 'document-back');
      expect(heading(el).textContent, locale).to.equal(back);
      el.remove();
    }
  });

  it('consent: a short summary, the full text behind "Ler detalhes", still required before going on', async () => {
    const { el } = await mount();
    await passIntro(el);
    await viewport(el, 'phone');
    const details = root(el).querySelector('details')!;
    const summary = details.querySelector('summary')!;
    expect(summary.textContent!.trim()).to.equal('Ler detalhes');
    expect(details.open).to.equal(false);
    // What is collected and why, that the selfie is biometric data and who collects it, once the
    // full text is here; how long and the person's rights folded away.
    await waitFor(() => root(el).querySelectorAll('.consent-summary li').length === 4, 'the consent summary');
    expect([...root(el).querySelectorAll('.consent-summary li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal([
      ptBR.consent.what,
      ptBR.consent.why,
      consentText['pt-BR'].biometricShort,
      consentText['pt-BR'].controller(null),
    ]);
    // The full text loads beside the element and stays folded away: the summary, checkbox and
    // Continue fit on a phone's first screen.
    await waitFor(() => details.textContent!.includes('Seus direitos'), 'the full consent text');
    const cont = button(el, 'Continuar');
    expect(aboveTheFold(cont, 844), 'Continuar below the fold').to.equal(true);
    await expect(el).to.be.accessible();
    await shot('path-consent-390');

    await click(el, 'Continuar');
    expect(stepOf(el)).to.equal('consent');
    expect(root(el).querySelector('#consent-error')!.textContent).to.contain('marque a caixa');

    summary.click();
    await el.updateComplete;
    expect(details.open).to.equal(true);
    expect(root(el).querySelector('h3')!.getBoundingClientRect().height).to.be.above(0);
    await expect(el).to.be.accessible();
    await viewport(el, 'laptop');
    await shot('path-consent-details-1366');
    await passConsent(el);
  });

  it('review: the photos side by side, each with a retake link that comes back to the review; Enviar on the first screen of a phone', async function () {
    this.timeout(90_000);
    const { el } = await mount();
    await viewport(el, 'phone');
    await passConsent(el);
    await shot('path-data-390');
    await reachReviewWithFilesFromCpf(el);
    const thumbs = [...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')];
    expect(thumbs).to.have.length(3);
    const tops = thumbs.map((t) => Math.round(t.getBoundingClientRect().top));
    expect(new Set(tops).size, `thumbnail tops ${tops.join(',')}`).to.equal(1);
    const names = [...root(el).querySelectorAll('.thumbs li')].map((li) =>
      li.textContent!.replace(li.querySelector('button')!.textContent!, '').trim(),
    );
    expect(names).to.deep.equal(['Frente da CNH', 'Verso da CNH', 'Selfie']);
    const send = button(el, 'Enviar');
    expect(aboveTheFold(send, 844), 'Enviar below the fold').to.equal(true);
    await expect(el).to.be.accessible();
    await thumbnailsShown(el);
    await shot('path-review-390');

    const before = thumbs.map((t) => t.src);
    const retake = root(el).querySelector<HTMLButtonElement>('[part~=retake][data-retake=documentBack]')!;
    expect(retake.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Refazer: Verso do documento');
    retake.click();
    await waitForStep(el, 'document-back');
    expect(root(el).activeElement).to.equal(heading(el));
    await pickFile(el, await cardJpeg('back-again.jpg'));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    const after = [...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((t) => t.src);
    expect(after[0]).to.equal(before[0]);
    expect(after[1]).to.not.equal(before[1]);
    expect(after[2]).to.equal(before[2]);

    await viewport(el, 'laptop');
    expect(aboveTheFold(button(el, 'Enviar'), 768), 'Enviar below the fold').to.equal(true);
    await thumbnailsShown(el);
    await shot('path-review-1366');
  });

  it('where the page cannot open the camera, a separate "use the camera app" picker appears; the gallery picker has no capture', async function () {
    this.timeout(60_000);
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    // A camera the page can open: only the gallery picker.
    expect(root(el).querySelectorAll('input[type=file]').length).to.equal(1);
    expect(root(el).querySelector('input[type=file]')!.hasAttribute('capture')).to.equal(false);

    const mediaDevices = navigator.mediaDevices;
    mediaDevices.getUserMedia = undefined as unknown as GetUserMedia;
    // A phone: its pointer is coarse (a desktop is never offered a camera app).
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) =>
      query === '(pointer: coarse)' ? ({ matches: true } as MediaQueryList) : matchMedia.call(window, query);
    try {
      const { el: bare } = await mount();
      await passConsent(bare);
      await passCpf(bare, CPF.approved);
      await chooseType(bare, 'CNH');
      // No camera the page can open: picking a file leads, and opening the camera is not offered.
      expect(root(bare).querySelector('[part~=button-primary]')!.textContent!.trim()).to.equal('Escolher uma foto dos arquivos');
      expect(root(bare).querySelector('[data-capture-start]')).to.equal(null);
      const app = root(bare).querySelector<HTMLInputElement>('input[type=file][data-camera-app]')!;
      expect(app.getAttribute('capture')).to.equal('environment');
      expect(app.accept).to.equal('image/*');
      expect(app.closest('label')!.getAttribute('part')).to.equal('button button-link camera-app');
      await expect(bare).to.be.accessible();
      await pickFile(bare, await photoFor(bare));
      await click(bare, 'Usar esta foto');
      await waitForStep(bare, 'document-back');
      await pickFile(bare, await photoFor(bare));
      await click(bare, 'Usar esta foto');
      await waitForStep(bare, 'selfie');
      expect(root(bare).querySelector('input[type=file][data-camera-app]')!.getAttribute('capture')).to.equal('user');
    } finally {
      delete (mediaDevices as Partial<MediaDevices>).getUserMedia;
      window.matchMedia = matchMedia;
    }
  });
});

/** From the CPF step to the review with CNH photos picked from files. */
async function reachReviewWithFilesFromCpf(el: OnboardingFlow): Promise<void> {
  await passCpf(el, CPF.approved);
  await chooseType(el, 'CNH');
  for (const step of ['document-front', 'document-back', 'selfie']) {
    await waitForStep(el, step);
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
  }
  await waitForStep(el, 'review');
}
