/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * Before the camera opens, each capture step shows a drawing of what to photograph (the chosen
 * document's side, or the selfie's framing) and three tips, above the step's actions: the drawing
 * hidden from assistive technology, the tips a list it reads, in the element's language.
 * Screenshots of CNH front, RG back, CIN front and the selfie at a phone's and a laptop's size,
 * in the default colours and in a dark theme set through the custom properties.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  chooseType,
  cleanupListeners,
  click,
  heading,
  mount,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  errorText,
  root,
  stepOf,
  waitForStep,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  document.body.style.background = '';
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

const TIPS = {
  'pt-BR': {
    document: ['Tire o documento da capa plástica', 'Os quatro cantos dentro da moldura', 'Sem reflexos: não use o flash'],
    selfie: ['Luz boa à sua frente', 'Sem boné, chapéu ou óculos', 'Olhe direto para a câmera'],
  },
  en: {
    document: ['Take it out of its plastic cover', 'All four corners inside the frame', 'No glare: keep the flash off'],
    selfie: ['Good light in front of you', 'No cap, hat or glasses', 'Look straight at the camera'],
  },
  es: {
    document: ['Sácalo de la funda de plástico', 'Las cuatro esquinas dentro del marco', 'Sin reflejos: no uses el flash'],
    selfie: ['Buena luz delante de ti', 'Sin gorra, sombrero ni gafas', 'Mira directo a la cámara'],
  },
} as const;

/** A dark theme as an integrator sets one: the element's colour properties only. */
const DARK = {
  '--onboarding-color-primary': '#8ab4f8',
  '--onboarding-color-on-primary': '#0b1a33',
  '--onboarding-color-text': '#e8eaed',
  '--onboarding-color-muted': '#b8bec8',
  '--onboarding-color-bg': '#16191e',
  '--onboarding-color-surface': '#242932',
  '--onboarding-color-border': '#8a93a0',
  '--onboarding-color-error': '#f2b8b5',
  '--onboarding-color-success': '#7fd29b',
};

