/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { consentText } from '../messages/consent-text.js';
import { en, es, ptBR, type Messages } from '../messages/index.js';
import {
  CPF,
  cleanupListeners,
  click,
  heading,
  isRevoked,
  mount,
  openCamera,
  passConsent,
  passIntro,
  reachReviewWithFiles,
  realRecord,
  root,
  stepOf,
  text,
  typeInto,
  waitFor,
  waitForStep,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

type Tree = { [key: string]: unknown };
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') return [[path, value]];
    if (typeof value === 'function') return [[path, String((value as (...a: unknown[]) => unknown)('X', 1, 2))]];
    return leaves(value as Tree, path);
  });
}

describe('<onboarding-flow> locales', () => {
  for (const [locale, catalog] of [
    ['en', en],
    ['es', es],
  ] as ['en' | 'es', Messages][]) {
    it(`${locale}: complete catalog, rendered in ${locale}`, async function () {
      this.timeout(30_000);
      const keys = leaves(ptBR).map(([k]) => k);
      const entries = leaves(catalog);
      expect(entries.map(([k]) => k)).to.have.members(keys);
      for (const [key, value] of entries) expect(value.trim(), key).to.not.equal('');

      const { el } = await mount({ locale });
      expect(root(el).querySelector('[part=base]')!.getAttribute('lang')).to.equal(locale);
      // The intro, then the consent.
      expect(heading(el).textContent).to.equal(catalog.intro.heading);
      expect(heading(el).textContent).to.not.equal(ptBR.intro.heading);
      for (const part of [catalog.intro.time, catalog.intro.needCpf, catalog.intro.needLight, catalog.intro.photosTitle])
        expect(text(el)).to.contain(part);
      await click(el, catalog.intro.start);
      await waitForStep(el, 'consent');
      expect(heading(el).textContent).to.equal(catalog.consent.heading);
      expect(heading(el).textContent).to.not.equal(ptBR.consent.heading);
      for (const part of [catalog.consent.what, catalog.consent.why, catalog.consent.agree]) expect(text(el)).to.contain(part);
      // The full text behind "Ler detalhes" loads beside the element, in the same language.
      const full = consentText[locale];
      expect(Object.keys(full)).to.have.members(Object.keys(consentText['pt-BR']));
      const shown = (part: string | ((controller: string | null) => string)) => (typeof part === 'function' ? part(null) : part);
      await waitFor(() => text(el).includes(full.rights(null)), 'the full consent text');
      // No controller is named and no policy linked here: the consent says so (consent.test.ts names one).
      for (const [key, part] of Object.entries(full)) if (key !== 'privacy') expect(text(el)).to.contain(shown(part));
      expect(text(el)).to.not.contain(consentText['pt-BR'].rights(null));
      // The consent error, the CPF step and its specific check-digit message in this language.
      await click(el, catalog.flow.continue);
      expect(root(el).querySelector('#consent-error')!.textContent).to.equal(catalog.consent.required);
      root(el).querySelector<HTMLInputElement>('#consent')!.click();
      await el.updateComplete;
      await click(el, catalog.flow.continue);
      await waitForStep(el, 'cpf');
      expect(heading(el).textContent).to.equal(catalog.cpf.heading);
      await typeInto(root(el).querySelector<HTMLInputElement>('#cpf')!, '52998224724');
      await click(el, catalog.flow.continue);
      expect(root(el).querySelector('#cpf-error')!.textContent).to.equal(catalog.cpf.errorCheckDigits);
      expect(catalog.cpf.errorCheckDigits).to.not.equal(ptBR.cpf.errorCheckDigits);
      await expect(el).to.be.accessible();
      // Switching the locale re-renders in place.
      el.locale = 'pt-BR';
      await el.updateComplete;
      expect(heading(el).textContent).to.equal(ptBR.cpf.heading);
    });
  }

  it('an unknown locale falls back to pt-BR', async () => {
    const { el } = await mount({ locale: 'fr-FR' });
    expect(heading(el).textContent).to.equal(ptBR.intro.heading);
  });
});

