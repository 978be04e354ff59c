/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * A session with `prefillFromDocument`: the document comes first, then the CPF step offers what
 * the OCR read (the CPF masked, with a way to show it, and the name) to confirm or correct, and
 * where nothing could be read it says so and the person types the CPF. What the person confirms
 * is what the creation sends; the read is asked with the page secret and the photos as taken.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  cleanupListeners,
  click,
  doubleState,
  errorText,
  liveText,
  companionNamespace,
  mount,
  mountWithSession,
  realRecord,
  passIntro,
  photoFor,
  pickFile,
  root,
  stepOf,
  typeInto,
  waitFor,
  waitForStep,
  type DoubleControl,
} from '../onboarding-flow/test-helpers.js';

afterEach(() => cleanupListeners());

async function prefillSession(answer: DoubleControl['documentPrefill']) {
  return mountWithSession({ prefillFromDocument: true, documentTypes: ['CNH'] }, answer === undefined ? {} : { documentPrefill: answer });
}

const stages = (el: OnboardingFlow): string[] => [...root(el).querySelectorAll('[part~=stage]')].map((s) => s.textContent!.trim());
const currentStage = (el: OnboardingFlow): string => root(el).querySelector('[part~=stage-current]')!.textContent!.trim();
const cpfInput = (el: OnboardingFlow): HTMLInputElement | null => root(el).querySelector<HTMLInputElement>('#cpf');

/** Intro, consent, the document type, then both sides from files: ends on the CPF step. */
async function toCpf(el: OnboardingFlow): Promise<void> {
  await passIntro(el);
  root(el).querySelector<HTMLInputElement>('#consent')!.click();
  await el.updateComplete;
  await click(el, 'Continuar');
  await waitForStep(el, 'document-type');
  expect(currentStage(el)).to.equal('Documento');
  root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
  for (const step of ['document-front', 'document-back']) {
    await waitForStep(el, step);
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
  }
  await waitForStep(el, 'cpf');
}

/** Selfie from a file, then the review's send; resolves with the creation body the double received. */
async function sendFromSelfie(el: OnboardingFlow, ns: string) {
  await waitForStep(el, 'selfie');
  await pickFile(el, await photoFor(el));
  await click(el, 'Usar esta foto');
  await waitForStep(el, 'review');
  await click(el, 'Enviar');
  await waitFor(() => stepOf(el) === 'processing' || stepOf(el) === 'outcome', `never sent (at ${stepOf(el)})`);
  return (await doubleState(ns)).uploads[0]!.body;
}

