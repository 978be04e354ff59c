/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The hand-off from computer to phone (the `handoff` attribute, docs/page-api.md#hand-off), on the
 * real companion and sandbox over loopback: the computer's element offers a QR code (decoded here
 * from the rendered SVG) and a short code; a phone claims it (by the link the QR holds, or the
 * code) and, as a second `<onboarding-flow>` bound to the phone's own secret, goes through the flow
 * while the computer follows its progress and then shows the outcome; the computer takes the
 * session back and the phone says the session went on elsewhere; a reload of the computer while a
 * phone holds the session opens straight in the following panel. Screenshots at 1366x768 and
 * 390x844.
 */
import { NOT_IN, currentEngine, onlyIn } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import decodeQR from 'qr/decode.js';
import { formatHandoffCode, type HandoffClaim } from '@onboarding-kit/contract';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  button,
  chooseType,
  cleanupListeners,
  click,
  companionNamespace,
  hasButton,
  heading,
  CPF,
  mount,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  realEndpoint,
  realRecord,
  root,
  stepOf,
  text,
  waitFor,
  waitForStep,
  type Mounted,
} from './test-helpers.js';

afterEach(async () => {
  cleanupListeners();
  sessionStorage.clear();
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 768 });
});

interface OpenedSession {
  id: string;
  clientSecret: string;
  captureToken: string;
}

/** A session opened by the integrator's backend on the real companion (the API key stays in the runner). */
function openSession(): Promise<OpenedSession> {
  return executeServerCommand<OpenedSession, Record<string, unknown>>('stack-session', {
    reference: `handoff-${companionNamespace()}`,
    cpf: '52998224725',
    name: 'Maria Silva',
  });
}

