/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * Accessibility holds: axe on every step and state the flow can be in (each walk records what it
 * checked and reports every violation at the end, so one finding does not hide the next), text
 * at 200% without loss at a laptop's and a phone's width, and reduced motion. Keyboard-only use
 * is keyboard.test.ts's.
 */
import { currentEngine, NOT_IN, skipIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { emulateMedia, executeServerCommand, setViewport } from '@web/test-runner-commands';
import { normalizeEndpoint } from '../api/index.js';
import { resumeKeyFor, type KeptOnboarding } from '../controllers/kept-onboarding.js';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  blurryJpeg,
  captureView,
  cardJpeg,
  faceJpeg,
  chooseType,
  cleanupListeners,
  click,
  companionNamespace,
  controlDouble,
  errorText,
  hasButton,
  mount,
  openCamera,
  passConsent,
  passCpf,
  passIntro,
  photoFor,
  pickFile,
  preview,
  reachReviewWithFiles,
  root,
  text,
  typeInto,
  waitFor,
  waitForStep,
} from './test-helpers.js';

const mounted: HTMLElement[] = [];
afterEach(async () => {
  cleanupListeners();
  while (mounted.length) mounted.pop()!.remove();
  sessionStorage.clear();
  document.documentElement.style.fontSize = '';
  if (currentEngine() !== 'webkit') {
    await setViewport({ width: 1366, height: 768 });
    await executeServerCommand('camera-permission', { grant: true });
  }
  if (currentEngine() === 'chromium') await emulateMedia({ reducedMotion: 'no-preference' });
});

/**
 * Runs axe on each state of a walk and keeps going past a violation: `done()` then fails with
 * every finding (state, rule, node) and checks that the walk reached the states it meant to.
 */
class AxeWalk {
  readonly checked: string[] = [];
  readonly findings: string[] = [];

  async check(state: string, target: Element): Promise<void> {
    this.checked.push(state);
    try {
      await expect(target).to.be.accessible();
    } catch (error) {
      this.findings.push(`[${state}] ${(error as Error).message}`);
    }
  }

  done(expected: string[]): void {
    expect(this.findings, `axe violations:\n${this.findings.join('\n\n')}`).to.deep.equal([]);
    expect(this.checked).to.deep.equal(expected);
  }
}