describe('the CPF read from the document', () => {
  it('comes after the document, masked with a way to show it, and what is confirmed is sent', async function () {
    this.timeout(90_000);
    const { el, ns, secret } = await prefillSession({ cpf: '52998224725', name: 'MARIA DA SILVA' });
    await toCpf(el);
    expect(stages(el)).to.deep.equal(['Consentimento', 'Documento', 'Dados', 'Selfie', 'Revisão']);
    expect(currentStage(el)).to.equal('Dados');
    await waitFor(() => !!root(el).querySelector('[data-prefill-cpf]'), 'nothing read shown');
    const shown = () => root(el).querySelector('[data-prefill-cpf]')!.textContent!.trim();
    expect(shown()).to.equal('***.982.247-**');
    expect(root(el).querySelector('[data-prefill-name]')!.textContent).to.equal('MARIA DA SILVA');
    expect(liveText(el)).to.contain('confira o CPF e o nome');
    // Until corrected, the form stands aside: one question at a time.
    expect(cpfInput(el)).to.equal(null);
    await expect(el).to.be.accessible();
    const reveal = root(el).querySelector<HTMLButtonElement>('[aria-pressed]')!;
    reveal.click();
    await el.updateComplete;
    expect(reveal.getAttribute('aria-pressed')).to.equal('true');
    expect(shown()).to.equal('529.982.247-25');

    const [asked] = (await doubleState(ns)).prefillRequests;
    expect(asked!.authorization).to.equal(`Bearer ${secret}`);
    expect(asked!.body.documentType).to.equal('CNH');
    expect(Object.keys(asked!.body.images!).sort()).to.deep.equal(['documentBack', 'documentFront']);

    await click(el, 'Confirmar');
    const body = await sendFromSelfie(el, ns);
    expect(body.cpf).to.equal('529.982.247-25');
    expect(body.name).to.equal('MARIA DA SILVA');
    // The photos read are the photos sent.
    expect(body.images.documentFront).to.equal(asked!.body.images!.documentFront);
    expect((await doubleState(ns)).prefillRequests.length).to.equal(1);
  });

  it('is corrected in the usual CPF field, with its checks', async function () {
    this.timeout(90_000);
    const { el, ns } = await prefillSession({ cpf: '52998224725', name: 'MARIA DA SILVA' });
    await toCpf(el);
    await waitFor(() => !!root(el).querySelector('[data-prefill-cpf]'), 'nothing read shown');
    await click(el, 'Corrigir');
    await waitFor(() => el.shadowRoot!.activeElement === cpfInput(el), 'focus never reached the CPF field');
    expect(cpfInput(el)!.value).to.equal('529.982.247-25');
    expect(root(el).querySelector<HTMLInputElement>('#name')!.value).to.equal('MARIA DA SILVA');
    await typeInto(cpfInput(el)!, '111.111.111-12');
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await el.updateComplete;
    expect(errorText(el)).to.contain('dígitos verificadores');
    await typeInto(cpfInput(el)!, '111.444.777-35');
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    const body = await sendFromSelfie(el, ns);
    expect(body.cpf).to.equal('111.444.777-35');
  });

  it('where the document cannot be read, says so and lets the person type the CPF', async function () {
    this.timeout(90_000);
    const { el, ns } = await prefillSession(undefined);
    await toCpf(el);
    await waitFor(() => !!root(el).querySelector('[part~=document-prefill]') && !!cpfInput(el), 'no form after an unreadable document');
    expect(root(el).querySelector('[part~=document-prefill]')!.textContent).to.contain('Não conseguimos ler os dados do documento');
    expect(liveText(el)).to.contain('Não conseguimos ler os dados do documento');
    await expect(el).to.be.accessible();
    await typeInto(cpfInput(el)!, '529.982.247-25');
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    const body = await sendFromSelfie(el, ns);
    expect(body.cpf).to.equal('529.982.247-25');
  });

  it('where the read fails, says so plainly and Back leads to the document', async function () {
    this.timeout(90_000);
    const { el } = await prefillSession({ status: 503, error: { code: 'upstream_unavailable', message: 'The upstream is unavailable.' } });
    await toCpf(el);
    await waitFor(() => !!cpfInput(el), 'no form after a failed read');
    expect(root(el).querySelector('[part~=document-prefill]')!.textContent).to.contain('Não foi possível ler os dados do documento agora');
    root(el).querySelector<HTMLButtonElement>('[part~=back]')!.click();
    await waitForStep(el, 'document-back');
  });

  it('on the real companion and sandbox: the OCR of the photos is offered, and confirmed it is the creation', async function () {
    this.timeout(120_000);
    const session = await executeServerCommand<{ clientSecret: string }, Record<string, unknown>>('stack-session', {
      reference: `prefill-${companionNamespace()}`,
      checks: ['ocr'],
      prefillFromDocument: true,
    });
    const ns = companionNamespace();
    const { el } = await mount({ companion: 'real', ns, session: session.clientSecret, documentTypes: 'CNH' });
    await toCpf(el);
    await waitFor(() => !!root(el).querySelector('[data-prefill-cpf]'), 'nothing read shown', 30_000);
    root(el).querySelector<HTMLButtonElement>('[aria-pressed]')!.click();
    await el.updateComplete;
    const read = root(el).querySelector('[data-prefill-cpf]')!.textContent!.trim();
    expect(read).to.match(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    await click(el, 'Confirmar');
    await waitForStep(el, 'selfie');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitFor(() => stepOf(el) === 'processing' || stepOf(el) === 'outcome', `never sent (at ${stepOf(el)})`, 30_000);
    const [upload] = (await realRecord(ns)).uploads;
    expect(upload!.body.cpf).to.equal(read);
  });
});
