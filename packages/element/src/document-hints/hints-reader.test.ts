/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The hints from the reader itself: the test pictures of a CIN's back and a CNH's front go
 * through the real flow, the reader reads them, and the review says what it found.
 */
import { documentPictureFile } from '@onboarding-kit/testing/document-pictures';
import { expect } from '@open-wc/testing';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  CPF,
  chooseType,
  cleanupListeners,
  click,
  heading,
  mount,
  passConsent,
  passCpf,
  pickFile,
  preview,
  root,
  waitFor,
  waitForStep,
} from '../onboarding-flow/test-helpers.js';

afterEach(() => cleanupListeners());

const hints = (el: OnboardingFlow): string => root(el).querySelector('[part~=document-hints]')?.textContent ?? '';
const primary = (el: OnboardingFlow): string => root(el).querySelector('button[part~=button-primary]')?.textContent?.trim() ?? '';

describe('document hints from the reader', () => {
  it('a CIN back photographed as the front of a CNH: the switch to CIN, then the sides', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CNH,CIN' });
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    await pickFile(el, await documentPictureFile('cin-back', 'image/jpeg'));
    await waitFor(() => hints(el) !== '', 'the reader never gave a hint', 30_000);
    expect(hints(el)).to.contain('CIN (Carteira de Identidade Nacional)');
    expect(primary(el)).to.equal('Trocar para CIN');
    await click(el, 'Trocar para CIN');
    await waitFor(() => heading(el).textContent === 'Frente da CIN', `heading: ${heading(el).textContent}`);
    expect(preview(el)).to.not.equal(null);
    await waitFor(() => hints(el).includes('parece ser do verso'), `hints: ${hints(el)}`);
  });

  it('a CIN whose zone carries another CPF than the one typed; a CNH front says nothing', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CIN' });
    await passConsent(el);
    await passCpf(el, CPF.refused);
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitForStep(el, 'document-front');
    await pickFile(el, await documentPictureFile('cnh-front', 'image/jpeg'));
    // Read, and nothing found: nothing said (given the reader its time).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(hints(el)).to.equal('');
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await documentPictureFile('cin-back', 'image/jpeg'));
    await waitFor(() => hints(el) !== '', 'the reader never gave a hint', 30_000);
    expect(hints(el)).to.contain('diferente do CPF que você digitou');
    await click(el, 'Continuar mesmo assim');
    await waitForStep(el, 'selfie');
  });
});
