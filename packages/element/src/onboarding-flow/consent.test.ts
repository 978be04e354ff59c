/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The consent names who collects the data (LGPD): the data controller from `controller-name`,
 * its privacy policy from `privacy-url` (a new tab that cannot reach back into the page), the
 * selfie as biometric data, why it is collected and how long it is kept. With no name given the
 * consent says so, never "the company running this site", and the integrator is warned once.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { consentText } from '../messages/consent-text.js';
import { ptBR } from '../messages/index.js';
import type { OnboardingFlow } from './onboarding-flow.js';
import { cleanupListeners, mount, passIntro, root, text, waitFor } from './test-helpers.js';

const warnings: string[] = [];
const warn = console.warn;
before(() => {
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
    warn.apply(console, args);
  };
});
after(() => {
  console.warn = warn;
});
afterEach(async () => {
  cleanupListeners();
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

async function viewport(el: OnboardingFlow, size: 'phone' | 'laptop'): Promise<void> {
  if (currentEngine() === 'webkit') el.style.width = size === 'phone' ? '390px' : '';
  else await setViewport(size === 'phone' ? { width: 390, height: 844 } : { width: 1366, height: 768 });
  await el.updateComplete;
}

async function shot(name: string): Promise<void> {
  console.log(`${name}: ${await executeServerCommand<string, { name: string }>('screenshot', { name })}`);
}

const pt = consentText['pt-BR'];
const summary = (el: OnboardingFlow): string[] =>
  [...root(el).querySelectorAll('.consent-summary li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());

/** Opens "Ler detalhes" once the full text is here. */
async function openDetails(el: OnboardingFlow, title: string): Promise<HTMLDetailsElement> {
  const details = root(el).querySelector('details')!;
  await waitFor(() => details.textContent!.includes(title), 'the full consent text');
  details.querySelector('summary')!.click();
  await el.updateComplete;
  return details;
}

async function toConsent(attrs: { controller?: string; privacy?: string; locale?: 'pt-BR' | 'en' | 'es' }): Promise<OnboardingFlow> {
  const { el } = await mount(attrs.locale ? { locale: attrs.locale } : {});
  if (attrs.controller !== undefined) el.setAttribute('controller-name', attrs.controller);
  if (attrs.privacy !== undefined) el.setAttribute('privacy-url', attrs.privacy);
  await passIntro(el);
  await waitFor(() => summary(el).length === 4, 'the consent names who collects the data');
  return el;
}

describe('<onboarding-flow> consent that names who collects what', () => {
  it('with no controller named: says none was given, never "A empresa deste site", and warns the integrator once', async function () {
    this.timeout(60_000);
    const el = await toConsent({});
    expect(summary(el)).to.include(pt.controller(null));
    expect(root(el).querySelector('.consent-summary a')).to.equal(null);
    const details = await openDetails(el, 'Seus direitos');
    expect(details.textContent).to.include('não informou o nome dele');
    expect(text(el)).to.not.include('A empresa deste site');
    expect(text(el)).to.not.include('seu provedor');
    const second = await toConsent({});
    expect(summary(second)).to.include(pt.controller(null));
    const ours = warnings.filter((w) => w.includes('controller-name'));
    expect(ours, warnings.join('\n')).to.have.length(1);

    await expect(el).to.be.accessible();
  });

  it('names the controller, links its privacy policy safely, says the selfie is biometric data, why and for how long', async function () {
    this.timeout(60_000);
    const el = await toConsent({ controller: 'Banco Exemplo S.A.', privacy: 'https://banco.example/privacidade' });
    await viewport(el, 'phone');
    expect(summary(el)).to.deep.equal([
      ptBR.consent.what,
      ptBR.consent.why,
      pt.biometricShort,
      `${pt.controller('Banco Exemplo S.A.')} ${pt.privacy}`,
    ]);
    expect(pt.biometricShort).to.include('dado biométrico').and.include('art. 11').and.include('titular do documento');
    const link = root(el).querySelector<HTMLAnchorElement>('.consent-summary a')!;
    expect(link.href).to.equal('https://banco.example/privacidade');
    expect(link.target).to.equal('_blank');
    expect(link.rel.split(/\s+/)).to.include.members(['noopener', 'noreferrer']);
    await expect(el).to.be.accessible();
    await shot('consent-controller-390');

    const details = await openDetails(el, 'Seus direitos');
    const full = details.textContent!.replace(/\s+/g, ' ');
    // The provider is the controller's, not the person's; the images' keeping is told as the kit does it.
    expect(full).to.include('Banco Exemplo S.A. é a controladora');
    expect(full).to.include('contratado por Banco Exemplo S.A.');
    expect(full).to.include('dado pessoal sensível (LGPD, art. 11)');
    expect(full).to.include('não guarda as imagens');
    expect(full).to.include('política de privacidade de Banco Exemplo S.A.');
    expect(full).to.include('falando com Banco Exemplo S.A.');
    expect(text(el)).to.not.include('A empresa deste site');
    expect(text(el)).to.not.include('seu provedor');
    expect(warnings.filter((w) => w.includes('controller-name'))).to.have.length(1);
    await expect(el).to.be.accessible();
    await viewport(el, 'laptop');
    await shot('consent-controller-details-1366');
  });

  it('says the same in English and Spanish', async function () {
    this.timeout(60_000);
    for (const [locale, rights] of [
      ['en', 'Your rights'],
      ['es', 'Sus derechos'],
    ] as const) {
      const m = consentText[locale];
      const el = await toConsent({ controller: 'Acme Ltda', privacy: 'https://acme.example/privacy', locale });
      expect(summary(el)).to.include(m.biometricShort);
      expect(summary(el)).to.include(`${m.controller('Acme Ltda')} ${m.privacy}`);
      const details = await openDetails(el, rights);
      expect(details.textContent).to.include(locale === 'en' ? 'provider Acme Ltda has engaged' : 'contratado por Acme Ltda');
      expect(details.textContent).to.include(locale === 'en' ? 'sensitive personal data' : 'dato personal sensible');
    }
  });

  it('never links an address that is not http(s)', async function () {
    this.timeout(60_000);
    const el = await toConsent({ controller: 'Acme Ltda', privacy: 'javascript:alert(1)' });
    expect(summary(el)).to.include(pt.controller('Acme Ltda'));
    expect(root(el).querySelector('.consent-summary a')).to.equal(null);
  });
});
