/**
 * Shared helpers of the `<onboarding-flow>` browser tests (not part of the public API). They
 * drive the element through its shadow DOM like a person would (clicks on labelled buttons,
 * typing, files) and talk to a companion: the real one by default for the paths that work
 * (the companion and the sandbox that the runner starts, @onboarding-kit/testing/stack-plugin),
 * or the companion double (@onboarding-kit/testing/companion-double) for what only a double can
 * script: cut connections, held uploads, broken status streams, error bodies the real stack never
 * sends to a page that behaves.
 */
import { base64ToBytes, type LivenessPrompt, type OnboardingState } from '@onboarding-kit/contract';
import { fixture, html, waitUntil } from '@open-wc/testing';
import { nothing } from 'lit';
import { executeServerCommand } from '@web/test-runner-commands';
import { renderCardPictureRgba } from '@onboarding-kit/testing/card-picture';
import type { StackRecord } from '@onboarding-kit/testing/stack-plugin';
import { ONBOARDING_EVENTS } from '../event-names.js';
import { canvasFiltersWork, degradedCard } from '../image/test-helpers.js';
import type { OnboardingFlow } from './onboarding-flow.js';
import './onboarding-flow.js';

export const CPF = {
  approved: '529.982.247-25',
  refused: '111.444.777-35',
  error: '123.456.789-09',
  manual: '987.654.321-00',
} as const;

export interface DoubleControl {
  /** Every upload fails this way until cleared with `null`. */
  failUploads?:
    | 'http-503'
    | 'destroy'
    | 'drop-after-create'
    | { status: number; error: { code: string; message: string; field?: string; externalId?: string } }
    | null;
  holdUploads?: boolean;
  events?: 'normal' | 'fail' | 'end-early';
  processingMs?: number;
  /** Decides one onboarding now, as a reviewer would. */
  decide?: { token: string; status: 'APPROVED' | 'REFUSED' | 'ERROR' };
  /** Sessions added to the namespace (from then on, creations need one's secret). */
  sessions?: DoubleSession[];
  /** A session changes as another page or time would change it. */
  sessionStatus?: { id: string; status?: 'open' | 'submitted' | 'completed' | 'expired'; expiresAt?: string };
  failSession?: 'http-503' | 'destroy' | null;
  /** Session reads wait unanswered until this is set back to false. */
  holdSession?: boolean;
  /** Status reads answer 503 until set back to false (with `events: 'fail'`, the page is cut off). */
  failReads?: boolean;
  /** What `POST /v1/session/document-prefill` answers (unset: 422 document_unreadable). */
  documentPrefill?: { cpf?: string; name?: string } | { status: number; error: { code: string; message: string } } | null;
}

export interface DoubleSession {
  clientSecret: string;
  id?: string;
  status?: 'open' | 'submitted' | 'completed' | 'expired' | 'cancelled';
  expiresAt?: string;
  prefill?: { cpf?: string; cnpj?: string; name?: string };
  documentTypes?: string[];
  locale?: string;
  returnUrl?: string;
  prefillFromDocument?: boolean;
  steps?: string[];
}

export interface DoubleState {
  uploadAttempts: number;
  uploads: {
    body: { cpf?: string; cnpj?: string; name?: string; documentType?: string; images: Record<string, string>; proofOfAddress?: string };
    headers: { contentType: string | null; authorization: string | null; idempotencyKey: string | null };
  }[];
  onboardings: { token: string; accessKey: string; status: string }[];
  requests: { method: string; url: string; authorization: string | null }[];
  /** Every creation request, refused or cut ones too. */
  attempts: { authorization: string | null; idempotencyKey: string | null }[];
  sessions: { id: string; status: string; tokenOnboarding?: string }[];
  sessionReads: number;
  prefillRequests: { authorization: string | null; body: { documentType?: string; images?: Record<string, string> } }[];
}

/** A fresh namespace of the companion double: its state is this test's alone. */
export function companionNamespace(): string {
  return `t${Math.random().toString(36).slice(2, 10)}`;
}

