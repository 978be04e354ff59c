/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, onlyIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { sniffBytes } from '@onboarding-kit/contract';
import {
  captureView,
  CPF,
  base64Bytes,
  captureWithCamera,
  openCamera,
  liveCamera,
  hasButton,
  errorText,
  blurryJpeg,
  cardJpeg,
  faceJpeg,
  pickFile,
  takePhoto,
  chooseType,
  cleanupListeners,
  click,
  everythingVisible,
  heading,
  mount,
  passConsent,
  passCpf,
  passIntro,
  preview,
  realRecord,
  root,
  stepOf,
  text,
  waitFor,
  waitForStep,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

const FACE_TIPS =
  'Para enviar, a selfie precisa mostrar o seu rosto, e só ele. Dicas: tire óculos escuros, boné ou máscara; fique de frente para a luz, não de costas para uma janela; segure o aparelho na altura dos olhos. Se a câmera não ajudar, escolha uma selfie dos arquivos.';

describe('<onboarding-flow> a photo kept anyway', () => {
  it('a blurry document kept after two refusals is announced as kept, never as accepted, and the creation tells the companion which check it failed', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount({ companion: 'real' });
    await passIntro(el);
    await passConsent(el);
    await passCpf(el, CPF.approved, 'Maria Silva');
    await chooseType(el, 'CNH');
    await pickFile(el, await blurryJpeg());
    expect(hasButton(el, 'Usar mesmo assim'), 'no "use anyway" after one refusal').to.equal(false);
    await click(el, 'Tirar outra foto');
    await pickFile(el, await blurryJpeg());
    expect(root(el).querySelector('[part~=face-tips]'), 'the face tips are for selfies').to.equal(null);
    await click(el, 'Usar mesmo assim');
    await waitFor(() => !!preview(el), 'the kept photo was never accepted', 25_000);
    // Kept, not judged readable: neither the step nor what is announced calls it accepted.
    expect([...root(el).querySelectorAll('[part~=body] p')].map((p) => p.textContent)).to.include(
      'Foto mantida como está. Se não estiver legível, a análise pode pedir outra.',
    );
    await waitFor(
      () => root(el).querySelector('[role=status][aria-atomic]')!.textContent!.includes('Foto mantida como está'),
      'the kept photo was not announced as kept',
    );
    expect(text(el)).to.not.contain('Foto aceita');
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await cardJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    await pickFile(el, await faceJpeg());
    expect(preview(el), errorText(el)).to.exist;
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');

    const body = (await realRecord(ns)).uploads[0]!.body as { keptAnyway?: unknown; images: Record<string, string> };
    expect(body.keptAnyway).to.deep.equal({ documentFront: 'blurry' });
    const captures = events.filter((e) => e.type === 'onboarding-capture').map((e) => e.detail as { role: string; keptAnyway?: true });
    expect(captures.map((d) => [d.role, d.keptAnyway ?? false])).to.deep.equal([
      ['documentFront', true],
      ['documentBack', false],
      ['selfie', false],
    ]);
  });
});

