/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * Capture integrity through the real companion: the signals the collector raises under each
 * engine's fake camera and automation, the nonces of the capture steps, and the attestation the
 * companion verifies: valid as sent, broken by bytes changed after hashing and by a selfie sent
 * again in another session.
 */
import { sha256Hex, type CreateOnboardingRequest, type SessionIntegrity } from '@onboarding-kit/contract';
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { currentEngine } from '@onboarding-kit/testing/engine';
import {
  CPF,
  base64Bytes,
  captureView,
  cardJpeg,
  chooseType,
  click,
  companionNamespace,
  createdIn,
  faceJpeg,
  mount,
  openCamera,
  passConsent,
  passCpf,
  pickFile,
  preview,
  realRecord,
  waitForStep,
} from '../onboarding-flow/test-helpers.js';
import { attestation } from './integrity-claim.js';
import { sampleFrameTimes } from './frame-times.js';
import { SIGNAL_THRESHOLDS, frameTimingVariation } from './signal-rules.js';

/** `file` with a block of random colour in a corner: pictures no other test of this run attests. */
async function unique(file: File): Promise<File> {
  const bitmap = await createImageBitmap(file);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  ctx.fillStyle = `rgb(${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join(',')})`;
  ctx.fillRect(0, 0, 24, 24);
  return new File([await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })], file.name, { type: 'image/jpeg' });
}

/** Changes every creation this page sends as `change` says, after the element hashed its images; the undo. */
function rewriteCreations(change: (body: CreateOnboardingRequest) => void): () => void {
  const { open, send } = XMLHttpRequest.prototype;
  const urls = new WeakMap<XMLHttpRequest, string>();
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: Parameters<typeof open>) {
    urls.set(this, String(args[1]));
    return open.apply(this, args);
  } as typeof open;
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    if (!urls.get(this)?.endsWith('/onboardings') || typeof body !== 'string') return send.call(this, body);
    const parsed = JSON.parse(body) as CreateOnboardingRequest;
    change(parsed);
    return send.call(this, JSON.stringify(parsed));
  };
  return () => Object.assign(XMLHttpRequest.prototype, { open, send });
}

/** What this engine's fake camera reports, read apart from the flow: for the figures. */
async function fakeCamera(): Promise<Record<string, unknown>> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: true });
  const track = stream.getVideoTracks()[0]!;
  const video = Object.assign(document.createElement('video'), { muted: true, playsInline: true, srcObject: stream });
  document.body.append(video);
  await video.play();
  const times = await new Promise<number[]>((resolve) => {
    const sampling = sampleFrameTimes(video, SIGNAL_THRESHOLDS.framesSampled, resolve);
    setTimeout(() => {
      sampling?.stop();
      resolve([]);
    }, 6000);
  });
  const capabilities = (track as MediaStreamTrack & { getCapabilities?: () => object }).getCapabilities?.();
  const { width, height, frameRate } = track.getSettings();
  const read = { label: track.label, width, height, frameRate, capabilities: capabilities ? Object.keys(capabilities) : null };
  for (const t of stream.getTracks()) t.stop();
  video.remove();
  return { ...read, frames: times.length, frameCv: frameTimingVariation(times) };
}

interface Sent {
  body: CreateOnboardingRequest;
  integrity: SessionIntegrity;
  /** Nonces the page asked for. */
  nonces: number;
  /** From the click on Enviar to the creation leaving the page. */
  sendMs: number;
}

/**
 * One onboarding in a session of its own, its photos picked from files (with `camera`, after the
 * camera was live on the front for a while), sent; what was sent and the session's integrity.
 */