export async function controlDouble(ns: string, control: DoubleControl): Promise<void> {
  const res = await fetch(`/test-companion/${ns}/__control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(control),
  });
  if (!res.ok) throw new Error(`control failed: ${res.status}`);
}

export async function doubleState(ns: string): Promise<DoubleState> {
  return (await fetch(`/test-companion/${ns}/__control`)).json() as Promise<DoubleState>;
}

/** The real stack's record of one namespace: what the page sent, and the keys the companion gave it. */
export interface RealRecord extends StackRecord {
  uploads: { body: DoubleState['uploads'][number]['body']; headers: { contentType: string | null } }[];
}

let realStackUrl: Promise<string> | undefined;
/** The real companion's base URL (another origin than the page's: calls to it are cross-origin). */
function realCompanionUrl(): Promise<string> {
  realStackUrl ??= executeServerCommand<{ url: string }, undefined>('stack').then((r) => r.url);
  return realStackUrl;
}

/** The element's endpoint on the real companion for namespace `ns`: its requests are recorded under `ns`. */
export async function realEndpoint(ns: string): Promise<string> {
  return `${await realCompanionUrl()}/t/${ns}`;
}

export async function realRecord(ns: string): Promise<RealRecord> {
  return executeServerCommand<RealRecord, { namespace: string }>('stack-record', { namespace: ns });
}

/**
 * Decides an onboarding of the manual-review identity (`CPF.manual`) through the sandbox's control
 * API, as a reviewer would; resolves once the sandbox's webhook has reached the companion.
 */
export async function decide(token: string, status: 'APPROVED' | 'REFUSED' | 'ERROR'): Promise<void> {
  await executeServerCommand<unknown, { token: string; status: string }>('stack-decide', { token, status });
}

/** What the real companion answers for the onboarding (docs/page-api.md#read-an-onboarding). */
export async function realState(ns: string, token: string, accessKey: string): Promise<OnboardingState> {
  const res = await fetch(`${await realEndpoint(ns)}/v1/onboardings/${token}`, { headers: { authorization: `Bearer ${accessKey}` } });
  if (!res.ok) throw new Error(`reading ${token}: ${res.status}`);
  return res.json() as Promise<OnboardingState>;
}

/** The onboarding the page created in namespace `ns`, once the companion has answered the creation. */
export async function createdIn(ns: string): Promise<{ token: string; accessKey: string }> {
  let found: { token: string; accessKey: string } | undefined;
  await waitUntil(async () => !!(found = (await realRecord(ns)).onboardings[0]), `no onboarding created in ${ns}`, {
    timeout: 20_000,
    interval: 50,
  });
  return found!;
}

export interface Mounted {
  el: OnboardingFlow;
  ns: string;
  events: CustomEvent[];
}

export interface MountOptions {
  /** null: no `locale` attribute. */
  locale?: string | null;
  documentTypes?: string;
  cpf?: string;
  withV1?: boolean;
  maxImageBytes?: number;
  maxLongEdge?: number;
  /** `'real'`: the real companion and sandbox; `'double'` (default): the companion double, for fault injection. */
  companion?: 'real' | 'double';
  /** A namespace prepared beforehand (sessions set up before the element reads its own). */
  ns?: string;
  /** The `session` client secret, as an attribute (default) or, with `sessionAs: 'property'`, a property only. */
  session?: string;
  sessionAs?: 'attribute' | 'property';
}

/**
 * Mounts the element on a fresh companion namespace (of the double, or of the real companion with
 * `companion: 'real'`) and records every `onboarding-*` event at the document.
 */
export async function mount(options: MountOptions = {}): Promise<Mounted> {
  const ns = options.ns ?? companionNamespace();
  const base = options.companion === 'real' ? await realEndpoint(ns) : `/test-companion/${ns}`;
  const endpoint = `${base}${options.withV1 ? '/v1/' : ''}`;
  const events: CustomEvent[] = [];
  const el = await fixture<OnboardingFlow>(html`
    <onboarding-flow
      endpoint=${endpoint}
      locale=${options.locale === null ? nothing : (options.locale ?? 'pt-BR')}
      document-types=${options.documentTypes ?? 'CNH,RG'}
      cpf=${options.cpf ?? ''}
      max-image-bytes=${options.maxImageBytes ?? 600000}
      max-long-edge=${options.maxLongEdge ?? 1600}
      session=${options.session !== undefined && options.sessionAs !== 'property' ? options.session : nothing}
    ></onboarding-flow>
  `);
  // Set after the first render, as a framework would: a session given late is read too.
  if (options.session !== undefined && options.sessionAs === 'property') el.session = options.session;
  for (const name of ONBOARDING_EVENTS) {
    const listener = (e: Event) => {
      if (e.target === el) events.push(e as CustomEvent);
    };
    // At the document: proves the events bubble and cross the shadow boundary.
    document.addEventListener(name, listener);
    cleanups.push(() => document.removeEventListener(name, listener));
  }
  el.pollOptions = { initialDelayMs: 200, maxDelayMs: 400, totalMs: 15_000 };
  return { el, ns, events };
}

/** The element on a fresh namespace of the companion double holding one session (`session`, its secret made here), with `control` applied. */
export async function mountWithSession(
  session: Omit<DoubleSession, 'clientSecret'>,
  control: DoubleControl = {},
  options: MountOptions = {},
): Promise<Mounted & { secret: string }> {
  const ns = companionNamespace();
  const secret = `cs_test_${ns}_0123456789abcdef0123`;
  await controlDouble(ns, { ...control, sessions: [{ ...session, clientSecret: secret }] });
  return { ...(await mount({ ...options, ns, session: secret })), secret };
}

const cleanups: (() => void)[] = [];
export function cleanupListeners(): void {
  while (cleanups.length) cleanups.pop()!();
}

export const root = (el: OnboardingFlow): ShadowRoot => el.shadowRoot!;
/** What the polite live region says now. */
export const liveText = (el: OnboardingFlow): string => root(el).querySelector('[role=status][aria-live=polite]')!.textContent ?? '';
export const stepOf = (el: OnboardingFlow): string => root(el).querySelector('section[data-step]')!.getAttribute('data-step')!;
export const heading = (el: OnboardingFlow): HTMLElement => root(el).querySelector('h2')!;
export const text = (el: OnboardingFlow): string => root(el).textContent!.replace(/\s+/g, ' ');

/** A button's text as its name reads: what is hidden from assistive technology (Back's arrow) left out. */
export const buttonText = (b: Element): string =>
  [...b.childNodes]
    .filter((n) => n.nodeType === Node.TEXT_NODE || (n instanceof Element && n.getAttribute('aria-hidden') !== 'true'))
    .map((n) => n.textContent)
    .join('')
    .trim();

/** The button whose text is `label` (exactly, after trimming). */
export function button(el: OnboardingFlow, label: string): HTMLButtonElement {
  const found = [...root(el).querySelectorAll('button')].find((b) => buttonText(b) === label);
  if (!found)
    throw new Error(
      `no button "${label}" on step ${stepOf(el)}; buttons: ${[...root(el).querySelectorAll('button')].map(buttonText).join(' | ')}`,
    );
  return found;
}

export function hasButton(el: OnboardingFlow, label: string): boolean {
  return [...root(el).querySelectorAll('button')].some((b) => buttonText(b) === label);
}

export async function click(el: OnboardingFlow, label: string): Promise<void> {
  button(el, label).click();
  await el.updateComplete;
}

/** Whether the step shows its lazily loaded part's placeholder (the photo steps on their way). */
const partPending = (el: OnboardingFlow): boolean => !!root(el).querySelector('[data-part-pending]');

/** Waits for `step`, shown in full (its lazily loaded part, if any, loaded). */
export async function waitForStep(el: OnboardingFlow, step: string, timeout = 20_000): Promise<void> {
  await waitUntil(() => stepOf(el) === step && !partPending(el), `step ${step} never came (at ${stepOf(el)}: ${text(el).slice(0, 300)})`, {
    timeout,
    interval: 25,
  });
  await el.updateComplete;
}

/**
 * `waitForStep` on the real stack: a timeout also says what the stack saw of namespace `ns` (its
 * requests, upload attempts, finished uploads and onboardings), so a stall can be placed: the
 * browser, the companion's door, or the upstream.
 */
export async function waitForStepOnStack(el: OnboardingFlow, step: string, ns: string, timeout = 20_000): Promise<void> {
  try {
    await waitForStep(el, step, timeout);
  } catch (error) {
    const seen = await realRecord(ns).then(
      (r) =>
        `requests ${JSON.stringify(r.requests.map((q) => `${q.method} ${new URL(q.url).pathname}`))}, upload attempts ${r.uploadAttempts}, uploads ${r.uploads.length}, onboardings ${r.onboardings.length}`,
      (e: unknown) => `the record could not be read: ${String(e)}`,
    );
    throw new Error(`${(error as Error).message}; the stack saw in ${ns}: ${seen}`, { cause: error });
  }
}

export async function waitFor(predicate: () => boolean, message: string, timeout = 20_000): Promise<void> {
  await waitUntil(predicate, message, { timeout, interval: 25 });
}

/** The intro's button in each locale. */
export const START_LABEL: Record<string, string> = { 'pt-BR': 'Começar', en: 'Start', es: 'Empezar' };

/** Presses the intro's button (once it shows: a session is read first) and waits for the consent. */
export async function passIntro(el: OnboardingFlow): Promise<void> {
  const label = START_LABEL[el.locale] ?? START_LABEL['pt-BR']!;
  await waitFor(
    () => stepOf(el) === 'intro' && hasButton(el, label),
    `no intro with "${label}" (at ${stepOf(el)}: ${text(el).slice(0, 300)})`,
  );
  await click(el, label);
  await waitForStep(el, 'consent');
}

/** Passes the intro (when the flow is on it), then agrees and continues to the CPF. */
export async function passConsent(el: OnboardingFlow): Promise<void> {
  if (stepOf(el) === 'intro') await passIntro(el);
  const box = root(el).querySelector<HTMLInputElement>('#consent')!;
  box.click();
  await el.updateComplete;
  await click(el, el.locale === 'en' ? 'Continue' : 'Continuar');
  await waitForStep(el, 'cpf');
}

export async function typeInto(input: HTMLInputElement, value: string): Promise<void> {
  input.focus();
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }));
}

export async function passCpf(el: OnboardingFlow, cpf: string, name = ''): Promise<void> {
  await typeInto(root(el).querySelector<HTMLInputElement>('#cpf')!, cpf);
  if (name) await typeInto(root(el).querySelector<HTMLInputElement>('#name')!, name);
  await el.updateComplete;
  root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
  await waitForStep(el, 'document-type');
}

export async function chooseType(el: OnboardingFlow, type: string): Promise<void> {
  root(el).querySelector<HTMLInputElement>(`#doctype-${type}`)!.click();
  await el.updateComplete;
  root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
  await waitForStep(el, 'document-front');
}

export const preview = (el: OnboardingFlow): HTMLImageElement | null => root(el).querySelector('img[part~=preview]');
export const errorText = (el: OnboardingFlow): string =>
  [...root(el).querySelectorAll('[role=alert]')].map((n) => n.textContent!.trim()).join(' ');

/** The open capture view (the full-screen camera), if any: the flow keeps it drawn, closed, on capture steps. */
export const captureView = (
  el: OnboardingFlow,
): (HTMLElement & { video: HTMLVideoElement | null; prompt: LivenessPrompt | null; updateComplete: Promise<boolean> }) | null =>
  root(el).querySelector('onboarding-capture-view[open]');
/** The capture view's shutter button, labelled `take`. */
export const shutter = (el: OnboardingFlow, take = 'Tirar foto'): HTMLButtonElement | null =>
  captureView(el)?.shadowRoot?.querySelector<HTMLButtonElement>(`[part~=shutter][aria-label="${take}"]`) ?? null;

/** Presses the open-camera button and waits for live frames in the capture view. */
export async function openCamera(el: OnboardingFlow, label = 'Abrir câmera', take = 'Tirar foto'): Promise<HTMLVideoElement> {
  await click(el, label);
  return liveCamera(el, take);
}

/** Waits for the capture view to show live frames (after "Abrir câmera", or a retake that reopens the camera). */
export async function liveCamera(el: OnboardingFlow, take = 'Tirar foto'): Promise<HTMLVideoElement> {
  const video = () => captureView(el)?.video ?? null;
  // Live as the person sees it: frames playing and the guide drawn over them (the view learns the
  // frame's size a render after the video has it).
  const guide = () => !!captureView(el)?.shadowRoot?.querySelector('[part~="guide"]');
  await waitFor(
    () => !!shutter(el, take) && !!video() && video()!.readyState >= 2 && video()!.videoWidth > 0 && guide(),
    'camera never went live',
  );
  return video()!;
}

/** Takes a photo from the live camera (unless it was just taken by itself); resolves once it is accepted or rejected. */
export async function takePhoto(el: OnboardingFlow, take = 'Tirar foto'): Promise<void> {
  shutter(el, take)?.click();
  await waitFor(() => !!preview(el) || !!root(el).querySelector('#capture-error'), 'the photo was never processed', 25_000);
  await el.updateComplete;
}

export async function captureWithCamera(el: OnboardingFlow, labels = { open: 'Abrir câmera', take: 'Tirar foto' }): Promise<void> {
  await openCamera(el, labels.open, labels.take);
  await takePhoto(el, labels.take);
}

/** Puts `file` on the visible file fallback as a person picking it would. */
export async function pickFile(el: OnboardingFlow, file: File): Promise<void> {
  const input = root(el).querySelector<HTMLInputElement>('input[type=file]')!;
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await waitFor(() => !!preview(el) || !!root(el).querySelector('#capture-error'), 'the file was never processed', 25_000);
  await el.updateComplete;
}

/** The fake camera's document picture as a JPEG file (sharp, mid brightness: passes every check). */
export async function cardJpeg(name = 'card.jpg'): Promise<File> {
  const { width, height, rgba } = renderCardPictureRgba();
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  return new File([blob], name, { type: 'image/jpeg' });
}

/**
 * A real face for the selfie: NASA's public-domain portrait (test/fixtures/faces/README.md),
 * framed as a selfie (her face filling a 3:4 picture) and scaled to 720x960 to meet the
 * pipeline's minimum resolution; the face check finds exactly one face, large and centred.
 */
export async function faceJpeg(name = 'selfie.jpg', quality = 0.92): Promise<File> {
  const source = await createImageBitmap(await (await fetch(new URL('../../test/fixtures/faces/astronaut.jpg', import.meta.url))).blob());
  const canvas = new OffscreenCanvas(720, 960);
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 135, 5, 180, 240, 0, 0, 720, 960);
  source.close();
  return new File([await canvas.convertToBlob({ type: 'image/jpeg', quality })], name, { type: 'image/jpeg' });
}

