/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, skipIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  button,
  CPF,
  blurryJpeg,
  chooseType,
  cleanupListeners,
  click,
  errorText,
  heading,
  mount,
  passConsent,
  passCpf,
  pickFile,
  preview,
  reachReviewWithFiles,
  root,
  stepOf,
  waitFor,
  waitForStep,
  photoFor,
  faceJpeg,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  await executeServerCommand('camera-permission', { grant: true });
});

async function toFront(documentTypes = 'CNH,RG') {
  const mounted = await mount({ documentTypes });
  await passConsent(mounted.el);
  await passCpf(mounted.el, CPF.approved);
  return mounted;
}

describe('<onboarding-flow> capture steps', () => {
  skipIn(['webkit'], NOT_IN.cameraDenial)(
    'camera denied: says why and what to do, and the labelled file fallback works',
    async function () {
      this.timeout(60_000);
      await executeServerCommand('camera-permission', { grant: false });
      const { el, events } = await toFront();
      await chooseType(el, 'RG');
      await click(el, 'Abrir câmera');
      await waitFor(() => errorText(el) !== '', 'no camera error shown');
      expect(errorText(el)).to.contain('acesso à câmera foi negado');
      expect(errorText(el)).to.contain('escolha uma foto dos arquivos');
      const errorEvent = events.find((e) => e.type === 'onboarding-error')!;
      expect(errorEvent.detail.code).to.equal('camera_denied');
      // Refused: picking a file leads; asking for the camera again can help, so it stays, second.
      expect(root(el).querySelector('[part~=button-primary]')!.textContent!.trim()).to.equal('Escolher uma foto dos arquivos');
      expect(button(el, 'Tentar a câmera novamente').classList.contains('primary')).to.equal(false);
      await expect(el).to.be.accessible();

      // The gallery picker carries no capture (phones would open the camera app instead); a
      // desktop has no camera app to hand the photo to, so none is offered.
      const input = root(el).querySelector<HTMLInputElement>('input[type=file]:not([data-camera-app])')!;
      expect(input.accept).to.equal('image/jpeg,image/png,image/webp');
      expect(input.hasAttribute('capture')).to.equal(false);
      expect(input.closest('label')!.textContent!.trim()).to.equal('Escolher uma foto dos arquivos');
      expect(root(el).querySelector('input[type=file][data-camera-app]')).to.equal(null);
      expect(input.closest('label')!.getBoundingClientRect().height).to.be.at.least(24);

      await pickFile(el, await photoFor(el));
      expect(preview(el), errorText(el)).to.exist;
      expect(events.filter((e) => e.type === 'onboarding-capture').map((e) => e.detail.role)).to.deep.equal(['documentFront']);
      await click(el, 'Usar esta foto');
      await waitForStep(el, 'document-back');
      expect(heading(el).textContent).to.equal('Verso do RG');
    },
  );

  it('a file that is not an image is refused with its reason and a retake button', async function () {
    this.timeout(60_000);
    const { el, events } = await toFront();
    await chooseType(el, 'CNH');
    const notImage = new File(['%PDF-1.4 definitely not a photo'], 'cnh.jpg', { type: 'image/jpeg' });
    await pickFile(el, notImage);
    expect(errorText(el)).to.contain('não é uma imagem');
    expect(preview(el)).to.equal(null);
    expect(events.some((e) => e.type === 'onboarding-capture')).to.equal(false);
    // The main action offered is the retake.
    expect(root(el).querySelector('[part~=button-primary]')?.textContent?.trim()).to.equal('Tirar outra foto');
    await expect(el).to.be.accessible();
    await click(el, 'Tirar outra foto');
    expect(errorText(el)).to.equal('');
    expect(root(el).querySelector('input[type=file]')).to.exist;
    // Never silently sent: there is no way forward but another photo.
    expect([...root(el).querySelectorAll('button')].map((b) => b.textContent!.trim())).to.not.include('Usar esta foto');
  });

  skipIn(['webkit'], NOT_IN.canvasFilter)('a blurry photo is shown with the reason, then retaken', async function () {
    this.timeout(60_000);
    const { el } = await toFront();
    await chooseType(el, 'CNH');
    await pickFile(el, await blurryJpeg());
    expect(errorText(el)).to.contain('tremida ou fora de foco');
    const rejected = preview(el)!;
    expect(rejected.classList.contains('rejected')).to.equal(true);
    expect(rejected.alt).to.contain('Foto recusada');
    const rejectedUrl = rejected.src;
    await click(el, 'Tirar outra foto');
    await pickFile(el, await photoFor(el));
    expect(errorText(el)).to.equal('');
    expect(preview(el)!.src).to.not.equal(rejectedUrl);
  });

  it('retake from the preview and from the review replaces the photo', async function () {
    this.timeout(90_000);
    const { el, events } = await mount();
    await reachReviewWithFiles(el);
    const before = [...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((i) => i.src);
    expect(before).to.have.length(3);
    await click(el, 'Refazer: Selfie');
    await waitForStep(el, 'selfie');
    expect(preview(el)).to.equal(null);
    expect(root(el).querySelector('input[type=file]')!.hasAttribute('capture')).to.equal(false);
    await pickFile(el, await faceJpeg('selfie.jpg'));
    await click(el, 'Tirar outra foto');
    expect(preview(el)).to.equal(null);
    await pickFile(el, await faceJpeg('selfie2.jpg'));
    await click(el, 'Usar esta foto');
    // Back to the review, not on through the flow.
    await waitForStep(el, 'review');
    const after = [...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((i) => i.src);
    expect(after[0]).to.equal(before[0]);
    expect(after[2]).to.not.equal(before[2]);
    expect(events.filter((e) => e.type === 'onboarding-capture').length).to.equal(5);
  });

  it('Back works on every step before the upload', async function () {
    this.timeout(90_000);
    const { el } = await mount();
    await reachReviewWithFiles(el);
    const path: string[] = [];
    while (stepOf(el) !== 'consent') {
      path.push(stepOf(el));
      await click(el, 'Voltar');
    }
    expect(path).to.deep.equal(['review', 'selfie', 'document-back', 'document-front', 'document-type', 'cpf']);
    // What was entered is still there on the way forward again.
    expect(root(el).querySelector<HTMLInputElement>('#consent')!.checked).to.equal(true);
  });

  it('a passport has no back side', async function () {
    this.timeout(60_000);
    const { el } = await mount({ documentTypes: 'CNH,RG,RNE,PASSPORT' });
    await passConsent(el);
    await passCpf(el, CPF.approved);
    const labels = [...root(el).querySelectorAll('fieldset label')].map((l) => l.textContent!.trim());
    expect(labels).to.deep.equal([
      'CNH (Carteira Nacional de Habilitação)',
      'RG (Carteira de Identidade)',
      'RNE / CRNM (Registro Nacional de Estrangeiro)',
      'Passaporte',
    ]);
    await chooseType(el, 'PASSPORT');
    // One side only: the document step has no sub-progress.
    expect(root(el).querySelector('[aria-current=step]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Documento');
    expect(heading(el).textContent).to.equal('Passaporte');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    expect(root(el).querySelectorAll('img[part~=thumbnail]').length).to.equal(2);
  });
});