async function onboardInSession(
  files: { front: File; back: File; selfie: File },
  how: { tamper?: (body: CreateOnboardingRequest) => void; camera?: boolean; retakeSelfie?: boolean } = {},
): Promise<Sent> {
  const ns = companionNamespace();
  const session = await executeServerCommand<{ id: string; clientSecret: string }, Record<string, unknown>>('stack-session', {
    reference: `integrity-${ns}`,
  });
  const { el } = await mount({ companion: 'real', ns, session: session.clientSecret });
  // The camera stays open while its frames are sampled: Chromium's fake one shows a card it would take by itself.
  el.manualCapture = true;
  await passConsent(el);
  await passCpf(el, CPF.approved);
  await chooseType(el, 'CNH');
  if (how.camera) {
    await openCamera(el);
    // Long enough for the frame times the collector samples, at 30 frames a second.
    await new Promise((resolve) => setTimeout(resolve, (SIGNAL_THRESHOLDS.framesSampled / 30) * 1000 + 800));
    captureView(el)!.shadowRoot!.querySelector<HTMLButtonElement>('[part~=capture-close]')!.click();
  }
  for (const [step, file] of [
    ['document-front', files.front],
    ['document-back', files.back],
    ['selfie', files.selfie],
  ] as const) {
    await waitForStep(el, step);
    await pickFile(el, file);
    if (step === 'selfie' && how.retakeSelfie) {
      await click(el, 'Tirar outra foto');
      await pickFile(el, file);
    }
    expect(preview(el), `the photo of ${step}`).to.not.equal(null);
    await click(el, 'Usar esta foto');
  }
  await waitForStep(el, 'review');
  let sentAt = 0;
  const undo = rewriteCreations((body) => {
    sentAt = performance.now();
    how.tamper?.(body);
  });
  const clickedAt = performance.now();
  try {
    await click(el, 'Enviar');
    await createdIn(ns);
  } finally {
    undo();
  }
  const record = await realRecord(ns);
  const body = record.uploads[0]!.body as CreateOnboardingRequest;
  const nonces = record.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/session/capture-nonce')).length;
  const view = await executeServerCommand<{ integrity: SessionIntegrity }, { id: string }>('stack-session-view', { id: session.id });
  el.remove();
  return { body, integrity: view.integrity, nonces, sendMs: sentAt - clickedAt };
}

describe('capture integrity', () => {
  it('signals and an attestation the companion finds valid; a tampered image and a replayed selfie break it', async function () {
    this.timeout(150_000);
    const files = { front: await unique(await cardJpeg()), back: await unique(await cardJpeg()), selfie: await unique(await faceJpeg()) };
    const first = await onboardInSession(files, { camera: true, retakeSelfie: true });
    const claim = first.body.integrity!;
    // Figures: what each engine's fake camera raises, and what hashing costs the creation.
    const items = Object.entries(first.body.images).map(([item, base64]) => ({
      item: item as 'selfie',
      nonce: 'n',
      sha256: () => sha256Hex(base64Bytes(base64!)),
    }));
    const hashStart = performance.now();
    await attestation(items);
    const hashMs = performance.now() - hashStart;
    await executeServerCommand('figure', {
      name: 'capture-integrity',
      value: {
        engine: currentEngine(),
        signals: claim.signals,
        camera: await fakeCamera(),
        sendMs: first.sendMs,
        hashMs,
        bytes: Object.values(first.body.images).map((base64) => base64Bytes(base64!).length),
      },
    });
    const names = claim.signals!.map((s) => s.name);
    // Every engine here runs under automation, and says so.
    expect(names).to.include('webdriver');
    // Read from each engine's fake camera on the front: WebKit's mock device says what it is;
    // Chromium's and Firefox's name no focus, zoom or torch.
    const camera = currentEngine() === 'webkit' ? 'virtual-camera-label' : 'no-camera-controls';
    expect(claim.signals!.find((s) => s.name === camera)?.role).to.equal('documentFront');
    // The camera went live on the front before a file was picked there; the other steps knew it was there.
    expect(claim.signals).to.deep.include({ name: 'file-despite-camera', role: 'documentBack', value: 'listed' });
    expect(claim.signals).to.deep.include({ name: 'file-despite-camera', role: 'documentFront', value: 'opened' });
    expect(claim.liveness).to.deep.equal({ result: 'unavailable', prompts: [], reason: 'file' });
    const links = claim.attestation!.links;
    expect(links.map((l) => l.item)).to.deep.equal(['documentFront', 'documentBack', 'selfie']);
    expect(new Set(links.map((l) => l.nonce)).size, 'one nonce per step').to.equal(3);
    expect(first.nonces, 'one nonce per step opening, the selfie taken again under its own').to.equal(3);
    expect(first.integrity.attestation.state).to.equal('valid');
    expect(first.integrity.signals.map((s) => s.name)).to.include('webdriver');

    // The same pictures again, in another session, with the front's bytes changed after hashing.
    const second = await onboardInSession(files, {
      tamper: (body) => {
        const front = body.images.documentFront!;
        const at = front.length >> 1;
        body.images.documentFront = front.slice(0, at) + (front[at] === 'A' ? 'B' : 'A') + front.slice(at + 1);
      },
    });
    expect(second.integrity.attestation.state).to.equal('invalid');
    expect(second.integrity.attestation.problems).to.deep.include({ problem: 'hash-mismatch', item: 'documentFront' });
    expect(second.integrity.attestation.problems).to.deep.include({ problem: 'replayed', item: 'selfie' });
  });
});