/** The photo that passes on the visible step: the face on the selfie step, the card on the others. */
export async function photoFor(el: OnboardingFlow): Promise<File> {
  return stepOf(el) === 'selfie' ? faceJpeg() : cardJpeg();
}

/**
 * The same picture blurred hard: a real photo that the focus check must refuse. Where the canvas
 * ignores `filter` (WebKitGTK), the card is blurred by scaling instead, so every engine refuses it.
 */
export async function blurryJpeg(): Promise<File> {
  if (!canvasFiltersWork()) {
    const blob = await degradedCard('blurry').convertToBlob({ type: 'image/jpeg', quality: 0.92 });
    return new File([blob], 'blurry.jpg', { type: 'image/jpeg' });
  }
  const { width, height, rgba } = renderCardPictureRgba();
  const sharp = new OffscreenCanvas(width, height);
  sharp.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
  const blurred = new OffscreenCanvas(width, height);
  const ctx = blurred.getContext('2d')!;
  ctx.filter = 'blur(12px)';
  ctx.drawImage(sharp, 0, 0);
  const blob = await blurred.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  return new File([blob], 'blurry.jpg', { type: 'image/jpeg' });
}

/** Decodes pure base64 into bytes (throws on anything else). */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  return base64ToBytes(base64) as Uint8Array<ArrayBuffer>;
}

