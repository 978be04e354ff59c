/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The gallery: a picture of every step and outcome at 390x844 and 1366x768, in each engine, in
 * one folder with an index page (test/artifacts/gallery/index.html, @onboarding-kit/testing/gallery),
 * for a person to look at; nothing is compared. The flow is walked on the real companion and
 * sandbox, the companion double only where a fault must be made (an upload held, then failed).
 * The element lives in a same-origin frame whose size is set before each picture, so its media
 * queries see the width in every engine (WebKit's window cannot be resized mid-session). The
 * last test fails when any picture is missing.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { currentEngine } from '@onboarding-kit/testing/engine';
import { normalizeEndpoint } from '../api/index.js';
import { resumeKeyFor, type KeptOnboarding } from '../controllers/kept-onboarding.js';
import type { OnboardingFlow } from './onboarding-flow.js';
import {
  CPF,
  blurryJpeg,
  cardJpeg,
  captureView,
  chooseType,
  click,
  companionNamespace,
  controlDouble,
  createdIn,
  decide,
  errorText,
  faceJpeg,
  liveCamera,
  passConsent,
  passCpf,
  passIntro,
  photoFor,
  pickFile,
  preview,
  reachReviewWithFiles,
  realEndpoint,
  root,
  stepOf,
  text,
  typeInto,
  waitFor,
  waitForStep,
  waitForStepOnStack,
} from './test-helpers.js';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
] as const;

/** Every picture the gallery must hold, in the order of the walk (the index's rows). */
const STEPS = [
  'intro',
  'consent',
  'consent-details',
  'cpf',
  'cpf-error',
  'document-type',
  'document-front',
  'camera',
  'photo-preview',
  'document-back',
  'photo-refused',
  'selfie',
  'review',
  'processing',
  'approved',
  'upload-progress',
  'cancelled',
  'upload-error',
  'refused',
  'error',
  'handoff-offer',
  'handoff-following',
  'hosted-code-page',
  'photo-hint',
  'prefill-confirm',
  'proof-of-address',
  'proof-review',
] as const;
type Step = (typeof STEPS)[number];

let frame: HTMLIFrameElement;

const started = performance.now();

before(async function () {
  this.timeout(60_000);
  // The frame at the top left, as large as the largest picture; the window holds it whole.
  if (currentEngine() !== 'webkit') await setViewport({ width: 1366, height: 844 });
  await executeServerCommand('gallery-reset');
  // A runner page scrolled under the frame shifts WebKit's element screenshot off the frame.
  document.documentElement.style.overflow = 'hidden';
  window.scrollTo(0, 0);
  console.log(`gallery ${currentEngine()}: window ${innerWidth}x${innerHeight}`);
  frame = document.createElement('iframe');
  frame.id = 'gallery-frame';
  frame.title = 'gallery';
  frame.style.cssText = 'position:fixed;top:0;left:0;border:0;z-index:2147483647;background:#fff;width:390px;height:844px';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = '/__gallery-frame';
  document.body.append(frame);
  await loaded;
  await frame.contentWindow!.customElements.whenDefined('onboarding-flow');
});

after(() => {
  frame?.remove();
  sessionStorage.clear();
});

const frameDoc = (): Document => frame.contentDocument!;

/** A frame a browser has laid out at the new size, its fonts in. */
async function settle(el: OnboardingFlow): Promise<void> {
  await el.updateComplete;
  await frameDoc().fonts.ready;
  const w = frame.contentWindow!;
  await new Promise((r) => w.requestAnimationFrame(() => w.requestAnimationFrame(r)));
  // WebKitGTK paints a playing video's layer at the new size a little after the rest of the page.
  if (
    currentEngine() === 'webkit' &&
    frameDoc().querySelector('onboarding-flow')?.shadowRoot?.querySelector('onboarding-capture-view[open]')
  )
    await new Promise((r) => setTimeout(r, 500));
  // Transitions run out (a progress bar shown half-way says the wrong thing); spinners never end.
  // The element's own are in its shadow root, which not every engine's document lists.
  const root = el.shadowRoot!;
  const finite = [...frameDoc().getAnimations(), ...root.getAnimations()].filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
  // Photos shown from object URLs are decoded before the picture (WebKit paints them a moment later).
  const photos = [...root.querySelectorAll('img')].map((img) => img.decode().catch(() => undefined));
  await Promise.race([Promise.allSettled([...finite.map((a) => a.finished), ...photos]), new Promise((r) => setTimeout(r, 1_500))]);
  await new Promise((r) => w.requestAnimationFrame(() => w.requestAnimationFrame(r)));
}

