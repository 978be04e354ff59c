/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The proof-of-address step of a session that asks for it: after the selfie, a photo or a PDF
 * (told apart by its first bytes; anything else refused, a PDF over the limit too), its own
 * stage, the review with its retake, and `proofOfAddress` in the creation body.
 */
import { base64ToBytes, bytesToBase64, isPureBase64, sniffBytes } from '@onboarding-kit/contract';
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  CPF,
  cardJpeg,
  chooseType,
  cleanupListeners,
  click,
  doubleState,
  errorText,
  heading,
  liveText,
  companionNamespace,
  mount,
  mountWithSession,
  realRecord,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  root,
  stepOf,
  text,
  waitFor,
  waitForStep,
} from '../onboarding-flow/test-helpers.js';

afterEach(() => cleanupListeners());

/** A small real PDF: its header, one empty page, its trailer. */
function pdfFile(name = 'conta.pdf', padding = 0): File {
  const body = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n${'%'.repeat(padding)}\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return new File([body], name, { type: 'application/pdf' });
}

const sessionFlow = (locale = 'pt-BR') => mountWithSession({ steps: ['proof-of-address'], documentTypes: ['CNH', 'RG'] }, {}, { locale });

/** From the intro to the proof-of-address step, the photos picked from files. */
async function toProof(el: OnboardingFlow): Promise<void> {
  await passConsent(el);
  await passCpf(el, CPF.approved);
  await chooseType(el, 'CNH');
  for (const step of ['document-front', 'document-back', 'selfie']) {
    await waitForStep(el, step);
    await pickFile(el, await photoFor(el));
    await click(el, el.locale === 'en' ? 'Use this photo' : 'Usar esta foto');
  }
  await waitForStep(el, 'proof-of-address');
}

const proofInput = (el: OnboardingFlow): HTMLInputElement => root(el).querySelector<HTMLInputElement>('input[data-proof-file]')!;

async function pickProof(el: OnboardingFlow, file: File): Promise<void> {
  const input = proofInput(el);
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  // The last file's verdict goes at once: what shows next is this one's.
  await el.updateComplete;
  await waitFor(
    () => !!root(el).querySelector('[part~=proof-file], img[part~=preview]') || !!root(el).querySelector('#proof-error'),
    'the file was never checked',
    25_000,
  );
  await el.updateComplete;
}

describe('the proof-of-address step', () => {
  it('comes after the selfie as a stage of its own, refuses what is no photo nor PDF, and sends a PDF as it is', async function () {
    this.timeout(90_000);
    const { el, ns } = await sessionFlow();
    await toProof(el);
    expect(heading(el).textContent).to.equal('Comprovante de endereço');
    const current = root(el).querySelector('[part~=stage-current]')!.textContent!.trim();
    expect(current).to.equal('Endereço');
    expect(root(el).querySelectorAll('[part~=stage]').length).to.equal(6);
    await expect(el).to.be.accessible();

    await pickProof(el, new File(['just some text'], 'conta.txt', { type: 'text/plain' }));
    expect(errorText(el)).to.contain('não é uma foto nem um PDF');
    expect(proofInput(el).getAttribute('aria-describedby')).to.contain('proof-error');
    await expect(el).to.be.accessible();

    // Over the image limit (600000 bytes here): refused, with the limit said.
    await pickProof(el, pdfFile('grande.pdf', 700_000));
    expect(errorText(el)).to.contain('grande demais');
    expect(errorText(el)).to.match(/586 KB/);

    const pdf = pdfFile();
    await pickProof(el, pdf);
    expect(errorText(el)).to.equal('');
    expect(root(el).querySelector('[part~=proof-file]')!.textContent).to.equal('PDF: conta.pdf (1 KB)');
    expect(liveText(el)).to.contain('Comprovante recebido');
    await expect(el).to.be.accessible();
    await click(el, 'Usar este comprovante');
    await waitForStep(el, 'review');
    expect(text(el)).to.contain('PDF: conta.pdf');
    // Where a picture would be, a page drawn in the same frame: the grid keeps its rows.
    expect(root(el).querySelector('.thumbs [part~=file-tile]')).to.not.equal(null);
    await expect(el).to.be.accessible();
    await click(el, 'Enviar');
    await waitFor(() => stepOf(el) === 'processing' || stepOf(el) === 'outcome', `never sent (at ${stepOf(el)})`);
    const [upload] = (await doubleState(ns)).uploads;
    const sent = upload!.body.proofOfAddress!;
    expect(isPureBase64(sent)).to.equal(true);
    expect(sent).to.equal(bytesToBase64(new Uint8Array(await pdf.arrayBuffer())));
    expect(Object.keys(upload!.body.images).sort()).to.deep.equal(['documentBack', 'documentFront', 'selfie']);
  });

  it('takes a photo through the photo checks, and the review retakes it', async function () {
    this.timeout(90_000);
    const { el, ns } = await sessionFlow('en');
    await toProof(el);
    expect(heading(el).textContent).to.equal('Proof of address');
    const card = await cardJpeg('bill.jpg');
    await pickProof(el, card);
    expect(preview(el)).to.not.equal(null);
    await click(el, 'Use this proof');
    await waitForStep(el, 'review');
    const retake = root(el).querySelector<HTMLButtonElement>('[data-retake=proofOfAddress]')!;
    expect(retake.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Retake: Proof of address');
    retake.click();
    await waitForStep(el, 'proof-of-address');
    await pickProof(el, await cardJpeg('bill-2.jpg'));
    await click(el, 'Use this proof');
    // Back to the review, not through the steps after.
    await waitForStep(el, 'review');
    await click(el, 'Send');
    await waitFor(() => stepOf(el) === 'processing' || stepOf(el) === 'outcome', `never sent (at ${stepOf(el)})`);
    const sent = (await doubleState(ns)).uploads[0]!.body.proofOfAddress!;
    // Compressed by the pipeline: a JPEG, never the file as picked.
    expect(sniffBytes(base64ToBytes(sent, 16))).to.equal('image/jpeg');
    expect(sent).to.not.equal(bytesToBase64(new Uint8Array(await card.arrayBuffer())));
  });

  it('is not there without the session asking for it', async function () {
    this.timeout(90_000);
    const { el } = await mountWithSession({ documentTypes: ['PASSPORT'] });
    await passConsent(el);
    await passCpf(el, CPF.approved);
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitForStep(el, 'document-front');
    await pickFile(el, await cardJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    expect(root(el).querySelectorAll('[part~=stage]').length).to.equal(5);
  });

  it('on the real companion: the PDF is taken with the creation', async function () {
    this.timeout(120_000);
    const session = await executeServerCommand<{ clientSecret: string }, Record<string, unknown>>('stack-session', {
      reference: `proof-${companionNamespace()}`,
      steps: ['proof-of-address'],
    });
    const ns = companionNamespace();
    const { el } = await mount({ companion: 'real', ns, session: session.clientSecret });
    await toProof(el);
    const pdf = pdfFile();
    await pickProof(el, pdf);
    await click(el, 'Usar este comprovante');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitFor(() => stepOf(el) === 'processing' || stepOf(el) === 'outcome', `never sent (at ${stepOf(el)}: ${errorText(el)})`, 30_000);
    const [upload] = (await realRecord(ns)).uploads;
    expect((upload!.body as { proofOfAddress?: string }).proofOfAddress).to.equal(bytesToBase64(new Uint8Array(await pdf.arrayBuffer())));
  });
});
