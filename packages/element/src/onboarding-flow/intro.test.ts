/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The intro, the flow's first screen: what the person needs and how long it takes, in each
 * locale; a picture of each photo; its heading focused and announced like any step's; its one
 * button (by mouse or keyboard) leads to the consent. Screenshots at a phone's and a laptop's size.
 */
import { currentEngine, NOT_IN, skipIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  START_LABEL,
  button,
  cleanupListeners,
  click,
  heading,
  mount,
  passIntro,
  root,
  stepOf,
  text,
  waitForStep,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

const live = (el: OnboardingFlow): string => root(el).querySelector('[aria-live=polite]')!.textContent!;
const items = (el: OnboardingFlow, part: string): string[] =>
  [...root(el).querySelectorAll(`[part~=${part}] > li`)].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());

const EXPECTED = {
  'pt-BR': {
    heading: 'Antes de começar',
    time: 'Leva cerca de 2 minutos.',
    needs: [
      'Seu CPF',
      'Um documento de identidade com foto: CNH ou RG',
      'Um lugar bem iluminado',
      'Uma câmera, ou fotos do documento e do seu rosto',
    ],
    photos: ['Frente do documento', 'Verso do documento', 'Selfie'],
    consent: 'Uso dos seus dados',
    step1: 'Etapa 1 de 5: Uso dos seus dados.',
  },
  en: {
    heading: 'Before you start',
    time: 'It takes about 2 minutes.',
    needs: [
      'Your CPF',
      'An identity document with a photo: CNH or RG',
      'A well-lit place',
      'A camera, or photos of your document and your face',
    ],
    photos: ['Front of the document', 'Back of the document', 'Selfie'],
    consent: 'How your data is used',
    step1: 'Step 1 of 5: How your data is used.',
  },
  es: {
    heading: 'Antes de empezar',
    time: 'Toma unos 2 minutos.',
    needs: [
      'Su CPF',
      'Un documento de identidad con foto: CNH o RG',
      'Un lugar bien iluminado',
      'Una cámara, o fotos de su documento y de su rostro',
    ],
    photos: ['Frente del documento', 'Dorso del documento', 'Selfi'],
    consent: 'Uso de sus datos',
    step1: 'Paso 1 de 5: Uso de sus datos.',
  },
} as const;

