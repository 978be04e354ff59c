/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import { CPF, cleanupListeners, heading, mount, preview, root, stepOf, waitFor, waitForStep } from './test-helpers.js';

afterEach(() => cleanupListeners());

const active = (el: OnboardingFlow): Element | null => root(el).activeElement;
const label = (node: Element | null): string => (node?.textContent ?? '').trim();

async function press(key: string): Promise<void> {
  await sendKeys({ press: key });
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

describe('<onboarding-flow> keyboard only', () => {
  it('walks consent, CPF (with a check-digit error), type, photos and upload with the keyboard alone', async function () {
    this.timeout(120_000);
    const { el } = await mount();
    el.start();
    await el.updateComplete;
    expect(active(el)).to.equal(heading(el));

    // Consent: Tab to the box, Space ticks it; Continue with Enter.
    await press('Tab');
    expect(active(el)?.id).to.equal('consent');
    await press('Space');
    expect(root(el).querySelector<HTMLInputElement>('#consent')!.checked).to.equal(true);
    await press('Tab');
    expect(label(active(el))).to.equal('Agora não');
    await press('Tab');
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
        const v = root(el).querySelector('video');
        return !!v && v.videoWidth > 0;
      }, 'camera never went live');
      await el.updateComplete;
      // The open-camera button was replaced: focus moved to the new main action, not lost.
      expect(label(active(el))).to.equal('Tirar foto');
      await press('Enter');
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
    await waitForStep(el, 'consent');
    expect(active(el)).to.equal(heading(el));
  });

  it('focus is visible on every control', async () => {
    const { el } = await mount();
    el.start();
    await el.updateComplete;
    await press('Tab');
    const box = active(el) as HTMLElement;
    expect(getComputedStyle(box).outlineStyle).to.not.equal('none');
    await tabTo(el, buttonNamed('Continuar'), 'Continuar');
    const btn = active(el) as HTMLElement;
    expect(getComputedStyle(btn).outlineStyle).to.equal('solid');
    expect(parseFloat(getComputedStyle(btn).outlineWidth)).to.be.at.least(2);
    expect(btn.getBoundingClientRect().height).to.be.at.least(24);
    expect(box.getBoundingClientRect().height).to.be.at.least(24);
  });
});