/** Every text an integrator could see from the element: event details, attributes, shadow DOM. */
export function everythingVisible(el: OnboardingFlow, events: CustomEvent[]): string {
  return [JSON.stringify(events.map((e) => ({ type: e.type, detail: e.detail }))), el.outerHTML, root(el).innerHTML].join('\n');
}

/** Intro, consent, CPF, CNH, then front, back and selfie picked from files: ends on the review step. */
export async function reachReviewWithFiles(el: OnboardingFlow, cpf: string = CPF.approved, type = 'CNH'): Promise<void> {
  await passConsent(el);
  await passCpf(el, cpf);
  await chooseType(el, type);
  const roles = type === 'PASSPORT' ? ['document-front', 'selfie'] : ['document-front', 'document-back', 'selfie'];
  for (const step of roles) {
    await waitForStep(el, step);
    await pickFile(el, await photoFor(el));
    if (!preview(el) || errorText(el)) throw new Error(`photo refused on ${step}: ${errorText(el)}`);
    await click(el, 'Usar esta foto');
  }
  await waitForStep(el, 'review');
}

/** True once the object URL no longer resolves (revoked). */
export async function isRevoked(url: string): Promise<boolean> {
  try {
    await (await fetch(url)).arrayBuffer();
    return false;
  } catch {
    return true;
  }
}