describe('<onboarding-flow> API', () => {
  it('prefills the CPF (masked) and name, and validates the CPF with specific messages', async () => {
    const { el } = await mount({ cpf: '52998224725' });
    el.name = 'João da Silva';
    await el.updateComplete;
    await passConsent(el);
    expect(root(el).querySelector<HTMLInputElement>('#cpf')!.value).to.equal(CPF.approved);
    expect(root(el).querySelector<HTMLInputElement>('#name')!.value).to.equal('João da Silva');
    const cpf = root(el).querySelector<HTMLInputElement>('#cpf')!;
    for (const [value, message] of [
      ['', ptBR.cpf.errorEmpty],
      ['529.98', ptBR.cpf.errorIncomplete],
      ['111.111.111-11', ptBR.cpf.errorCheckDigits],
    ] as const) {
      await typeInto(cpf, value);
      await click(el, 'Continuar');
      expect(root(el).querySelector('#cpf-error')!.textContent).to.equal(message);
    }
    await typeInto(cpf, CPF.approved);
    await typeInto(root(el).querySelector<HTMLInputElement>('#name')!, 'Maria <script>');
    await click(el, 'Continuar');
    expect(root(el).querySelector('#name-error')!.textContent).to.equal(ptBR.cpf.errorName);
    expect(stepOf(el)).to.equal('cpf');
  });

  it('the intro and the consent step capture nothing and Not now fires onboarding-cancel', async () => {
    const { el, events } = await mount();
    expect(root(el).querySelector('video, input[type=file]')).to.equal(null);
    await passIntro(el);
    expect(root(el).querySelector('video, input[type=file]')).to.equal(null);
    events.length = 0;
    await click(el, 'Agora não');
    expect(events.map((e) => [e.type, e.detail])).to.deep.equal([['onboarding-cancel', { step: 'consent' }]]);
  });

  it('reset() stops the camera, revokes every photo and clears all state', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount({ companion: 'real' });
    await reachReviewWithFiles(el, CPF.approved);
    const urls = [...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((i) => i.src);
    expect(await isRevoked(urls[0]!)).to.equal(false);
    await click(el, 'Refazer: Selfie');
    await waitForStep(el, 'selfie');
    const video = await openCamera(el);
    const stream = video.srcObject as MediaStream;
    expect(stream.getVideoTracks()[0]!.readyState).to.equal('live');

    el.reset();
    await el.updateComplete;
    expect(stream.getVideoTracks()[0]!.readyState).to.equal('ended');
    expect(stepOf(el)).to.equal('intro');
    expect(events.at(-1)!.detail).to.deep.equal({ step: 'intro', previous: 'selfie' });
    for (const url of urls) expect(await isRevoked(url), url).to.equal(true);
    await passIntro(el);
    expect(root(el).querySelector<HTMLInputElement>('#consent')!.checked).to.equal(false);
    await passConsent(el);
    expect(root(el).querySelector<HTMLInputElement>('#cpf')!.value).to.equal('');
    // Nothing went to the companion.
    expect((await realRecord(ns)).requests).to.deep.equal([]);
  });

  it('start() after an outcome begins again with nothing left of the last run', async function () {
    this.timeout(90_000);
    const { el } = await mount({ companion: 'real' });
    await reachReviewWithFiles(el, CPF.approved);
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    el.start();
    await el.updateComplete;
    expect(stepOf(el)).to.equal('intro');
    expect(root(el).activeElement).to.equal(heading(el));
    expect(text(el)).to.not.contain('Identidade verificada');
    await passConsent(el);
    expect(root(el).querySelector<HTMLInputElement>('#cpf')!.value).to.equal('');
  });

  it('announces step changes in a polite live region', async () => {
    const { el } = await mount();
    await passConsent(el);
    const live = root(el).querySelector('[aria-live=polite]')!;
    expect(live.getAttribute('role')).to.equal('status');
    expect(live.textContent).to.contain('Etapa 2 de 5: Seu CPF');
  });
});