describe('<onboarding-flow> happy path with the fake camera', () => {
  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'goes from the intro to APPROVED, uploads capped JPEGs and never leaks images or the key',
    async function () {
      this.timeout(90_000);
      // The real companion and sandbox, on another origin: the photos go all the way to the upstream's onboarding.
      const { el, ns, events } = await mount({ maxImageBytes: 500_000, maxLongEdge: 1400, companion: 'real' });
      expect(stepOf(el)).to.equal('intro');
      await expect(el).to.be.accessible();

      await passIntro(el);
      expect(root(el).activeElement).to.equal(heading(el), 'focus on the consent heading');
      await passConsent(el);
      expect(root(el).activeElement).to.equal(heading(el), 'focus on the CPF heading');
      await expect(el).to.be.accessible();

      await passCpf(el, CPF.approved, 'Maria Silva');
      expect(root(el).activeElement).to.equal(heading(el));
      await expect(el).to.be.accessible();

      await chooseType(el, 'CNH');
      expect(heading(el).textContent).to.equal('Frente da CNH');
      expect(root(el).activeElement).to.equal(heading(el));
      await expect(el).to.be.accessible();

      // Nothing is captured until asked: no camera before "Abrir câmera".
      expect(captureView(el)).to.equal(null);
      const docVideo = await openCamera(el);
      expect(getComputedStyle(docVideo).transform).to.equal('none');
      const guide = captureView(el)!.shadowRoot!.querySelector<HTMLElement>('[part=guide]')!;
      expect(guide.classList.contains('card')).to.equal(true);
      const box = guide.getBoundingClientRect();
      expect(box.width / box.height).to.be.closeTo(85.6 / 53.98, 0.02);
      await expect(captureView(el)!).to.be.accessible();
      await takePhoto(el);
      expect(preview(el), text(el)).to.exist;
      await expect(el).to.be.accessible();
      await click(el, 'Usar esta foto');
      await waitForStep(el, 'document-back');
      expect(captureView(el), 'camera stopped on step change').to.equal(null);

      await captureWithCamera(el);
      await click(el, 'Usar esta foto');
      await waitForStep(el, 'selfie');

      // The selfie preview is mirrored by CSS only, under an oval guide; documents get the card frame.
      const video = await openCamera(el);
      expect(getComputedStyle(video).transform).to.equal('matrix(-1, 0, 0, 1, 0, 0)');
      expect(captureView(el)!.shadowRoot!.querySelector('[part=guide]')!.classList.contains('oval')).to.equal(true);
      await expect(captureView(el)!).to.be.accessible();
      // The fake camera shows a card, not a face: refused; refused again, it still cannot be kept.
      await takePhoto(el);
      expect(errorText(el)).to.match(/Não encontramos um rosto/);
      expect(hasButton(el, 'Usar mesmo assim'), 'no "use anyway" after one refusal').to.equal(false);
      await click(el, 'Tirar outra foto');
      await liveCamera(el);
      await takePhoto(el);
      expect(errorText(el)).to.match(/Não encontramos um rosto/);
      // A selfie without a face is never kept: what else to try instead, shown and announced, and the file picker.
      expect(hasButton(el, 'Usar mesmo assim'), 'no "use anyway" for a selfie without a face').to.equal(false);
      expect(root(el).querySelector('[part~=keep-anyway]')).to.equal(null);
      expect(root(el).querySelector('[part~=face-tips]')!.textContent).to.equal(FACE_TIPS);
      await waitFor(
        () => root(el).querySelector('[role=status][aria-atomic]')!.textContent!.includes(FACE_TIPS),
        'the tips were not announced',
      );
      await expect(el).to.be.accessible();
      // The refusal shows until the picked file is checked: wait for the preview itself.
      await pickFile(el, await faceJpeg());
      await waitFor(() => !!preview(el), `the selfie from the file was never accepted: ${errorText(el)}`, 25_000);
      await click(el, 'Usar esta foto');
      await waitForStep(el, 'review');
      expect(root(el).querySelectorAll('img[part~=thumbnail]').length).to.equal(3);
      await expect(el).to.be.accessible();

      await click(el, 'Enviar');
      // The processing step in between is checked in the step-change events below (a poll could miss it).
      await waitForStep(el, 'outcome');
      expect(root(el).querySelector('[data-status]')!.getAttribute('data-status')).to.equal('APPROVED');
      expect(heading(el).textContent).to.equal('Identidade verificada');
      expect(root(el).activeElement).to.equal(heading(el));
      await expect(el).to.be.accessible();

      // What the companion received: the contract's body, three JPEGs within the caps.
      const state = await realRecord(ns);
      expect(state.uploads).to.have.length(1);
      const body = state.uploads[0]!.body;
      expect(body.cpf).to.equal(CPF.approved);
      expect(body.name).to.equal('Maria Silva');
      expect(body.documentType).to.equal('CNH');
      expect(Object.keys(body.images).sort()).to.deep.equal(['documentBack', 'documentFront', 'selfie']);
      for (const base64 of Object.values(body.images)) {
        const bytes = base64Bytes(base64);
        expect(sniffBytes(bytes)).to.equal('image/jpeg');
        expect(bytes.length).to.be.at.most(500_000);
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
        expect(Math.max(bitmap.width, bitmap.height)).to.be.at.most(1400);
        expect(Math.max(bitmap.width, bitmap.height)).to.be.at.least(640);
        bitmap.close();
      }

      // Events: right names and details, bubbling to the document, never an image or the key.
      const names = events.map((e) => e.type);
      expect(names.filter((n) => n === 'onboarding-capture')).to.have.length(3);
      const captures = events.filter((e) => e.type === 'onboarding-capture').map((e) => e.detail);
      expect(captures.map((d) => d.role)).to.deep.equal(['documentFront', 'documentBack', 'selfie']);
      // Every photo passed its checks: nothing kept anyway, nothing to report.
      expect(body).to.not.have.property('keptAnyway');
      for (const d of captures) {
        expect(Object.keys(d).sort()).to.deep.equal(['bytes', 'height', 'processedBy', 'processedIn', 'role', 'width']);
        expect(d.bytes).to.be.greaterThan(1000);
        // Every engine under test has OffscreenCanvas: the worker answered, nothing fell back.
        expect(d.processedIn).to.equal('worker');
        // Camera frames (and a file within the byte cap) are encoded once by the element's own encode; the library is for files over it.
        expect(d.processedBy).to.equal('own');
      }
      const token = state.onboardings[0]!.token;
      const accessKey = state.onboardings[0]!.accessKey;
      expect(events.find((e) => e.type === 'onboarding-submitted')!.detail).to.deep.equal({ tokenOnboarding: token });
      expect(events.find((e) => e.type === 'onboarding-complete')!.detail).to.deep.equal({ tokenOnboarding: token, status: 'APPROVED' });
      const steps = events.filter((e) => e.type === 'onboarding-step-change').map((e) => e.detail);
      expect(steps.map((d) => d.step)).to.deep.equal([
        'consent',
        'cpf',
        'document-type',
        'document-front',
        'document-back',
        'selfie',
        'review',
        'upload',
        'processing',
        'outcome',
      ]);
      expect(steps[0]).to.deep.equal({ step: 'consent', previous: 'intro' });
      expect(steps[1]).to.deep.equal({ step: 'cpf', previous: 'consent' });
      for (const e of events) {
        expect(e.bubbles && e.composed, e.type).to.equal(true);
      }
      const visible = everythingVisible(el, events);
      expect(visible).to.not.contain(accessKey);
      expect(visible).to.not.contain(body.images.selfie!.slice(0, 64));
      // The key travelled only as a Bearer header on the status reads, never in a URL.
      for (const r of state.requests) expect(r.url).to.not.contain(accessKey);
      const reads = state.requests.filter((r) => r.method === 'GET');
      expect(reads.length).to.be.greaterThan(0);
      for (const r of reads) expect(r.authorization).to.equal(`Bearer ${accessKey}`);
      expect(state.requests.some((r) => r.url.endsWith(`/v1/onboardings/${token}/events`))).to.equal(true);
    },
  );
});
