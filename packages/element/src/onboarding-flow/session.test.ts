/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  button,
  cleanupListeners,
  click,
  companionNamespace,
  controlDouble,
  doubleState,
  errorText,
  everythingVisible,
  hasButton,
  heading,
  mount,
  passCpf,
  passIntro,
  pickFile,
  preview,
  root,
  stepOf,
  text,
  waitFor,
  waitForStep,
  type DoubleSession,
  type Mounted,
  type MountOptions,
  photoFor,
  faceJpeg,
} from './test-helpers.js';

afterEach(() => cleanupListeners());

/** A client secret as the companion issues them: long and random, so a leak cannot be a coincidence. */
const newSecret = () => `cs_${crypto.getRandomValues(new Uint8Array(24)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '')}`;

/** A namespace of the double holding one session; the element is mounted on it with that session's secret. */
async function mountWithSession(
  session: Partial<DoubleSession> = {},
  options: MountOptions = {},
): Promise<Mounted & { secret: string; sessionId: string }> {
  const ns = companionNamespace();
  const secret = newSecret();
  const sessionId = session.id ?? `ses_${ns}`;
  await controlDouble(ns, { sessions: [{ clientSecret: secret, id: sessionId, ...session }] });
  const mounted = await mount({ ns, session: secret, ...options });
  return { ...mounted, secret, sessionId };
}

/** The fake camera's picture encoded at another quality: a different photo, as good as the first. */

const cpfInput = (el: OnboardingFlow) => root(el).querySelector<HTMLInputElement>('#cpf')!;
const sessionError = (el: OnboardingFlow) => root(el).querySelector<HTMLElement>('#session-error');
const errorCodes = (events: CustomEvent[]) => events.filter((e) => e.type === 'onboarding-error').map((e) => e.detail.code as string);

/** The intro's list of what the person needs: shown once the session is read and usable. */
const intro = (el: OnboardingFlow) => root(el).querySelector('[part~=intro-needs]');

/** Waits for the intro to be usable (the session read), passes it, then ticks the consent and continues. */
async function consentAfterSession(el: OnboardingFlow, continueLabel: string): Promise<void> {
  await passIntro(el);
  root(el).querySelector<HTMLInputElement>('#consent')!.click();
  await el.updateComplete;
  await click(el, continueLabel);
  await waitForStep(el, 'cpf');
}

/** From the locked CPF step: continue, (choose the type when several), photos from files, review. */
async function reviewFromCpf(
  el: OnboardingFlow,
  type: string | null,
  labels = { continue: 'Continuar', use: 'Usar esta foto' },
): Promise<void> {
  root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
  await waitForStep(el, 'document-type');
  if (type) root(el).querySelector<HTMLInputElement>(`#doctype-${type}`)!.click();
  await el.updateComplete;
  await click(el, labels.continue);
  await waitForStep(el, 'document-front');
  for (const step of ['document-front', 'document-back', 'selfie']) {
    await waitForStep(el, step);
    await pickFile(el, await photoFor(el));
    if (!preview(el)) throw new Error(`photo refused on ${step}: ${errorText(el)}`);
    await click(el, labels.use);
  }
  await waitForStep(el, 'review');
}