describe('<onboarding-flow> intro', () => {
  for (const [locale, t] of Object.entries(EXPECTED)) {
    it(`${locale}: what is needed, how long, a picture of each photo, one button to the consent (focused and announced)`, async function () {
      this.timeout(30_000);
      const { el, events } = await mount({ locale });
      expect(stepOf(el)).to.equal('intro');
      expect(heading(el).textContent).to.equal(t.heading);
      expect(text(el)).to.contain(t.time);
      expect(items(el, 'intro-needs')).to.deep.equal(t.needs);
      expect(items(el, 'intro-photos')).to.deep.equal(t.photos);
      // Each picture is drawn inline, hidden from assistive technology (its caption names it); no image is fetched.
      const pictures = [...root(el).querySelectorAll('[part~=intro-photos] svg')];
      expect(pictures).to.have.length(3);
      for (const svg of pictures) {
        expect(svg.getAttribute('aria-hidden')).to.equal('true');
        expect(svg.getBoundingClientRect().width).to.be.above(24);
      }
      expect(root(el).querySelector('img, video, input')).to.equal(null);
      // Nothing has been done yet: no list of steps, and the one button is the main one.
      expect(root(el).querySelector('[part~=stages]')).to.equal(null);
      const buttons = [...root(el).querySelectorAll('button')];
      expect(buttons.map((b) => b.textContent!.trim())).to.deep.equal([START_LABEL[locale]]);
      expect(buttons[0]!.getAttribute('part')).to.equal('button button-primary');
      await expect(el).to.be.accessible();

      // Started by the page: the heading takes focus and is announced (by its name: it is no numbered step).
      el.start();
      await el.updateComplete;
      expect(root(el).activeElement).to.equal(heading(el));
      expect(live(el)).to.equal(`${t.heading}.`);
      await click(el, START_LABEL[locale]!);
      await waitForStep(el, 'consent');
      expect(heading(el).textContent).to.equal(t.consent);
      expect(root(el).activeElement).to.equal(heading(el));
      expect(live(el)).to.equal(t.step1);
      expect(root(el).querySelector('[aria-current=step]')!.textContent!.trim()).to.equal(
        { 'pt-BR': 'Consentimento', en: 'Consent', es: 'Consentimiento' }[locale],
      );
      expect(events.filter((e) => e.type === 'onboarding-step-change').map((e) => e.detail)).to.deep.equal([
        { step: 'consent', previous: 'intro' },
      ]);
    });
  }

  it('names the documents offered, and pictures no back side when none of them has one', async () => {
    const { el } = await mount({ documentTypes: 'CNH,RG,PASSPORT' });
    expect(items(el, 'intro-needs')[1]).to.equal('Um documento de identidade com foto: CNH, RG ou Passaporte');
    expect(items(el, 'intro-photos')).to.deep.equal(['Frente do documento', 'Verso do documento', 'Selfie']);
    el.documentTypes = 'PASSPORT';
    await el.updateComplete;
    expect(items(el, 'intro-needs')[1]).to.equal('Um documento de identidade com foto: Passaporte');
    expect(items(el, 'intro-photos')).to.deep.equal(['Frente do documento', 'Selfie']);
    expect(root(el).querySelectorAll('[part~=intro-photos] svg')).to.have.length(2);
  });

  it('starting again (start()) comes back to it, and the consent given before is asked again', async function () {
    this.timeout(30_000);
    const { el } = await mount();
    await passIntro(el);
    root(el).querySelector<HTMLInputElement>('#consent')!.click();
    await el.updateComplete;
    el.start();
    await el.updateComplete;
    expect(stepOf(el)).to.equal('intro');
    await passIntro(el);
    expect(root(el).querySelector<HTMLInputElement>('#consent')!.checked).to.equal(false);
  });

  skipIn(['webkit'], NOT_IN.keyboard)(
    'keyboard only: Tab reaches the button, with a focus outline; Enter goes to the consent',
    async function () {
      this.timeout(30_000);
      const { el } = await mount();
      el.start();
      await el.updateComplete;
      expect(root(el).activeElement).to.equal(heading(el));
      await sendKeys({ press: 'Tab' });
      const start = button(el, 'Começar');
      expect(root(el).activeElement).to.equal(start);
      const style = getComputedStyle(start);
      expect(style.outlineStyle).to.not.equal('none');
      expect(parseFloat(style.outlineWidth)).to.be.at.least(2);
      expect(start.getBoundingClientRect().height).to.be.at.least(44);
      await sendKeys({ press: 'Enter' });
      await waitForStep(el, 'consent');
      expect(root(el).activeElement).to.equal(heading(el));
    },
  );

  it('fits a phone (390x844) with its button on the first screen, and a laptop (1366x768): screenshots', async function () {
    this.timeout(30_000);
    const { el } = await mount();
    for (const [size, width, height] of [
      ['390', 390, 844],
      ['1366', 1366, 768],
    ] as const) {
      if (currentEngine() === 'webkit') el.style.width = size === '390' ? '390px' : '';
      else await setViewport({ width, height });
      await el.updateComplete;
      const start = button(el, 'Começar').getBoundingClientRect();
      expect(start.bottom + window.scrollY, `the button below the fold at ${size}`).to.be.at.most(height);
      expect(document.scrollingElement!.scrollWidth, `sideways scroll at ${size}`).to.be.at.most(document.documentElement.clientWidth);
      // The three pictures side by side at both sizes, each as tall as the others.
      const boxes = [...root(el).querySelectorAll('[part~=intro-photos] > li')].map((li) => li.getBoundingClientRect());
      expect(new Set(boxes.map((b) => Math.round(b.top))).size, `pictures on one row at ${size}`).to.equal(1);
      const path = await executeServerCommand<string, { name: string }>('screenshot', { name: `intro-${size}` });
      console.log(`intro @ ${size}: ${path}`);
    }
  });
});