type Panel = HTMLElement & { updateComplete: Promise<boolean> };
const panel = (el: OnboardingFlow): Panel | null => root(el).querySelector<Panel>('onboarding-handoff-panel');
const panelRoot = (el: OnboardingFlow): ShadowRoot => panel(el)!.shadowRoot!;
const panelText = (el: OnboardingFlow): string => (panel(el)?.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');
const live = (el: OnboardingFlow): string => root(el).querySelector('[aria-live=polite]')!.textContent!;
const qr = (el: OnboardingFlow): SVGSVGElement | null =>
  panel(el)?.shadowRoot?.querySelector<SVGSVGElement>('svg[part~=handoff-qr]') ?? null;
const shownCode = (el: OnboardingFlow): string => panelRoot(el).querySelector('[part~=handoff-code]')!.textContent!.trim();
const panelButton = (el: OnboardingFlow, label: string): HTMLButtonElement => {
  const found = [...panelRoot(el).querySelectorAll('button')].find((b) => b.textContent!.trim() === label);
  if (!found) throw new Error(`no panel button "${label}"; panel: ${panelText(el)}`);
  return found;
};
const handoffStates = (events: CustomEvent[]): string[] =>
  events.filter((e) => e.type === 'onboarding-handoff').map((e) => e.detail.state as string);

/**
 * What an element last focused inside itself, and on which step. The computer and the phone share
 * this one page, and so one focus: a device's focus is read from its own focus events, since the
 * other device may take the page's focus a moment later.
 */
function lastFocus(el: OnboardingFlow): () => { step: string; target: EventTarget | undefined } | null {
  // Where this device's focus already is counts too: its heading may keep focus across a render
  // (no focusin) before the other device's page takes it.
  const already = root(el).activeElement;
  let last: { step: string; target: EventTarget | undefined } | null = already ? { step: stepOf(el), target: already } : null;
  root(el).addEventListener('focusin', (e) => (last = { step: stepOf(el), target: e.composedPath()[0] }));
  return () => last;
}

/** Decodes the QR code as drawn: the rendered SVG, rasterised at 8 px a module, read by a QR decoder. */
async function decodeShownQr(svg: SVGSVGElement): Promise<string> {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const side = 8 * svg.viewBox.baseVal.width;
  copy.setAttribute('width', String(side));
  copy.setAttribute('height', String(side));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(copy)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(image, 0, 0, side, side);
    const { data } = ctx.getImageData(0, 0, side, side);
    return decodeQR({ width: side, height: side, data });
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function claim(ns: string, body: { token: string } | { code: string }): Promise<Response> {
  return fetch(`${await realEndpoint(ns)}/v1/handoff/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function claimOk(ns: string, body: { token: string } | { code: string }): Promise<HandoffClaim> {
  const res = await claim(ns, body);
  if (res.status !== 200) throw new Error(`claim: ${res.status} ${await res.text()}`);
  return res.json() as Promise<HandoffClaim>;
}

/** The computer's element on a session, with the hand-off on. */
async function mountComputer(session: OpenedSession, ns = companionNamespace()): Promise<Mounted> {
  const mounted = await mount({ companion: 'real', ns, session: session.clientSecret });
  mounted.el.handoff = true;
  return mounted;
}

/** From the intro to the document's front: consent, the session's locked CPF, CNH. */
async function toDocumentFront(el: OnboardingFlow): Promise<void> {
  await passConsent(el);
  root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
  await waitForStep(el, 'document-type');
  await chooseType(el, 'CNH');
}

/** Presses "Continuar no celular" and waits for the QR code. */
async function offer(el: OnboardingFlow): Promise<void> {
  await click(el, 'Continuar no celular');
  await waitFor(() => !!qr(el), `no QR code (${text(el).slice(0, 300)} | ${panelText(el)})`);
  await panel(el)!.updateComplete;
}

async function waitForPanel(el: OnboardingFlow, words: string, timeout = 15_000, ns?: string, secret?: string): Promise<void> {
  try {
    await waitFor(() => panelText(el).includes(words), `the panel never said "${words}": ${panelText(el)}`, timeout);
  } catch (error) {
    // What the pages sent meanwhile, and what the session's log holds, to tell where a line was lost.
    const shown = panel(el)?.shadowRoot;
    const status = shown?.querySelector('[part~=handoff-status]')?.textContent?.replace(/\s+/g, ' ').trim();
    console.log(
      `panel: ${JSON.stringify({ phase: shown?.querySelector<HTMLElement>('[part~=handoff]')?.dataset.phase, progress: status, offline: !!shown?.querySelector('[part~=offline]') })}`,
    );
    if (ns) console.log(JSON.stringify((await realRecord(ns)).requests.map((r) => `${r.method} ${r.url.replace(/^.*\/v1/, '')}`)));
    if (ns && secret) {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 1500);
      const res = await fetch(`${await realEndpoint(ns)}/v1/session/events`, {
        headers: { authorization: `Bearer ${secret}` },
        signal: ac.signal,
      });
      let log = '';
      try {
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          log += value;
        }
      } catch {
        // cut after 1.5 s
      }
      console.log(`session log: ${log.match(/^event: .*$/gm)?.join(' | ')}`);
    }
    throw error;
  }
}

describe('<onboarding-flow handoff>', () => {
  it('offers a QR code of the link and the short code; the phone claims it, its progress shows, and its outcome shows on the computer', async function () {
    this.timeout(90_000);
    const session = await openSession();
    const { el, events, ns } = await mountComputer(session);
    await toDocumentFront(el);
    // A camera is here: the hand-off is one more choice, after the camera's and the files'.
    const start = root(el).querySelector<HTMLButtonElement>('[part~=handoff-start]')!;
    expect(start.textContent!.trim()).to.equal('Continuar no celular');
    expect(start.classList.contains('primary')).to.equal(false);
    const actions = [...root(el).querySelectorAll('[part~=actions] > *')];
    expect(actions.indexOf(start)).to.equal(actions.length - 1);

    await offer(el);
    expect(stepOf(el)).to.equal('handoff');
    expect(heading(el).textContent).to.equal('Continuar no celular');
    expect(root(el).activeElement, 'focus on the panel heading').to.equal(heading(el));
    expect(root(el).querySelector('[part~=stages]')).to.equal(null);
    await waitFor(() => live(el).includes('Código gerado'), `not announced: ${live(el)}`);
    expect(handoffStates(events)).to.deep.equal(['offered']);

    // The QR code holds the link: decoded from what is drawn, it is the companion's /h/<token>.
    const link = await decodeShownQr(qr(el)!);
    const base = new URL(await realEndpoint(ns));
    expect(link).to.match(/\/h\/[A-Za-z0-9_-]{32}$/);
    expect(new URL(link).origin).to.equal(base.origin);
    const code = shownCode(el);
    expect(code).to.match(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(formatHandoffCode(code.replace('-', ''))).to.equal(code);
    expect(panelText(el)).to.include(`${base.origin}/h`.replace(/^https:\/\//, ''));
    expect(panelText(el)).to.match(/O código vale por mais (9:[0-5]\d|10:00)\./);
    expect(panelText(el)).to.include('Aguardando o celular');
    // Black on white, with a margin of four modules around the code.
    const box = qr(el)!.viewBox.baseVal;
    expect(box.x).to.equal(-4);
    expect(qr(el)!.getBoundingClientRect().width, 'big enough to scan').to.be.at.least(200);
    await expect(el).to.be.accessible();

    if (currentEngine() !== 'webkit') {
      for (const [name, width, height] of [
        ['1366', 1366, 768],
        ['390', 390, 844],
      ] as const) {
        await setViewport({ width, height });
        await el.updateComplete;
        expect(document.scrollingElement!.scrollWidth, `sideways scroll at ${name}`).to.be.at.most(document.documentElement.clientWidth);
        console.log(
          `hand-off offer @ ${name}: ${await executeServerCommand<string, { name: string }>('screenshot', { name: `handoff-offer-${name}` })}`,
        );
      }
      await setViewport({ width: 1366, height: 768 });
    }

    // The phone uses the link the QR code holds, and gets a secret of its own.
    const phoneClaim = await claimOk(ns, { token: link.slice(link.lastIndexOf('/') + 1) });
    await waitForPanel(el, 'Celular conectado');
    expect(qr(el), 'the used link is gone').to.equal(null);
    await waitFor(() => live(el).includes('Celular conectado'), `not announced: ${live(el)}`);
    expect(heading(el).textContent).to.equal('Verificação em andamento no celular');
    expect(handoffStates(events)).to.deep.equal(['offered', 'claimed']);

    // The phone: its own element, bound to its own secret, goes through the flow.
    const phone = await mount({ companion: 'real', ns, session: phoneClaim.clientSecret });
    // The computer's consent and document type came with the session: the phone resumes at the first photo.
    await waitForStep(phone.el, 'document-front');
    await waitForPanel(el, 'No celular: frente do documento', 15_000, ns, session.clientSecret);
    await pickFile(phone.el, await photoFor(phone.el));
    await waitFor(() => !!panelRoot(el).querySelector('[data-photo=documentFront]'), `no photo line: ${panelText(el)}`);
    expect(panelText(el)).to.include('Frente do documento: tirada');
    await waitFor(() => live(el).includes('Frente do documento: foto tirada.'), `not announced: ${live(el)}`);
    await click(phone.el, 'Usar esta foto');
    for (const step of ['document-back', 'selfie']) {
      await waitForStep(phone.el, step);
      await pickFile(phone.el, await photoFor(phone.el));
      await click(phone.el, 'Usar esta foto');
    }
    await waitForStep(phone.el, 'review');
    await waitForPanel(el, 'No celular: revisão das fotos');
    expect(panelRoot(el).querySelectorAll('[data-photo]')).to.have.length(3);
    await expect(el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      console.log(
        `hand-off following: ${await executeServerCommand<string, { name: string }>('screenshot', { name: 'handoff-following-1366' })}`,
      );
    }

    // The first frame of the computer's outcome, as a person sees it: its words come with its heading.
    let firstOutcome: string | null = null;
    const watch = new MutationObserver(() => {
      if (firstOutcome === null && root(el).querySelector('[data-status]'))
        firstOutcome = root(el).querySelector('[data-status]')!.textContent!.replace(/\s+/g, ' ');
    });
    watch.observe(root(el), { childList: true, subtree: true, characterData: true });
    const focused = lastFocus(el);
    await click(phone.el, 'Enviar');
    await waitForStep(phone.el, 'outcome', 30_000);
    // The computer shows the same outcome as if it had sent the photos itself.
    await waitForStep(el, 'outcome', 30_000);
    watch.disconnect();
    expect(firstOutcome, 'the outcome first showed without its words').to.include('Tudo certo! Sua identidade foi confirmada.');
    expect(heading(el).textContent).to.equal('Identidade verificada');
    const complete = events.find((e) => e.type === 'onboarding-complete')!;
    expect(complete.detail.status).to.equal('APPROVED');
    expect(complete.detail.tokenOnboarding).to.equal(phone.events.find((e) => e.type === 'onboarding-complete')!.detail.tokenOnboarding);
    expect(events.some((e) => e.type === 'onboarding-submitted' && e.detail.tokenOnboarding === complete.detail.tokenOnboarding)).to.equal(
      true,
    );
    expect(focused(), 'focus on the outcome heading').to.deep.equal({ step: 'outcome', target: heading(el) });
    // No secret of either device is in what an integrator sees.
    for (const secret of [session.clientSecret, phoneClaim.clientSecret]) {
      expect(JSON.stringify(events.map((e) => e.detail)) + root(el).innerHTML + panelText(el)).not.to.include(secret);
    }
  });

  it('takes the session back: the computer captures again, the phone says the session continued on the other device', async function () {
    this.timeout(45_000);
    const session = await openSession();
    const { el, events, ns } = await mountComputer(session);
    await toDocumentFront(el);
    await offer(el);
    const phoneClaim = await claimOk(ns, { code: shownCode(el).toLowerCase() });
    await waitForPanel(el, 'Celular conectado');
    const phone = await mount({ companion: 'real', ns, session: phoneClaim.clientSecret });
    // The computer's consent and document type came with the session: the phone resumes at the first photo.
    await waitForStep(phone.el, 'document-front');
    await waitForPanel(el, 'No celular: frente do documento', 15_000, ns);
    const computerFocus = lastFocus(el);
    const phoneFocus = lastFocus(phone.el);

    panelButton(el, 'Voltar a este computador').click();
    await waitForStep(el, 'document-front');
    expect(hasButton(el, 'Abrir câmera')).to.equal(true);
    expect(hasButton(el, 'Continuar no celular'), 'the hand-off can be offered again').to.equal(true);
    expect(computerFocus()).to.deep.equal({ step: 'document-front', target: heading(el) });
    expect(handoffStates(events)).to.deep.equal(['offered', 'claimed', 'reclaimed']);

    // The phone learns it from the session's events, and says so instead of its step.
    await waitFor(
      () => heading(phone.el).textContent === 'A verificação continuou no outro aparelho',
      `phone at ${stepOf(phone.el)}: ${text(phone.el).slice(0, 200)}`,
    );
    expect(root(phone.el).querySelector('[data-session-problem=handedOff]')!.textContent).to.include(
      'voltou para o aparelho em que foi aberta',
    );
    expect(root(phone.el).querySelector('input[type=file]')).to.equal(null);
    expect(phone.events.filter((e) => e.type === 'onboarding-error').map((e) => e.detail.code)).to.include('session_handed_off');
    expect(handoffStates(phone.events)).to.deep.equal(['reclaimed']);
    expect(phoneFocus()?.target).to.equal(heading(phone.el));
    await expect(phone.el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      await setViewport({ width: 390, height: 844 });
      console.log(
        `phone taken back: ${await executeServerCommand<string, { name: string }>('screenshot', { name: 'handoff-taken-back-390' })}`,
      );
    }
    // The computer can capture again: the session is its own.
    await pickFile(el, await photoFor(el));
    expect(preview(el)).to.exist;
  });

  it('a new code on request replaces the one shown; keyboard only', async function () {
    this.timeout(45_000);
    const session = await openSession();
    const { el, events, ns } = await mountComputer(session);
    await toDocumentFront(el);
    await offer(el);
    const first = shownCode(el);
    const newCode = panelButton(el, 'Gerar novo código');
    newCode.focus();
    newCode.click();
    await waitFor(() => !!qr(el) && shownCode(el) !== first, 'no new code');
    expect(handoffStates(events)).to.deep.equal(['offered', 'offered']);
    // The code shown before no longer works; the new one does.
    expect((await claim(ns, { code: first })).status).to.equal(404);
    const current = shownCode(el);
    await claimOk(ns, { code: current });
    await waitForPanel(el, 'Celular conectado');
  });

  it('a dropped network: the panel says it lost the server and keeps the code; back online the note goes and the phone still shows up', async function () {
    this.timeout(60_000);
    const session = await openSession();
    const { el, ns } = await mountComputer(session);
    await toDocumentFront(el);
    await offer(el);
    const code = shownCode(el);
    const note = () => panelRoot(el).querySelector('[part~=offline]');
    expect(note()).to.equal(null);

    await executeServerCommand('stack-offline', { namespace: ns, offline: true });
    try {
      // The stream is cut; a second failed attempt in a row is when the panel says so.
      await waitFor(() => !!note(), `no offline note: ${panelText(el)}`, 20_000);
      expect(note()!.textContent).to.equal('Sem conexão com o servidor. Tentando reconectar…');
      await waitFor(() => live(el).includes('Sem conexão com o servidor'), `not announced: ${live(el)}`);
      // Nothing the person needs is lost: the code and its QR code stay.
      expect(shownCode(el)).to.equal(code);
      expect(qr(el)).to.not.equal(null);
      await expect(el).to.be.accessible();
      console.log(
        `hand-off offline: ${await executeServerCommand<string, { name: string }>('screenshot', { name: 'handoff-offline-1366' })}`,
      );
    } finally {
      await executeServerCommand('stack-offline', { namespace: ns, offline: false });
    }

    // The next attempt (at most 8 s later) opens the stream again.
    await waitFor(() => !note(), 'the offline note stayed once the network was back', 20_000);
    await claimOk(ns, { code });
    await waitForPanel(el, 'Celular conectado');
  });

  onlyIn(['chromium'], NOT_IN.playwrightCommands)(
    '"Copiar código" puts the code as shown on the clipboard, says so on the panel and aloud; a refused clipboard says to type it',
    async function () {
      this.timeout(45_000);
      const session = await openSession();
      const { el, ns } = await mountComputer(session);
      await toDocumentFront(el);
      await offer(el);
      // The clipboard holds something else first, so only the button's copy can put the code there.
      await executeServerCommand('clipboard-permission', { grant: true });
      await navigator.clipboard.writeText('not the code');
      panelButton(el, 'Copiar código').click();
      await waitForPanel(el, 'Código copiado.');
      const code = shownCode(el);
      expect(await navigator.clipboard.readText()).to.equal(code);
      expect(code).to.equal(formatHandoffCode(code.replace(/\W/g, '')));
      await waitFor(() => live(el).includes('Código copiado.'), `not announced: ${live(el)}`);
      // The code copied is one the phone can claim.
      await claimOk(ns, { code: await navigator.clipboard.readText() });
      await waitForPanel(el, 'Celular conectado');
    },
  );

  it('a clipboard that refuses the code, or never answers: the panel says to type the code on the phone', async function () {
    this.timeout(45_000);
    const session = await openSession();
    const { el } = await mountComputer(session);
    await toDocumentFront(el);
    await offer(el);
    // No engine here can be made to refuse or stall a write from the page, so the clipboard's answer is stood in for.
    const clipboard = navigator.clipboard;
    const own = Object.getOwnPropertyDescriptor(clipboard, 'writeText');
    try {
      for (const [how, answer] of [
        ['refuses', () => Promise.reject(new DOMException('denied', 'NotAllowedError'))],
        ['never answers', () => new Promise<void>(() => {})],
      ] as const) {
        Object.defineProperty(clipboard, 'writeText', { configurable: true, value: answer });
        const started = performance.now();
        panelButton(el, 'Copiar código').click();
        await waitForPanel(el, 'Não foi possível copiar. Digite o código no celular.', 10_000);
        if (how === 'never answers') expect(performance.now() - started, 'waited a few seconds first').to.be.greaterThan(2_500);
        await waitFor(() => live(el).includes('Não foi possível copiar'), `not announced (${how}): ${live(el)}`);
        // The next try starts from a clean panel.
        (panel(el) as unknown as { notice: string | null }).notice = null;
        await panel(el)!.updateComplete;
      }
    } finally {
      if (own) Object.defineProperty(clipboard, 'writeText', own);
      else delete (clipboard as unknown as Record<string, unknown>).writeText;
    }
  });

  it('a reload of the computer while the phone holds the session opens straight in the following panel', async function () {
    this.timeout(45_000);
    const session = await openSession();
    const ns = companionNamespace();
    const base = await realEndpoint(ns);
    const offered = await fetch(`${base}/v1/session/handoff`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.clientSecret}` },
    });
    expect(offered.status).to.equal(201);
    const { code } = (await offered.json()) as { code: string };
    const phoneClaim = await claimOk(ns, { code });
    const progress = await fetch(`${base}/v1/session/progress`, {
      method: 'POST',
      headers: { authorization: `Bearer ${phoneClaim.clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ step: 'selfie', photos: ['documentFront', 'documentBack'] }),
    });
    expect(progress.status).to.equal(204);

    // The computer's page, (re)loaded now: no intro, no QR code, the phone followed from the replay.
    const { el, events } = await mountComputer(session, ns);
    await waitForStep(el, 'handoff');
    await waitForPanel(el, 'No celular: selfie');
    expect(qr(el)).to.equal(null);
    expect(heading(el).textContent).to.equal('Verificação em andamento no celular');
    expect(root(el).activeElement).to.equal(heading(el));
    expect(panelRoot(el).querySelectorAll('[data-photo]')).to.have.length(2);
    expect(handoffStates(events)).to.deep.equal(['claimed']);
    await expect(el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      await setViewport({ width: 390, height: 844 });
      console.log(
        `hand-off follow after reload @ 390: ${await executeServerCommand<string, { name: string }>('screenshot', { name: 'handoff-follow-390' })}`,
      );
      await setViewport({ width: 1366, height: 768 });
    }
    // Live reports after the replay still arrive (the stream stays open).
    await fetch(`${base}/v1/session/progress`, {
      method: 'POST',
      headers: { authorization: `Bearer ${phoneClaim.clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ step: 'review', photos: ['documentFront', 'documentBack', 'selfie'] }),
    });
    await waitForPanel(el, 'No celular: revisão das fotos');
    await waitFor(() => live(el).includes('Selfie: foto tirada.'), `not announced: ${live(el)}`);

    // Taken back from the following panel: the flow starts here, at its beginning.
    panelButton(el, 'Voltar a este computador').click();
    await waitForStep(el, 'intro');
    expect(button(el, 'Começar')).to.exist;
    expect(handoffStates(events)).to.deep.equal(['claimed', 'reclaimed']);
    const phoneRead = await fetch(`${base}/v1/session`, { headers: { authorization: `Bearer ${phoneClaim.clientSecret}` } });
    expect(phoneRead.status).to.equal(409);
  });

  it('in English and Spanish', async function () {
    this.timeout(45_000);
    for (const [locale, label, headingText, newCode] of [
      ['en', 'Continue on your phone', 'Continue on your phone', 'Create a new code'],
      ['es', 'Continuar en el celular', 'Continuar en el celular', 'Generar un código nuevo'],
    ] as const) {
      const session = await openSession();
      const { el } = await mount({ companion: 'real', session: session.clientSecret, locale });
      el.handoff = true;
      await passConsent(el);
      root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
      await waitForStep(el, 'document-type');
      await chooseType(el, 'CNH');
      await click(el, label);
      await waitFor(() => !!qr(el), 'no QR code');
      expect(heading(el).textContent).to.equal(headingText);
      expect(panelButton(el, newCode)).to.exist;
      await expect(el).to.be.accessible();
      el.remove();
    }
  });
});