describe('<onboarding-flow session>', () => {
  it('is busy while the session loads, then prefills the name, locks the CPF, offers the session documents in its locale', async function () {
    this.timeout(60_000);
    const ns = companionNamespace();
    const secret = newSecret();
    await controlDouble(ns, {
      holdSession: true,
      sessions: [
        { clientSecret: secret, prefill: { cpf: '52998224725', name: 'Maria Silva' }, documentTypes: ['RG', 'PASSPORT'], locale: 'en' },
      ],
    });
    const { el, events } = await mount({ ns, session: secret, locale: null, cpf: CPF.refused });
    el.start();
    await el.updateComplete;

    // Loading: the step says it is busy, and nothing lets the person start yet.
    const section = root(el).querySelector('section[data-step]')!;
    expect(section.getAttribute('aria-busy')).to.equal('true');
    expect(root(el).querySelector('[role=status]')!.textContent).to.contain('Carregando os dados da sua verificação');
    expect(intro(el)).to.equal(null);
    expect(root(el).querySelectorAll('button')).to.have.length(0);
    await expect(el).to.be.accessible();

    await controlDouble(ns, { holdSession: false });
    await waitFor(() => !!intro(el), 'the intro never came');
    expect(section.getAttribute('aria-busy')).to.equal('false');
    // The session's locale applies: the integrator did not set one.
    expect(el.locale).to.equal('en');
    expect(heading(el).textContent).to.equal('Before you start');
    expect(root(el).querySelector('.base')!.getAttribute('lang')).to.equal('en');
    // The intro names the session's documents, not the attribute's.
    expect(intro(el)!.textContent).to.contain('An identity document with a photo: RG or Passport');

    await consentAfterSession(el, 'Continue');
    const input = cpfInput(el);
    // The session's CPF replaces the attribute's, masked as the companion shows it, locked:
    // read-only for everyone, and said so.
    expect(input.value).to.equal('***.982.247-**');
    expect(input.readOnly).to.equal(true);
    expect(input.getAttribute('aria-readonly')).to.equal('true');
    const hint = root(el).getElementById('cpf-hint')!;
    expect(input.getAttribute('aria-describedby')).to.contain('cpf-hint');
    expect(hint.textContent).to.contain('Provided by the service that asked for this verification');
    // The first name only: the companion shows a page no more of the person.
    expect(root(el).querySelector<HTMLInputElement>('#name')!.value).to.equal('Maria');
    await expect(el).to.be.accessible();
    const shot = await executeServerCommand<string, { name: string }>('screenshot', { name: 'session-locked-cpf' });
    console.log(`locked CPF step: ${shot}`);

    // A readonly field takes no typing; an input event that slipped through changes nothing either.
    input.focus();
    input.value = '111';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: '1' }));
    await el.updateComplete;
    expect(input.value).to.equal('***.982.247-**');

    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitForStep(el, 'document-type');
    // Only the session's documents, not the attribute's CNH,RG.
    const offered = [...root(el).querySelectorAll<HTMLInputElement>('input[type=radio]')].map((r) => r.value);
    expect(offered).to.deep.equal(['RG', 'PASSPORT']);
    expect(errorCodes(events)).to.deep.equal([]);
  });

  it('a locale the integrator set wins over the session locale', async function () {
    this.timeout(30_000);
    const { el } = await mountWithSession({ locale: 'en', prefill: { cpf: '52998224725' } }, { locale: 'es' });
    await waitFor(() => !!intro(el), 'the intro never came');
    expect(el.locale).to.equal('es');
    expect(heading(el).textContent).to.equal('Antes de empezar');
    // Removing the attribute hands the choice back to the session.
    el.removeAttribute('locale');
    await el.updateComplete;
    expect(el.locale).to.equal('en');
    expect(heading(el).textContent).to.equal('Before you start');
  });

  it('a session the service provider cancelled: its own heading and words, onboarding-error session_cancelled, no way into the flow', async function () {
    this.timeout(30_000);
    const { el, events } = await mountWithSession({ status: 'cancelled' });
    await waitFor(() => !!sessionError(el), `no session error: ${text(el).slice(0, 300)}`);
    const error = sessionError(el)!;
    expect(error.getAttribute('data-session-problem')).to.equal('cancelled');
    expect(error.getAttribute('role')).to.equal('alert');
    expect(error.textContent).to.contain('Quem pediu esta verificação a cancelou');
    expect(heading(el).textContent).to.equal('Esta verificação foi cancelada');
    expect(intro(el)).to.equal(null);
    expect(root(el).querySelectorAll('button')).to.have.length(0);
    expect(errorCodes(events)).to.deep.equal(['session_cancelled']);
    await expect(el).to.be.accessible();
  });

  for (const [name, setup, code, message] of [
    ['an unknown secret (401)', null, 'session_invalid', 'Este link de verificação não é válido'],
    [
      'an expired session',
      { expiresAt: new Date(Date.now() - 60_000).toISOString() },
      'session_expired',
      'Este link de verificação expirou',
    ],
    ['a session already used', { status: 'submitted' }, 'session_used', 'Este link de verificação já foi usado'],
  ] as const) {
    it(`${name}: a specific message in the error part, onboarding-error ${code}, no way into the flow`, async function () {
      this.timeout(30_000);
      let mounted: Mounted;
      if (setup) {
        mounted = await mountWithSession(setup);
      } else {
        const ns = companionNamespace();
        await controlDouble(ns, { sessions: [{ clientSecret: newSecret() }] });
        mounted = await mount({ ns, session: newSecret() });
      }
      const { el, events } = mounted;
      await waitFor(() => !!sessionError(el), `no session error: ${text(el).slice(0, 300)}`);
      const error = sessionError(el)!;
      expect(error.getAttribute('part')).to.contain('error');
      expect(error.getAttribute('role')).to.equal('alert');
      expect(error.textContent).to.contain(message);
      expect(heading(el).textContent).to.equal('Não é possível continuar');
      expect(intro(el)).to.equal(null);
      expect(root(el).querySelectorAll('button')).to.have.length(0);
      expect(root(el).querySelector('section[data-step]')!.getAttribute('aria-busy')).to.equal('false');
      expect(errorCodes(events)).to.deep.equal([code]);
      expect(events.find((e) => e.type === 'onboarding-error')!.detail.message).to.contain(message);
      await expect(el).to.be.accessible();
    });
  }

  it('a session that cannot be read (network failure) offers Try again, which then loads it', async function () {
    this.timeout(30_000);
    const ns = companionNamespace();
    const secret = newSecret();
    await controlDouble(ns, { failSession: 'destroy', sessions: [{ clientSecret: secret, prefill: { cpf: '52998224725' } }] });
    const { el, events } = await mount({ ns, session: secret });
    await waitFor(() => !!sessionError(el), 'no session error');
    expect(sessionError(el)!.textContent).to.contain('Não foi possível carregar a sua verificação');
    expect(heading(el).textContent).to.equal('Verificação indisponível');
    expect(errorCodes(events)).to.deep.equal(['session_unavailable']);
    await controlDouble(ns, { failSession: null });
    await click(el, 'Tentar novamente');
    await waitFor(() => !!intro(el), 'the intro never came after Try again');
    expect(heading(el).textContent).to.equal('Antes de começar');
    await consentAfterSession(el, 'Continuar');
    expect(cpfInput(el).readOnly).to.equal(true);
  });

  it('creates with the Bearer secret and an Idempotency-Key; a retry after a lost answer reuses the key and makes no second onboarding', async function () {
    this.timeout(120_000);
    const { el, ns, events, secret, sessionId } = await mountWithSession({
      prefill: { cpf: '52998224725', name: 'Maria Silva' },
      documentTypes: ['CNH'],
    });
    await consentAfterSession(el, 'Continuar');
    await reviewFromCpf(el, null);

    // The companion creates the onboarding, but the answer is lost on the way.
    await controlDouble(ns, { failUploads: 'drop-after-create' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await controlDouble(ns, { failUploads: null });
    expect(errorText(el)).to.contain('Sem conexão com o servidor');
    expect(hasButton(el, 'Corrigir o CPF')).to.equal(false);
    await click(el, 'Tentar novamente');
    await waitForStep(el, 'outcome');

    const state = await doubleState(ns);
    // The browser itself may repeat a cut request once; every attempt carries the same headers.
    expect(state.attempts.length).to.be.at.least(2);
    const [first] = state.attempts;
    expect(first!.authorization).to.equal(`Bearer ${secret}`);
    expect(first!.idempotencyKey).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const attempt of state.attempts) expect(attempt).to.deep.equal(first);
    // One onboarding: the retry was answered with the one the lost answer carried.
    expect(state.onboardings).to.have.length(1);
    expect(state.uploads).to.have.length(1);
    // No CPF: the page holds only the masked one, and the companion takes the session's own.
    expect(state.uploads[0]!.body).to.include({ name: 'Maria', documentType: 'CNH' });
    expect(state.uploads[0]!.body.cpf).to.equal(undefined);
    expect(state.sessions).to.deep.equal([{ id: sessionId, status: 'submitted', tokenOnboarding: state.onboardings[0]!.token }]);
    const submitted = events.filter((e) => e.type === 'onboarding-submitted');
    expect(submitted.map((e) => e.detail.tokenOnboarding)).to.deep.equal([state.onboardings[0]!.token]);
    expect(root(el).querySelector('[data-status]')!.getAttribute('data-status')).to.equal('APPROVED');
    // The session is spent: starting over could only be refused.
    expect(hasButton(el, 'Começar de novo')).to.equal(false);

    // Nothing an integrator can read holds the secret, except the attribute it set itself.
    el.removeAttribute('session');
    const seen = everythingVisible(el, events);
    expect(seen).not.to.contain(secret);
  });

  it('a new photo after a failure is new content: a new Idempotency-Key', async function () {
    this.timeout(120_000);
    const { el, ns } = await mountWithSession({ prefill: { cpf: '52998224725' }, documentTypes: ['CNH'] });
    await consentAfterSession(el, 'Continuar');
    await reviewFromCpf(el, null);
    await controlDouble(ns, { failUploads: 'http-503' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    await click(el, 'Tentar novamente');
    await waitFor(() => errorText(el) !== '', 'no second upload error');
    await controlDouble(ns, { failUploads: null });
    await click(el, 'Voltar às fotos');
    await waitForStep(el, 'review');
    button(el, 'Refazer: Selfie').click();
    await waitForStep(el, 'selfie');
    await pickFile(el, await faceJpeg('other.jpg', 0.8));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    const { attempts, uploads } = await doubleState(ns);
    const keys = attempts.map((a) => a.idempotencyKey);
    expect(keys).to.have.length(3);
    // The same content twice, one key; the changed content, another.
    expect(keys[1]).to.equal(keys[0]);
    expect(keys[2]).not.to.equal(keys[0]);
    expect(uploads.map((u) => u.headers.idempotencyKey)).to.deep.equal([keys[2]]);
  });

  for (const [name, change, code, message] of [
    ['used by another page meanwhile (409 session_used)', { status: 'submitted' }, 'session_used', 'Esta verificação já foi enviada'],
    [
      'expired before the upload (410 session_expired)',
      { expiresAt: new Date(Date.now() - 1000).toISOString() },
      'session_expired',
      'Este link de verificação expirou',
    ],
  ] as const) {
    it(`a session ${name}: a specific message and nothing to retry`, async function () {
      this.timeout(120_000);
      const { el, ns, events, sessionId } = await mountWithSession({ prefill: { cpf: '52998224725' }, documentTypes: ['CNH'] });
      await consentAfterSession(el, 'Continuar');
      await reviewFromCpf(el, null);
      await controlDouble(ns, { sessionStatus: { id: sessionId, ...change } });
      await click(el, 'Enviar');
      await waitFor(() => errorText(el) !== '', 'no upload error');
      expect(errorText(el)).to.contain(message);
      expect(root(el).querySelector('#upload-error')!.getAttribute('part')).to.equal('error');
      expect(root(el).querySelectorAll('button')).to.have.length(0);
      expect(errorCodes(events)).to.deep.equal([code]);
      expect((await doubleState(ns)).onboardings).to.have.length(0);
      await expect(el).to.be.accessible();
    });
  }

  it('a CNPJ session: the CNPJ is shown masked and locked under its own label, left for the companion to fill; a mismatch is told specifically', async function () {
    this.timeout(120_000);
    const { el, ns, events } = await mountWithSession({ prefill: { cnpj: '11222333000181' }, documentTypes: ['CNH'] });
    await consentAfterSession(el, 'Continuar');
    expect(root(el).querySelector('label[for=cpf]')!.textContent).to.equal('CNPJ');
    expect(heading(el).textContent).to.equal('Seu CNPJ');
    expect(cpfInput(el).value).to.equal('**.222.333/0001-**');
    expect(cpfInput(el).readOnly).to.equal(true);
    await reviewFromCpf(el, null);
    await controlDouble(ns, {
      failUploads: {
        status: 400,
        error: { code: 'session_mismatch', message: 'This session accepts only these documents: RG.', field: 'documentType' },
      },
    });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    expect(errorText(el)).to.contain('não correspondem aos informados pelo serviço');
    expect(errorCodes(events)).to.deep.equal(['session_mismatch']);
    // Sending the same again cannot help; going back can.
    expect(hasButton(el, 'Tentar novamente')).to.equal(false);
    expect(hasButton(el, 'Voltar às fotos')).to.equal(true);
    await controlDouble(ns, { failUploads: null });
    await click(el, 'Voltar às fotos');
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    const { uploads } = await doubleState(ns);
    expect(uploads[0]!.body.cnpj).to.equal(undefined);
    expect(uploads[0]!.body.cpf).to.equal(undefined);
  });

  it('a secret set as a property is never reflected, and appears in no event, attribute or rendered text', async function () {
    this.timeout(120_000);
    const { el, ns, events, secret } = await mountWithSession(
      { prefill: { cpf: '52998224725' }, documentTypes: ['CNH'] },
      { sessionAs: 'property' },
    );
    expect(el.session).to.equal(secret);
    expect(el.hasAttribute('session')).to.equal(false);
    await consentAfterSession(el, 'Continuar');
    await reviewFromCpf(el, null);
    await controlDouble(ns, {
      failUploads: { status: 409, error: { code: 'session_used', message: 'This session has already been used for an onboarding.' } },
    });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'no upload error');
    expect(errorCodes(events)).to.deep.equal(['session_used']);
    expect(everythingVisible(el, events)).not.to.contain(secret);
    // A wrong secret set later is another session: the flow starts over and says it is not valid.
    el.session = newSecret();
    await waitFor(() => !!sessionError(el), 'no session error after the secret changed');
    expect(stepOf(el)).to.equal('intro');
    expect(errorCodes(events)).to.deep.equal(['session_used', 'session_invalid']);
    expect(everythingVisible(el, events)).not.to.contain(el.session);
  });

  it('without a session: no session read and no Authorization, but an Idempotency-Key on the creation all the same', async function () {
    this.timeout(120_000);
    const { el, ns } = await mount();
    expect(intro(el)).not.to.equal(null);
    await consentAfterSession(el, 'Continuar');
    expect(cpfInput(el).readOnly).to.equal(false);
    await passCpf(el, CPF.approved);
    root(el).querySelector<HTMLInputElement>('#doctype-CNH')!.click();
    await el.updateComplete;
    await click(el, 'Continuar');
    for (const step of ['document-front', 'document-back', 'selfie']) {
      await waitForStep(el, step);
      await pickFile(el, await photoFor(el));
      await click(el, 'Usar esta foto');
    }
    await waitForStep(el, 'review');
    await click(el, 'Enviar');
    await waitForStep(el, 'outcome');
    const state = await doubleState(ns);
    expect(state.sessionReads).to.equal(0);
    expect(hasButton(el, 'Começar de novo')).to.equal(true);
    expect(state.attempts).to.have.length(1);
    expect(state.attempts[0]!.authorization).to.equal(null);
    expect(state.attempts[0]!.idempotencyKey).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
