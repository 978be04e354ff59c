/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { supportCodeOf } from '@onboarding-kit/contract';
import { NOT_IN, onlyIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { emulateMedia, executeServerCommand } from '@web/test-runner-commands';
import {
  CPF,
  cleanupListeners,
  click,
  controlDouble,
  createdIn,
  decide,
  doubleState,
  errorText,
  pickFile,
  everythingVisible,
  hasButton,
  heading,
  isRevoked,
  mount,
  reachReviewWithFiles,
  realState,
  root,
  stepOf,
  text,
  waitFor,
  waitForStep,
  waitForStepOnStack,
  photoFor,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

const outcomeStatus = (el: HTMLElement) => el.shadowRoot!.querySelector('[data-status]')?.getAttribute('data-status');

describe('<onboarding-flow> upload, status and outcomes', () => {
  it('an HTTP 503 says what to do; Retry then succeeds', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount({ withV1: true });
    await reachReviewWithFiles(el);
    await controlDouble(ns, { failUploads: 'http-503' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await controlDouble(ns, { failUploads: null });
    expect(errorText(el)).to.contain('serviço de verificação está com problemas');
    // The heading says what happened, no longer "Enviando".
    expect(heading(el).textContent).to.equal('Não foi possível enviar');
    const error = events.find((e) => e.type === 'onboarding-error')!;
    expect(error.detail.code).to.equal('upstream_unavailable');
    await expect(el).to.be.accessible();
    await click(el, 'Tentar novamente');
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('APPROVED');
    expect((await doubleState(ns)).uploads).to.have.length(1);
  });

  it('a connection cut mid-upload is a network error; Retry then succeeds', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount();
    await reachReviewWithFiles(el);
    await controlDouble(ns, { failUploads: 'destroy' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await controlDouble(ns, { failUploads: null });
    expect(errorText(el)).to.contain('Sem conexão com o servidor');
    expect(events.find((e) => e.type === 'onboarding-error')!.detail.code).to.equal('network');
    expect(hasButton(el, 'Voltar às fotos')).to.equal(true);
    await click(el, 'Tentar novamente');
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('APPROVED');
  });

  it('shows real XHR upload progress, cancels, keeps the photos, and sends again', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount();
    await reachReviewWithFiles(el);
    const thumbs = [...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((i) => i.src);
    await controlDouble(ns, { holdUploads: true });
    const seen = new Set<string>();
    const observer = new MutationObserver(() => {
      const bar = root(el).querySelector('[role=progressbar]');
      if (bar) seen.add(bar.getAttribute('aria-valuenow')!);
    });
    observer.observe(root(el), { subtree: true, attributes: true, childList: true });
    await click(el, 'Enviar');
    const bar = () => root(el).querySelector('[role=progressbar]');
    expect(bar()!.getAttribute('aria-valuemax')).to.equal('100');
    // The server has read the whole body but not answered: only upload progress events can say 100.
    await waitFor(() => bar()?.getAttribute('aria-valuenow') === '100', 'progress never reached 100');
    observer.disconnect();
    expect(seen.has('0')).to.equal(true);
    expect(bar()!.getAttribute('aria-valuetext')).to.equal('100% enviado');
    await expect(el).to.be.accessible();

    await click(el, 'Cancelar envio');
    await waitForStep(el, 'review');
    expect(events.filter((e) => e.type === 'onboarding-cancel').map((e) => e.detail)).to.deep.equal([{ step: 'upload' }]);
    expect(text(el)).to.contain('Envio cancelado');
    expect([...root(el).querySelectorAll<HTMLImageElement>('img[part~=thumbnail]')].map((i) => i.src)).to.deep.equal(thumbs);

    await controlDouble(ns, { holdUploads: false });
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    // Dropped after upload: every object URL the element made is revoked.
    for (const url of thumbs) expect(await isRevoked(url), url).to.equal(true);
  });

  it('REFUSED (real companion and sandbox): the refusal, and no reason the upstream did not give', async function () {
    this.timeout(90_000);
    const { el, events } = await mount({ companion: 'real' });
    await reachReviewWithFiles(el, CPF.refused);
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('REFUSED');
    expect(heading(el).textContent).to.equal('Verificação não aprovada');
    // The upstream's onboarding report carries no reason: the page shows none rather than invent one.
    expect(root(el).querySelector('[data-reason]')).to.equal(null);
    expect(events.find((e) => e.type === 'onboarding-complete')!.detail.status).to.equal('REFUSED');
    await expect(el).to.be.accessible();
  });

  it('REFUSED shows the reason when the companion gives one', async function () {
    this.timeout(90_000);
    // The contract's optional `message`: the real companion has none to give today, so the double plays it.
    const { el, events } = await mount();
    await reachReviewWithFiles(el, CPF.refused);
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('REFUSED');
    expect(root(el).querySelector('[data-reason]')!.textContent).to.equal('Motivo: Documento com sinais de adulteração');
    expect(events.find((e) => e.type === 'onboarding-complete')!.detail.status).to.equal('REFUSED');
    await expect(el).to.be.accessible();
  });

  onlyIn(['chromium'], NOT_IN.playwrightCommands)(
    'ERROR shows a support code for the onboarding, with a copy button; the event keeps the externalId',
    async function () {
      this.timeout(90_000);
      const { el, ns, events } = await mount({ companion: 'real' });
      await reachReviewWithFiles(el, CPF.error);
      await click(el, 'Enviar');
      await waitForStep(el, 'outcome');
      expect(outcomeStatus(el)).to.equal('ERROR');
      // The sandbox makes up a new externalId for each failed onboarding; the page shows the one the companion holds.
      const { token, accessKey } = await createdIn(ns);
      const externalId = (await realState(ns, token, accessKey)).externalId!;
      expect(externalId).to.match(/^[0-9a-f-]{36}$/);
      const code = supportCodeOf(token);
      expect(root(el).querySelector('[data-support-code]')!.textContent).to.equal(code);
      const complete = events.find((e) => e.type === 'onboarding-complete')!.detail;
      expect(complete.status).to.equal('ERROR');
      expect(complete.externalId).to.equal(externalId);
      await expect(el).to.be.accessible();
      // With the permission granted the copy must work, and the clipboard is read back for real:
      // it holds something else first, so only the button's copy can put the code there.
      await executeServerCommand('clipboard-permission', { grant: true });
      await navigator.clipboard.writeText('not the support code');
      await click(el, 'Copiar código');
      await waitFor(() => /Código copiado|Não foi possível copiar/.test(text(el)), 'no copy feedback');
      expect(root(el).querySelector('.outcome [role=status]')!.textContent).to.equal('Código copiado.');
      expect(await navigator.clipboard.readText()).to.equal(code);
    },
  );

  it('falls back to polling when the status stream fails', async function () {
    this.timeout(60_000);
    const { el, ns } = await mount();
    await controlDouble(ns, { events: 'fail' });
    await reachReviewWithFiles(el, CPF.refused);
    await click(el, 'Enviar');
    await waitForStep(el, 'processing');
    await expect(el).to.be.accessible();
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('REFUSED');
    const state = await doubleState(ns);
    const token = state.onboardings[0]!.token;
    expect(state.requests.filter((r) => r.url.endsWith(`/onboardings/${token}`)).length).to.be.greaterThan(0);
  });

  it('falls back to polling when the stream ends without a final status', async function () {
    this.timeout(60_000);
    const { el, ns, events } = await mount();
    await controlDouble(ns, { events: 'end-early', processingMs: 800 });
    await reachReviewWithFiles(el, CPF.error);
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('ERROR');
    const state = await doubleState(ns);
    expect(state.requests.filter((r) => r.url.endsWith('/events')).length).to.equal(1);
    expect(state.requests.filter((r) => r.method === 'GET' && !r.url.endsWith('/events')).length).to.be.greaterThan(0);
    expect(everythingVisible(el, events)).to.not.contain(state.onboardings[0]!.accessKey);
  });

  onlyIn(['chromium'], NOT_IN.playwrightCommands)(
    'manual review: the processing screen keeps waiting with the live status, until the decision',
    async function () {
      this.timeout(60_000);
      // The sandbox's manual-review identity stays IN_PROCESS until someone decides.
      const { el, ns, events } = await mount({ companion: 'real' });
      await reachReviewWithFiles(el, CPF.manual);
      await click(el, 'Enviar');
      await waitForStep(el, 'processing');
      await waitFor(() => text(el).includes('em análise'), 'no live status');
      const { token, accessKey } = await createdIn(ns);
      expect((await realState(ns, token, accessKey)).status).to.equal('IN_PROCESS');
      expect(hasButton(el, 'Voltar')).to.equal(false);
      await expect(el).to.be.accessible();
      // The spinner turns only for people who have not asked for reduced motion.
      const spinner = root(el).querySelector<HTMLElement>('.spinner')!;
      await emulateMedia({ reducedMotion: 'no-preference' });
      expect(getComputedStyle(spinner).animationName).to.equal('spin');
      await emulateMedia({ reducedMotion: 'reduce' });
      expect(getComputedStyle(spinner).animationName).to.equal('none');
      await emulateMedia({ reducedMotion: 'no-preference' });
      expect(stepOf(el)).to.equal('processing');
      // The reviewer's decision reaches the waiting screen.
      await decide(token, 'APPROVED');
      await waitForStep(el, 'outcome');
      expect(outcomeStatus(el)).to.equal('APPROVED');
      expect(events.find((e) => e.type === 'onboarding-complete')!.detail).to.deep.equal({ tokenOnboarding: token, status: 'APPROVED' });
    },
  );

  it('moving the element in the DOM while processing resumes the status watch', async function () {
    this.timeout(60_000);
    const { el, ns } = await mount({ companion: 'real' });
    await reachReviewWithFiles(el, CPF.manual);
    await click(el, 'Enviar');
    await waitForStepOnStack(el, 'processing', ns);
    await waitFor(() => text(el).includes('em análise'), 'no live status');
    const { token } = await createdIn(ns);
    const elsewhere = document.createElement('div');
    document.body.append(elsewhere);
    elsewhere.append(el);
    try {
      // Decided only after the move: the outcome can come through nothing but the resumed watch.
      await decide(token, 'REFUSED');
      await waitForStep(el, 'outcome');
      expect(outcomeStatus(el)).to.equal('REFUSED');
    } finally {
      elsewhere.remove();
    }
  });

  it('a photo the companion refuses leads straight to retaking that photo', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount();
    await reachReviewWithFiles(el);
    await controlDouble(ns, {
      failUploads: {
        status: 400,
        error: { code: 'invalid_image', message: 'images.selfie is not a JPEG or PNG image.', field: 'images.selfie' },
      },
    });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await controlDouble(ns, { failUploads: null });
    expect(errorText(el)).to.contain('Refaça a foto indicada');
    expect(events.find((e) => e.type === 'onboarding-error')!.detail).to.deep.include({ code: 'invalid_image' });
    await click(el, 'Refazer a foto');
    await waitForStep(el, 'selfie');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    expect(outcomeStatus(el)).to.equal('APPROVED');
  });

  it('an upstream error with an externalId shows its support code, and the CPF can be corrected', async function () {
    this.timeout(90_000);
    const { el, ns, events } = await mount();
    await reachReviewWithFiles(el);
    await controlDouble(ns, {
      failUploads: { status: 400, error: { code: 'invalid_cpf', message: 'CPF refused upstream.', field: 'cpf', externalId: 'EXT-UP-1' } },
    });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    expect(errorText(el)).to.contain('recusou o CPF');
    expect(root(el).querySelector('[data-support-code]')!.textContent).to.equal(supportCodeOf('EXT-UP-1'));
    expect(events.find((e) => e.type === 'onboarding-error')!.detail).to.deep.equal({
      code: 'invalid_cpf',
      message: errorText(el),
      externalId: 'EXT-UP-1',
    });
    await expect(el).to.be.accessible();
    await click(el, 'Corrigir o CPF');
    await waitForStep(el, 'cpf');
  });
});