/** The step as the frame shows it, at each size; the frame goes back to the phone's size after. */
async function shot(el: OnboardingFlow, step: Step): Promise<void> {
  const sizeFrame = async (size: (typeof SIZES)[number]) => {
    frame.style.width = `${size.width}px`;
    frame.style.height = `${size.height}px`;
    await settle(el);
    window.scrollTo(0, 0);
  };
  for (const size of SIZES) {
    await sizeFrame(size);
    const path = await executeServerCommand<string, { step: string; order: number; width: number; height: number }>('gallery-shot', {
      step,
      order: STEPS.indexOf(step),
      ...size,
    });
    expect(path, `the ${step} picture at ${size.width}`).to.be.a('string');
  }
  await sizeFrame(SIZES[0]);
}

interface FrameMount {
  companion: 'real' | 'double';
  ns?: string;
  session?: string;
}

/** The element in the frame, as a page would write it, on a fresh companion namespace. */
async function mountInFrame(options: FrameMount): Promise<{ el: OnboardingFlow; ns: string }> {
  const ns = options.ns ?? companionNamespace();
  const endpoint = options.companion === 'real' ? await realEndpoint(ns) : `/test-companion/${ns}`;
  const doc = frameDoc();
  doc.body.replaceChildren();
  const el = doc.createElement('onboarding-flow') as OnboardingFlow;
  el.setAttribute('endpoint', endpoint);
  el.setAttribute('locale', 'pt-BR');
  el.setAttribute('document-types', 'CNH,RG');
  el.setAttribute('max-image-bytes', '600000');
  el.setAttribute('max-long-edge', '1600');
  if (options.session) el.setAttribute('session', options.session);
  el.pollOptions = { initialDelayMs: 200, maxDelayMs: 400, totalMs: 30_000 };
  doc.body.append(el);
  await el.updateComplete;
  return { el, ns };
}