const picture = (el: OnboardingFlow): SVGSVGElement | null => root(el).querySelector('svg[part~=capture-picture]');
const tips = (el: OnboardingFlow): string[] =>
  [...root(el).querySelectorAll('ul[part~=capture-tips] > li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());

/** What a capture step shows before the camera: the drawing `key`, then the tips, above the actions. */
async function expectIntro(el: OnboardingFlow, key: string, expectedTips: readonly string[]): Promise<void> {
  const svg = picture(el);
  expect(svg, `no drawing on ${stepOf(el)}`).to.exist;
  expect(svg!.getAttribute('data-drawing')).to.equal(key);
  expect(svg!.getAttribute('aria-hidden')).to.equal('true');
  expect(svg!.closest('[aria-hidden=true]')).to.equal(svg);
  // Drawn: a visible box of the card's proportions, with strokes in it.
  const box = svg!.getBoundingClientRect();
  expect(box.width).to.be.at.least(150);
  expect(box.height / box.width).to.be.closeTo(116 / 176, 0.08);
  expect(svg!.querySelectorAll('path, rect, circle, ellipse').length).to.be.at.least(3);
  expect(getComputedStyle(svg!).stroke).to.not.equal('none');
  expect(tips(el)).to.deep.equal([...expectedTips]);
  const list = root(el).querySelector('ul[part~=capture-tips]')!;
  expect(list.closest('[aria-hidden=true]')).to.equal(null);
  // Both before the actions: in the body, above the row of buttons.
  const actions = root(el).querySelector('[part~=actions]')!.getBoundingClientRect();
  expect(Math.round(box.bottom)).to.be.at.most(Math.round(actions.top));
  expect(Math.round(list.getBoundingClientRect().bottom)).to.be.at.most(Math.round(actions.top));
  expect(root(el).querySelector('onboarding-capture-view[open]'), 'the camera is not open yet').to.equal(null);
  await expect(el).to.be.accessible();
  if (el.locale === 'pt-BR') await executeServerCommand('screenshot', { name: `capture-intro-${key}` });
}

/** Takes this step's photo from a file and goes on to `next`. */
async function photoAndOn(el: OnboardingFlow, next: string): Promise<void> {
  await pickFile(el, await photoFor(el));
  expect(preview(el), errorText(el)).to.exist;
  // The accepted photo replaces the drawing.
  expect(picture(el)).to.equal(null);
  await click(el, 'Usar esta foto');
  await waitForStep(el, next);
}

async function toFront(type: string, locale = 'pt-BR'): Promise<OnboardingFlow> {
  const { el } = await mount({ documentTypes: 'CNH,RG,CIN,PASSPORT,RNE', locale });
  await passConsent(el);
  await passCpf(el, CPF.approved);
  await chooseType(el, type);
  return el;
}

async function screenshots(el: OnboardingFlow, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    for (const [size, width, height] of [
      ['390', 390, 844],
      ['1366', 1366, 768],
    ] as const) {
      if (currentEngine() === 'webkit') el.style.width = size === '390' ? '390px' : '';
      else await setViewport({ width, height });
      await el.updateComplete;
      expect(document.scrollingElement!.scrollWidth, `sideways scroll at ${size}`).to.be.at.most(document.documentElement.clientWidth);
      const svg = picture(el)!.getBoundingClientRect();
      const body = root(el).querySelector('[part~=body]')!.getBoundingClientRect();
      expect(svg.left).to.be.at.least(body.left - 1);
      expect(svg.right).to.be.at.most(body.right + 1);
      const path = await executeServerCommand<string, { name: string }>('screenshot', { name: `capture-intro-${name}-${theme}-${size}` });
      console.log(`${name} (${theme}) @ ${size}: ${path}`);
    }
    for (const [property, value] of Object.entries(DARK)) el.style.setProperty(property, value);
    document.body.style.background = DARK['--onboarding-color-bg'];
    await el.updateComplete;
    // The drawing follows the theme: it is stroked in the primary colour, whatever that is.
    expect(getComputedStyle(picture(el)!).color).to.equal('rgb(138, 180, 248)');
  }
  for (const property of Object.keys(DARK)) el.style.removeProperty(property);
  document.body.style.background = '';
  el.style.width = '';
}

describe('<onboarding-flow> capture steps before the camera: a drawing and three tips', () => {
  it('CNH: the front, the back with its QR code, then the selfie in its oval; screenshots', async function () {
    this.timeout(120_000);
    const el = await toFront('CNH');
    expect(heading(el).textContent).to.equal('Frente da CNH');
    await expectIntro(el, 'CNH-front', TIPS['pt-BR'].document);
    expect(picture(el)!.querySelector('.photo'), 'the front has the portrait').to.exist;
    expect(picture(el)!.querySelector('.qr'), 'the front has no QR code').to.equal(null);
    await screenshots(el, 'cnh-front');

    await photoAndOn(el, 'document-back');
    await expectIntro(el, 'CNH-back', TIPS['pt-BR'].document);
    expect(picture(el)!.querySelector('.qr'), 'the 2022 back has its QR code').to.exist;
    expect(picture(el)!.querySelector('.photo')).to.equal(null);

    await photoAndOn(el, 'selfie');
    await expectIntro(el, 'selfie', TIPS['pt-BR'].selfie);
    expect(picture(el)!.querySelector('ellipse.oval'), 'the selfie has its oval').to.exist;
    await screenshots(el, 'selfie');

    // Back to the document's back: its drawing again, not the selfie's.
    await click(el, 'Voltar');
    await waitForStep(el, 'document-back');
  });

  it('RG: the photo side, then the data side; screenshots of the back', async function () {
    this.timeout(90_000);
    const el = await toFront('RG');
    expect(heading(el).textContent).to.equal('Frente do RG');
    await expectIntro(el, 'RG-front', TIPS['pt-BR'].document);
    expect(picture(el)!.querySelector('.photo')).to.exist;
    await photoAndOn(el, 'document-back');
    expect(heading(el).textContent).to.equal('Verso do RG');
    await expectIntro(el, 'RG-back', TIPS['pt-BR'].document);
    expect(picture(el)!.querySelector('.photo')).to.equal(null);
    expect(picture(el)!.innerHTML).to.not.equal('');
    await screenshots(el, 'rg-back');
  });

  it('CIN: the front with its portrait, the back with its QR code and three machine-readable lines; screenshots of the front', async function () {
    this.timeout(90_000);
    const el = await toFront('CIN');
    expect(heading(el).textContent).to.equal('Frente da CIN');
    await expectIntro(el, 'CIN-front', TIPS['pt-BR'].document);
    expect(picture(el)!.querySelector('.photo')).to.exist;
    expect(picture(el)!.querySelector('.mrz')).to.equal(null);
    await screenshots(el, 'cin-front');
    await photoAndOn(el, 'document-back');
    expect(heading(el).textContent).to.equal('Verso da CIN');
    await expectIntro(el, 'CIN-back', TIPS['pt-BR'].document);
    expect(picture(el)!.querySelector('.qr')).to.exist;
    const mrz = picture(el)!.querySelector('path.mrz')!;
    expect(mrz.getAttribute('d')!.match(/M/g)).to.have.length(3);
  });

  it('each document type has its own drawing: a passport its photo page, any other type a generic card', async function () {
    this.timeout(90_000);
    const seen = new Map<string, string>();
    for (const [type, key] of [
      ['CNH', 'CNH-front'],
      ['RG', 'RG-front'],
      ['CIN', 'CIN-front'],
      ['PASSPORT', 'PASSPORT-front'],
      ['RNE', 'card-front'],
    ] as const) {
      const el = await toFront(type);
      await expectIntro(el, key, TIPS['pt-BR'].document);
      seen.set(key, picture(el)!.innerHTML.replace(/<!--[^>]*-->/g, ''));
      el.remove();
    }
    expect(new Set(seen.values()).size).to.equal(5);
  });

  for (const locale of ['en', 'es'] as const) {
    it(`the tips in ${locale}`, async function () {
      this.timeout(60_000);
      const el = await toFront('RG', locale);
      await expectIntro(el, 'RG-front', TIPS[locale].document);
      expect(root(el).textContent).to.not.contain(TIPS['pt-BR'].document[0]);
    });
  }

  it('the drawing and the tips come after the guide line, last in the body', async function () {
    this.timeout(60_000);
    const el = await toFront('CNH');
    await expectIntro(el, 'CNH-front', TIPS['pt-BR'].document);
    const body = root(el).querySelector('[part~=body]')!;
    const intro = body.querySelector('.capture-intro')!;
    expect(body.firstElementChild!.compareDocumentPosition(intro) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(body.lastElementChild).to.equal(intro);
  });
});