/** An onboarding created directly on the companion double, as a page that already sent it. */
async function create(base: string, cpf: string): Promise<{ tokenOnboarding: string; accessKey: string }> {
  const bytes = new Uint8Array(await (await cardJpeg()).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const image = btoa(binary);
  const res = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cpf, documentType: 'CNH', images: { documentFront: image, documentBack: image, selfie: image } }),
  });
  if (!res.ok) throw new Error(`creation failed: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ tokenOnboarding: string; accessKey: string }>;
}

/** Keeps the onboarding as the element does once sent, `agoMs` in the past (how long the wait has gone on). */
function keep(endpoint: string, created: { tokenOnboarding: string; accessKey: string }, agoMs = 0): void {
  const normalized = normalizeEndpoint(endpoint);
  const kept: KeptOnboarding = { ...created, endpoint: normalized, savedAt: Date.now() - agoMs };
  sessionStorage.setItem(resumeKeyFor(normalized, '')!, JSON.stringify(kept));
}

/** Mounts the element as a reloaded page that finds a kept onboarding. */
async function reload(endpoint: string, locale: string, totalMs = 30_000): Promise<OnboardingFlow> {
  const el = document.createElement('onboarding-flow');
  el.endpoint = endpoint;
  el.locale = locale as OnboardingFlow['locale'];
  el.pollOptions = { initialDelayMs: 200, maxDelayMs: 400, totalMs };
  document.body.append(el);
  mounted.push(el);
  await el.updateComplete;
  return el;
}

/** A card picture several times the pipeline's long edge, in noise a JPEG cannot shrink: its checks take a while. */
async function slowJpeg(): Promise<File> {
  const canvas = new OffscreenCanvas(4800, 3600);
  const ctx = canvas.getContext('2d')!;
  const card = await createImageBitmap(await cardJpeg());
  ctx.drawImage(card, 0, 0, 4800, 3600);
  card.close();
  const noise = ctx.getImageData(0, 0, 4800, 600);
  for (let i = 0; i < noise.data.length; i += 4) noise.data[i] = (noise.data[i]! + ((i * 2654435761) >>> 24)) & 255;
  ctx.putImageData(noise, 0, 0);
  return new File([await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.98 })], 'large.jpg', { type: 'image/jpeg' });
}

/** Starts processing `file` on the visible picker without waiting for the verdict. */
function dropFile(el: OnboardingFlow, file: File): void {
  const input = root(el).querySelector<HTMLInputElement>('input[type=file]')!;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const checkingShown = (el: OnboardingFlow): boolean =>
  /Verificando a foto|Checking the photo|Comprobando la foto/.test(root(el).querySelector('[part=body] .muted')?.textContent ?? '');

describe('<onboarding-flow> accessibility: axe on every step and state', () => {
  it('intro (in three locales), consent (its details open, its error), CPF (a check-digit error), document type (its error), first capture step: in English', async function () {
    this.timeout(60_000);
    const walk = new AxeWalk();
    for (const locale of ['pt-BR', 'es']) {
      const { el: other } = await mount({ locale, documentTypes: 'PASSPORT' });
      await walk.check(`intro (${locale}, a passport only)`, other);
      other.remove();
    }
    const { el } = await mount({ locale: 'en' });
    await walk.check('intro', el);
    await passIntro(el);
    await walk.check('consent', el);
    await click(el, 'Continue');
    expect(root(el).querySelector('#consent-error')).to.exist;
    await walk.check('consent, error', el);
    const details = root(el).querySelector('details')!;
    details.querySelector('summary')!.click();
    await waitFor(() => details.open && details.querySelectorAll('h3').length > 0, 'the full consent text');
    await walk.check('consent, details open', el);
    await passConsent(el);
    await walk.check('cpf', el);
    await typeInto(root(el).querySelector<HTMLInputElement>('#cpf')!, '529.982.247-26');
    await el.updateComplete;
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await el.updateComplete;
    expect(root(el).querySelector('#cpf-error')).to.exist;
    await walk.check('cpf, check-digit error', el);
    await passCpf(el, CPF.approved, 'Maria Silva');
    await walk.check('document-type', el);
    await click(el, 'Continue');
    expect(root(el).querySelector('#doctype-error')).to.exist;
    await walk.check('document-type, error', el);
    await chooseType(el, 'CNH');
    await walk.check('document-front, camera closed', el);
    walk.done([
      'intro (pt-BR, a passport only)',
      'intro (es, a passport only)',
      'intro',
      'consent',
      'consent, error',
      'consent, details open',
      'cpf',
      'cpf, check-digit error',
      'document-type',
      'document-type, error',
      'document-front, camera closed',
    ]);
  });

  it('capture steps from files: checking, accepted, refused, refused twice with "Usar mesmo assim", the selfie without a face, review', async function () {
    this.timeout(150_000);
    const walk = new AxeWalk();
    const expected: string[] = [];
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');

    // Checking: a large photo keeps the checks running longer than axe takes; a verdict that
    // came during the run would make it say nothing about this state, so that is checked.
    dropFile(el, await slowJpeg());
    await waitFor(() => checkingShown(el), 'no "checking" state');
    await walk.check('document-front, checking', el);
    expected.push('document-front, checking');
    expect(checkingShown(el), 'the check ended while axe ran: the state was not held').to.equal(true);
    await waitFor(() => !!preview(el) || !!root(el).querySelector('#capture-error'), 'the large photo never processed', 40_000);
    await el.updateComplete;
    expect(preview(el), errorText(el)).to.exist;
    await walk.check('document-front, accepted preview', el);
    expected.push('document-front, accepted preview');

    await click(el, 'Tirar outra foto');
    await pickFile(el, new File(['%PDF-1.4 not a photo'], 'cnh.jpg', { type: 'image/jpeg' }));
    expect(errorText(el)).to.contain('não é uma imagem');
    await walk.check('document-front, refused (not an image)', el);
    expected.push('document-front, refused (not an image)');
    await click(el, 'Tirar outra foto');

    if (currentEngine() !== 'webkit') {
      // WebKitGTK's canvas cannot blur (NOT_IN.canvasFilter): there the selfie below gives the twice-refused state.
      await pickFile(el, await blurryJpeg());
      expect(errorText(el)).to.contain('tremida ou fora de foco');
      await walk.check('document-front, refused (blurry)', el);
      await click(el, 'Tirar outra foto');
      await pickFile(el, await blurryJpeg());
      expect(hasButton(el, 'Usar mesmo assim')).to.equal(true);
      await walk.check('document-front, refused twice, "Usar mesmo assim"', el);
      expected.push('document-front, refused (blurry)', 'document-front, refused twice, "Usar mesmo assim"');
      await click(el, 'Tirar outra foto');
    }
    await pickFile(el, await cardJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    await walk.check('selfie, camera closed', el);

    // A card is no face: refused; refused again, it cannot be kept: tips and the file picker instead.
    await pickFile(el, await cardJpeg('selfie.jpg'));
    expect(errorText(el)).to.match(/Não encontramos um rosto|rosto/);
    await walk.check('selfie, face refusal', el);
    await click(el, 'Tirar outra foto');
    await pickFile(el, await cardJpeg('selfie2.jpg'));
    expect(hasButton(el, 'Usar mesmo assim')).to.equal(false);
    expect(root(el).querySelector('[part~=face-tips]')).to.not.equal(null);
    await walk.check('selfie, face refused twice, tips', el);
    await pickFile(el, await faceJpeg());
    await waitFor(() => !!preview(el), 'the selfie from the file was never accepted', 25_000);
    await el.updateComplete;
    await walk.check('selfie, accepted', el);
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await walk.check('review', el);
    walk.done([
      ...expected,
      'selfie, camera closed',
      'selfie, face refusal',
      'selfie, face refused twice, tips',
      'selfie, accepted',
      'review',
    ]);
  });

  it('the capture view open (document and selfie, Spanish), and the flow behind it', async function () {
    this.timeout(90_000);
    const walk = new AxeWalk();
    const { el } = await mount({ locale: 'es' });
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    el.manualCapture = true;
    await openCamera(el, 'Abrir cámara', 'Tomar foto');
    await captureView(el)!.updateComplete;
    await walk.check('capture view, document', captureView(el)!);
    await walk.check('document-front with the capture view open', el);
    // Back to the step with the close button, then on to the selfie's view.
    captureView(el)!.shadowRoot!.querySelector<HTMLButtonElement>('[part~=capture-close]')!.click();
    await waitFor(() => !captureView(el), 'the view stayed open');
    await pickFile(el, await cardJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await cardJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    await openCamera(el, 'Abrir cámara', 'Tomar foto');
    await captureView(el)!.updateComplete;
    await walk.check('capture view, selfie', captureView(el)!);
    walk.done(['capture view, document', 'document-front with the capture view open', 'capture view, selfie']);
  });

  skipIn(['webkit'], NOT_IN.cameraDenial)('camera denied: the error and the file fallbacks', async function () {
    this.timeout(60_000);
    const walk = new AxeWalk();
    await executeServerCommand('camera-permission', { grant: false });
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'RG');
    await click(el, 'Abrir câmera');
    await waitFor(() => !!root(el).querySelector('#camera-error'), 'no camera error shown');
    await el.updateComplete;
    await walk.check('document-front, camera denied', el);
    walk.done(['document-front, camera denied']);
  });

  it('review, upload in progress, upload errors, processing', async function () {
    this.timeout(120_000);
    const walk = new AxeWalk();
    const { el, ns } = await mount();
    await reachReviewWithFiles(el, CPF.manual);
    await controlDouble(ns, { holdUploads: true });
    await click(el, 'Enviar');
    await waitForStep(el, 'upload');
    await waitFor(
      () => root(el).querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '100',
      'progress never reached 100',
    );
    await walk.check('upload in progress', el);
    await click(el, 'Cancelar envio');
    await waitForStep(el, 'review');
    await walk.check('review, upload cancelled', el);
    await controlDouble(ns, { holdUploads: false, failUploads: 'http-503' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await el.updateComplete;
    await walk.check('upload error (503, retry offered)', el);
    await controlDouble(ns, {
      failUploads: { status: 400, error: { code: 'invalid_cpf', message: 'CPF refused upstream.', field: 'cpf', externalId: 'EXT-UP-1' } },
    });
    await click(el, 'Tentar novamente');
    await waitFor(() => errorText(el).includes('recusou o CPF'), 'no CPF refusal');
    await el.updateComplete;
    await walk.check('upload error (CPF refused, support code)', el);
    await controlDouble(ns, { failUploads: null });
    await click(el, 'Voltar às fotos');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    // The manual-review identity stays in processing.
    await waitForStep(el, 'processing');
    await waitFor(() => text(el).length > 0 && !root(el).querySelector('[aria-busy=true]'), 'processing never settled');
    await walk.check('processing, waiting', el);
    walk.done([
      'upload in progress',
      'review, upload cancelled',
      'upload error (503, retry offered)',
      'upload error (CPF refused, support code)',
      'processing, waiting',
    ]);
  });

  it('processing later on (slow, manual review), offline, given up; outcomes APPROVED (en), REFUSED (es), ERROR (pt-BR)', async function () {
    this.timeout(120_000);
    const walk = new AxeWalk();

    let base = `/test-companion/${companionNamespace()}`;
    let created = await create(base, CPF.manual);
    keep(base, created, 40_000);
    let el = await reload(base, 'en');
    await waitFor(() => !!root(el).querySelector('[data-wait=slow]'), 'no slow notice');
    await walk.check('processing, taking longer (en)', el);
    el.remove();
    keep(base, created, 3 * 60_000);
    el = await reload(base, 'es');
    await waitFor(() => !!root(el).querySelector('[data-wait=review]'), 'no manual review notice');
    await walk.check('processing, possible manual review (es)', el);
    el.remove();

    const ns = companionNamespace();
    base = `/test-companion/${ns}`;
    created = await create(base, CPF.manual);
    await controlDouble(ns, { events: 'fail', failReads: true });
    keep(base, created);
    el = await reload(base, 'pt-BR');
    await waitFor(() => !!root(el).querySelector('[part~=offline]'), 'no offline banner');
    await walk.check('processing, offline banner', el);
    el.remove();
    sessionStorage.clear();
    keep(base, created);
    el = await reload(base, 'pt-BR', 1_500);
    await waitFor(() => !!root(el).querySelector('#processing-error'), 'the wait never gave up', 20_000);
    await el.updateComplete;
    await walk.check('processing, given up', el);
    el.remove();

    for (const [cpf, locale, status] of [
      [CPF.approved, 'en', 'APPROVED'],
      [CPF.refused, 'es', 'REFUSED'],
      [CPF.error, 'pt-BR', 'ERROR'],
    ] as const) {
      base = `/test-companion/${companionNamespace()}`;
      keep(base, await create(base, cpf));
      el = await reload(base, locale);
      await waitForStep(el, 'outcome');
      expect(root(el).querySelector('[data-status]')!.getAttribute('data-status')).to.equal(status);
      // The outcome's texts load beside the element; axe the screen once they are in.
      await waitFor(() => root(el).querySelectorAll('[part~=outcome] p').length > 0, `no ${status} text`);
      await el.updateComplete;
      await walk.check(`outcome ${status} (${locale})`, el);
      el.remove();
    }
    walk.done([
      'processing, taking longer (en)',
      'processing, possible manual review (es)',
      'processing, offline banner',
      'processing, given up',
      'outcome APPROVED (en)',
      'outcome REFUSED (es)',
      'outcome ERROR (pt-BR)',
    ]);
  });

  it('a session: loading, and a session that cannot be used', async function () {
    this.timeout(60_000);
    const walk = new AxeWalk();
    const ns = companionNamespace();
    const secret = 'cs_test_a11y_loading_0123456789abcdef';
    await controlDouble(ns, { holdSession: true, sessions: [{ clientSecret: secret, prefill: { cpf: '52998224725' } }] });
    const { el } = await mount({ ns, session: secret });
    await waitFor(() => root(el).querySelector('section[data-step]')?.getAttribute('aria-busy') === 'true', 'never busy');
    await walk.check('session loading', el);
    await controlDouble(ns, { holdSession: false });
    await waitFor(() => !!root(el).querySelector('[part~=intro-needs]'), 'the intro never came');
    await walk.check('intro under a session', el);
    await passIntro(el);
    await walk.check('consent under a session', el);
    el.remove();

    const other = companionNamespace();
    await controlDouble(other, { sessions: [{ clientSecret: 'cs_test_a11y_someone_else_0123456789' }] });
    const { el: refused } = await mount({ ns: other, session: 'cs_test_a11y_unknown_0123456789abcd' });
    await waitFor(() => !!root(refused).querySelector('#session-error'), 'no session error');
    await walk.check('session error (unknown link)', refused);
    walk.done(['session loading', 'intro under a session', 'consent under a session', 'session error (unknown link)']);
  });
});