async function jpegBase64(): Promise<string> {
  const bytes = new Uint8Array(await (await cardJpeg()).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** An onboarding created for `cpf` and kept as the element keeps it: a mount then resumes straight to its outcome. */
async function keptOnboarding(cpf: string): Promise<{ ns: string }> {
  const ns = companionNamespace();
  const base = await realEndpoint(ns);
  const image = await jpegBase64();
  const res = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cpf, documentType: 'CNH', images: { documentFront: image, documentBack: image, selfie: image } }),
  });
  if (!res.ok) throw new Error(`creation failed: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { tokenOnboarding: string; accessKey: string };
  const endpoint = normalizeEndpoint(base);
  const kept: KeptOnboarding = { ...created, endpoint, savedAt: Date.now() };
  frame.contentWindow!.sessionStorage.setItem(resumeKeyFor(endpoint, '')!, JSON.stringify(kept));
  return { ns };
}

/**
 * From now on, each document photo accepted in the frame gets the reading given for its role, as
 * the reader would set it: patched in the frame's own copy of the module, which the element uses.
 */
async function readingsInFrame(readings: Record<string, unknown>): Promise<void> {
  const w = frame.contentWindow as Window & { __readings?: Record<string, unknown>; __readingsPatched?: boolean };
  w.__readings = readings;
  if (w.__readingsPatched) return;
  const script = frameDoc().createElement('script');
  script.type = 'module';
  script.textContent = `import { CapturedPhotos } from '/packages/element/src/controllers/captured-photos.ts';
const { accept, setReading } = CapturedPhotos.prototype;
CapturedPhotos.prototype.accept = function (role, photo, nonce) {
  const reading = window.__readings?.[role];
  accept.call(this, role, reading ? { ...photo, reading } : photo, nonce);
};
CapturedPhotos.prototype.setReading = function (role, photo, reading) {
  setReading.call(this, role, photo, window.__readings?.[role] ?? reading);
};
window.__readingsPatched = true;`;
  frameDoc().head.append(script);
  await waitFor(() => !!w.__readingsPatched, 'the readings patch in the frame');
}

const fileInput = (el: OnboardingFlow): HTMLInputElement | null => root(el).querySelector('input[type=file]');

const outcomeStatus = (el: OnboardingFlow): string | null => root(el).querySelector('[data-status]')?.getAttribute('data-status') ?? null;

describe(`gallery (${currentEngine()})`, () => {
  it('the path: intro to APPROVED, with the CPF error, the camera, a refused photo and the wait', async function () {
    this.timeout(180_000);
    const { el, ns } = await mountInFrame({ companion: 'real' });
    await waitFor(() => stepOf(el) === 'intro' && !!root(el).querySelector('[part~=button-primary]'), 'the intro');
    await shot(el, 'intro');
    await passIntro(el);
    await shot(el, 'consent');
    const details = root(el).querySelector('details')!;
    details.querySelector('summary')!.click();
    await waitFor(() => details.open && details.textContent!.length > 400, 'the consent details');
    await shot(el, 'consent-details');
    await passConsent(el);
    await shot(el, 'cpf');
    await typeInto(root(el).querySelector<HTMLInputElement>('#cpf')!, '111.111.111-12');
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitFor(() => errorText(el) !== '', 'the CPF error');
    await shot(el, 'cpf-error');
    await passCpf(el, CPF.manual);
    await shot(el, 'document-type');
    await chooseType(el, 'CNH');
    await waitForStep(el, 'document-front');
    await shot(el, 'document-front');

    // The camera as it opens, whatever this engine's fake camera shows, then closed for a file.
    root(el).querySelector<HTMLButtonElement>('[data-capture-start]')!.click();
    await liveCamera(el);
    await shot(el, 'camera');
    const close = captureView(el)?.shadowRoot?.querySelector<HTMLButtonElement>('[part~=capture-close]');
    close?.click();
    // The fake camera may take its picture before the close (auto capture): the photo is then
    // checked, and a test pattern refused as no document. Each time the step settles (a preview, a
    // refusal, or the file fallback back), a refusal is taken again with the camera closed at once.
    for (let attempt = 1; ; attempt++) {
      await waitFor(
        () => !captureView(el) && (!!preview(el) || errorText(el) !== '' || !!fileInput(el)),
        `the camera closed (${attempt})`,
        25_000,
      );
      if (errorText(el) === '' || attempt === 3) break;
      await click(el, 'Tirar outra foto');
      await liveCamera(el);
      captureView(el)?.shadowRoot?.querySelector<HTMLButtonElement>('[part~=capture-close]')?.click();
    }
    if (!preview(el)) await pickFile(el, await cardJpeg());
    await waitFor(() => !!preview(el) && errorText(el) === '', `the front photo (${errorText(el)})`);
    await shot(el, 'photo-preview');
    await click(el, 'Usar esta foto');

    await waitForStep(el, 'document-back');
    await shot(el, 'document-back');
    await pickFile(el, await blurryJpeg());
    await waitFor(() => errorText(el) !== '', 'the refusal');
    await shot(el, 'photo-refused');
    await click(el, 'Tirar outra foto');
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');

    await waitForStep(el, 'selfie');
    await shot(el, 'selfie');
    await pickFile(el, await faceJpeg());
    expect(errorText(el), 'the selfie').to.equal('');
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'review');
    await shot(el, 'review');

    // The manual-review identity waits on "Analisando" until the reviewer decides.
    root(el).querySelector<HTMLButtonElement>('[part~=button-primary]')!.click();
    await waitForStepOnStack(el, 'processing', ns, 30_000);
    await shot(el, 'processing');
    const { token } = await createdIn(ns);
    await decide(token, 'APPROVED');
    await waitForStepOnStack(el, 'outcome', ns, 30_000);
    expect(outcomeStatus(el)).to.equal('APPROVED');
    await shot(el, 'approved');
  });

  it('the upload: its progress, cancelled, then failed (the companion double holds and fails it)', async function () {
    this.timeout(120_000);
    const { el, ns } = await mountInFrame({ companion: 'double' });
    await reachReviewWithFiles(el);
    await controlDouble(ns, { holdUploads: true });
    await click(el, 'Enviar');
    const bar = () => root(el).querySelector('[role=progressbar]');
    await waitFor(() => bar()?.getAttribute('aria-valuenow') === '100', 'the upload progress');
    await shot(el, 'upload-progress');
    await click(el, 'Cancelar envio');
    await waitForStep(el, 'review');
    await shot(el, 'cancelled');
    await controlDouble(ns, { holdUploads: false, failUploads: 'http-503' });
    await click(el, 'Enviar');
    await waitFor(() => errorText(el) !== '', 'the upload error');
    await shot(el, 'upload-error');
    await controlDouble(ns, { failUploads: null });
  });

  it('REFUSED and ERROR, as a reload finds them', async function () {
    this.timeout(90_000);
    for (const [cpf, status, step] of [
      [CPF.refused, 'REFUSED', 'refused'],
      [CPF.error, 'ERROR', 'error'],
    ] as const) {
      const { ns } = await keptOnboarding(cpf);
      const { el } = await mountInFrame({ companion: 'real', ns });
      await waitForStepOnStack(el, 'outcome', ns, 30_000);
      expect(outcomeStatus(el)).to.equal(status);
      await shot(el, step);
      frame.contentWindow!.sessionStorage.clear();
    }
  });

  it('the hand-off: the offer, the computer following the phone, and the page the phone opens', async function () {
    this.timeout(90_000);
    const session = await executeServerCommand<{ id: string; clientSecret: string }, Record<string, unknown>>('stack-session', {
      reference: `gallery-${companionNamespace()}`,
      cpf: '52998224725',
      name: 'Maria Silva',
    });
    const ns = companionNamespace();
    const { el } = await mountInFrame({ companion: 'real', ns, session: session.clientSecret });
    el.handoff = true;
    await passConsent(el);
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitForStep(el, 'document-type');
    await chooseType(el, 'CNH');
    root(el).querySelector<HTMLButtonElement>('[part~=handoff-start]')!.click();
    const panel = () => root(el).querySelector<HTMLElement & { updateComplete: Promise<boolean> }>('onboarding-handoff-panel');
    const code = () => panel()?.shadowRoot?.querySelector('[part~=handoff-code]')?.textContent?.trim() ?? '';
    await waitFor(() => /^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(code()), `the hand-off code (${text(el).slice(0, 200)})`);
    await panel()!.updateComplete;
    await shot(el, 'handoff-offer');
    const base = await realEndpoint(ns);
    const claimed = await fetch(`${base}/v1/handoff/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: code() }),
    });
    expect(claimed.status, 'the phone claims the code').to.equal(200);
    await waitFor(() => (panel()?.shadowRoot?.textContent ?? '').includes('Celular conectado'), 'the computer following the phone');
    await shot(el, 'handoff-following');
    // The page a phone opens to type the code: it refuses to be framed, so it gets a window of its own.
    const origin = new URL(base).origin;
    await executeServerCommand<string, { step: string; order: number; url: string; sizes: typeof SIZES }>('gallery-page', {
      step: 'hosted-code-page',
      order: STEPS.indexOf('hosted-code-page'),
      url: `${origin}/h`,
      sizes: SIZES,
    });
    let state = 'pending';
    while (state !== 'done') state = await executeServerCommand<string, undefined>('gallery-wait');
  });

  it('a session that reads the document and asks for a proof of address: a hint, the data read, the proof', async function () {
    this.timeout(180_000);
    const zone = { format: 'TD1', lines: ['IDBRA', 'X', 'Y'], fields: { cpf: '52998224725' }, checks: [], valid: true };
    await readingsInFrame({ documentBack: { mrz: zone, documentKind: 'CIN' } });
    const ns = companionNamespace();
    const secret = `cs_test_gallery_${ns}_0123456789abcdef`;
    await controlDouble(ns, {
      sessions: [{ clientSecret: secret, prefillFromDocument: true, steps: ['proof-of-address'], documentTypes: ['CNH', 'CIN'] }],
      documentPrefill: { cpf: '52998224725', name: 'MARIA DA SILVA' },
    });
    const { el } = await mountInFrame({ companion: 'double', ns, session: secret });
    await passIntro(el);
    root(el).querySelector<HTMLInputElement>('#consent')!.click();
    await el.updateComplete;
    await click(el, 'Continuar');
    await waitForStep(el, 'document-type');
    await chooseType(el, 'CNH');
    await pickFile(el, await cardJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!root(el).querySelector('[part~=document-hints]'), 'the hint');
    await shot(el, 'photo-hint');
    await click(el, 'Continuar mesmo assim');
    await waitForStep(el, 'cpf');
    await waitFor(() => !!root(el).querySelector('[data-prefill-cpf]'), 'the data read');
    await shot(el, 'prefill-confirm');
    await click(el, 'Confirmar');
    await waitForStep(el, 'selfie');
    await pickFile(el, await faceJpeg());
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'proof-of-address');
    await shot(el, 'proof-of-address');
    const input = root(el).querySelector<HTMLInputElement>('input[data-proof-file]')!;
    const transfer = new DataTransfer();
    transfer.items.add(new File(['%PDF-1.4\n%%EOF\n'], 'conta-de-luz.pdf', { type: 'application/pdf' }));
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => !!root(el).querySelector('[part~=proof-file]'), 'the PDF taken');
    await click(el, 'Usar este comprovante');
    await waitForStep(el, 'review');
    await shot(el, 'proof-review');
    (frame.contentWindow as Window & { __readings?: unknown }).__readings = {};
  });

  it('holds every picture at both widths', async () => {
    const have = new Set(await executeServerCommand<string[], undefined>('gallery-list'));
    const missing = STEPS.flatMap((step) => SIZES.map((s) => `${step}-${s.width}.png`)).filter((name) => !have.has(name));
    expect(missing, `pictures missing in ${currentEngine()}`).to.deep.equal([]);
    // The file's cost in the CI's time budget, for whoever watches it grow.
    console.log(`gallery ${currentEngine()}: ${have.size} pictures in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
});