/** The phone's steps as shown: whether the intro, the consent or the CPF field ever showed on it. */
function watchAskedAgain(el: OnboardingFlow): { asked: string[]; stop(): void } {
  const asked: string[] = [];
  const look = () => {
    const r = root(el);
    if (r.querySelector('#consent')) asked.push('consent');
    if (r.querySelector('#cpf')) asked.push('cpf');
    if (r.querySelector('[part~=intro-needs]')) asked.push('intro');
    if (r.querySelector('input[type=radio]')) asked.push('document-type');
  };
  const watch = new MutationObserver(look);
  watch.observe(root(el), { childList: true, subtree: true });
  look();
  return { asked, stop: () => watch.disconnect() };
}

/** The bodies of the hand-off offers this page sends. */
function recordOffers(): { bodies: string[]; stop(): void } {
  const bodies: string[] = [];
  const original = window.fetch;
  window.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith('/session/handoff') && init?.method === 'POST') bodies.push(String(init.body ?? ''));
    return original(input, init);
  };
  return { bodies, stop: () => (window.fetch = original) };
}

describe("<onboarding-flow handoff> carries the computer's answers to the phone", () => {
  it("the phone opens at the first photo with the computer's CPF, consent and document type, and never asks them again", async function () {
    this.timeout(90_000);
    // A session without a CPF: the person types it on the computer (the refused identity, so the outcome tells it reached the upstream).
    const session = await executeServerCommand<OpenedSession, Record<string, unknown>>('stack-session', {
      reference: `handoff-answers-${companionNamespace()}`,
    });
    const offers = recordOffers();
    const { el, ns } = await mountComputer(session);
    try {
      await passConsent(el);
      await passCpf(el, CPF.refused, 'Maria Silva');
      await chooseType(el, 'RG');
      await offer(el);
    } finally {
      offers.stop();
    }
    // The answers went in the offer's body; the link (and its QR code) holds none of them.
    expect(offers.bodies).to.have.length(1);
    const sent = JSON.parse(offers.bodies[0]!) as { answers: Record<string, string> };
    expect(sent.answers).to.include({ cpf: '11144477735', name: 'Maria Silva', documentType: 'RG' });
    expect(Date.now() - Date.parse(sent.answers.consentAt!)).to.be.within(0, 60_000);
    const link = await decodeShownQr(qr(el)!);
    for (const shown of [link, panelText(el)]) expect(shown).not.to.match(/111\.?444\.?777-?35/);

    const phoneClaim = await claimOk(ns, { token: link.slice(link.lastIndexOf('/') + 1) });
    await waitForPanel(el, 'Celular conectado');
    const phone = await mount({ companion: 'real', ns, session: phoneClaim.clientSecret });
    const watch = watchAskedAgain(phone.el);
    await waitForStep(phone.el, 'document-front');
    expect(heading(phone.el).textContent).to.equal('Frente do RG');
    await waitFor(() => root(phone.el).activeElement === heading(phone.el), 'focus not on the heading');
    expect(hasButton(phone.el, 'Voltar'), 'nothing before the first photo to go back to').to.equal(false);
    expect(text(phone.el)).not.to.match(/111\.?444\.?777-?35/);
    await expect(phone.el).to.be.accessible();
    if (currentEngine() !== 'webkit') {
      for (const [name, width, height] of [
        ['390', 390, 844],
        ['1366', 1366, 768],
      ] as const) {
        await setViewport({ width, height });
        await phone.el.updateComplete;
        el.hidden = true;
        console.log(
          `phone resumed @ ${name}: ${await executeServerCommand<string, { name: string }>('screenshot', { name: `handoff-phone-resumed-${name}` })}`,
        );
        el.hidden = false;
      }
      await setViewport({ width: 1366, height: 768 });
    }
    await waitForPanel(el, 'No celular: frente do documento', 15_000, ns);

    // RG has a back: front, back, selfie, review, then sending.
    for (const step of ['document-front', 'document-back', 'selfie']) {
      await waitForStep(phone.el, step);
      await pickFile(phone.el, await photoFor(phone.el));
      await click(phone.el, 'Usar esta foto');
    }
    await waitForStep(phone.el, 'review');
    await click(phone.el, 'Enviar');
    await waitForStep(phone.el, 'outcome', 30_000);
    watch.stop();
    expect(watch.asked, 'the phone never showed the intro, consent, CPF or document type').to.deep.equal([]);
    // The phone sent no CPF (it never held the whole one); the companion filled in the computer's, which the upstream refused.
    const uploads = (await realRecord(ns)).uploads;
    const body = uploads[uploads.length - 1]!.body as Record<string, unknown>;
    expect(body.cpf).to.equal(undefined);
    expect(body.documentType).to.equal('RG');
    const complete = phone.events.find((e) => e.type === 'onboarding-complete')!;
    expect(complete.detail.status).to.equal('REFUSED');
    await waitForStep(el, 'outcome', 30_000);
  });

  it('a touch phone with a camera is never offered the hand-off; a computer with one is', async function () {
    this.timeout(45_000);
    const session = await openSession();
    const coarse = window.matchMedia;
    window.matchMedia = (query: string) =>
      query === '(pointer: coarse)'
        ? (Object.create(coarse.call(window, query), { matches: { value: true } }) as MediaQueryList)
        : coarse.call(window, query);
    try {
      const { el } = await mountComputer(session);
      await toDocumentFront(el);
      await waitForStep(el, 'document-front');
      // The cameras are listed (this engine has one), and still nothing is offered.
      const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
      expect(cameras.length).to.be.greaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      await el.updateComplete;
      expect(hasButton(el, 'Continuar no celular')).to.equal(false);
      expect(root(el).querySelector('[part~=handoff-start]')).to.equal(null);
      el.remove();
    } finally {
      window.matchMedia = coarse;
    }
    // The same page with a mouse or a trackpad: offered.
    const { el } = await mountComputer(await openSession());
    await toDocumentFront(el);
    await waitFor(() => hasButton(el, 'Continuar no celular'), 'not offered on a computer');
  });
});
