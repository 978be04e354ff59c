/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The live hint and the check after the shot agree, on real pictures through a camera stream:
 * a face at arm's length (NASA's public-domain portrait, her head 30 % of a 720x1280 portrait
 * frame's width) takes itself and is accepted; a smaller one (18 %) is told to come closer live
 * and after the shot; an empty frame on a document step is "no document" live and after the shot
 * (Firefox's own fake camera, a flat green frame; elsewhere a canvas stream of the same).
 * The selfie's own texts: accepted without "sharp and readable", refused from a file without the oval.
 */
import { currentEngine } from '@onboarding-kit/testing/engine';
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import { guideRect } from '../camera/guide-geometry.js';
import type { OnboardingCaptureEvent } from '../events.js';
import {
  CPF,
  captureView,
  cardJpeg,
  chooseType,
  cleanupListeners,
  click,
  errorText,
  faceJpeg,
  mount,
  openCamera,
  passConsent,
  passCpf,
  photoFor,
  pickFile,
  preview,
  root,
  takePhoto,
  text,
  waitFor,
  waitForStep,
} from '../onboarding-flow/test-helpers.js';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';

const resizable = currentEngine() !== 'webkit';

afterEach(async () => {
  cleanupListeners();
  if (resizable) await setViewport({ width: 1366, height: 768 });
});

async function shot(name: string): Promise<void> {
  await executeServerCommand<string, { name: string }>('screenshot', { name: `${name}-${currentEngine()}` });
}

/** Both sizes the guide asks for (WebKit's driver cannot resize: its window's size only). */
async function shots(el: OnboardingFlow, name: string): Promise<void> {
  if (!resizable) return shot(name);
  for (const [width, height, size] of [
    [390, 844, 'phone'],
    [1366, 768, 'laptop'],
  ] as const) {
    await setViewport({ width, height });
    await el.updateComplete;
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    await shot(`${name}-${size}`);
  }
}

const ASTRONAUT = new URL('../../test/fixtures/faces/astronaut.jpg', import.meta.url);
/** Her head in the portrait (the part the selfie fixtures use), 3:4. */
const HEAD = { x: 135, y: 5, width: 180, height: 240 } as const;

/**
 * A camera that shows a real picture: a canvas stream of a 720x1280 portrait frame (a phone's
 * front camera) with her head `share` of the frame's width, centred in the oval; with
 * `share` 0, a flat green 640x480 frame (Firefox's fake camera).
 */
async function pictureCamera(share: number): Promise<{ stop(): void }> {
  const portrait = await createImageBitmap(await (await fetch(ASTRONAUT)).blob());
  const [width, height] = share ? [720, 1280] : [640, 480];
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  const oval = guideRect('selfie', width, height);
  const draw = () => {
    ctx.fillStyle = share ? 'rgb(120, 120, 120)' : 'rgb(0, 255, 0)';
    ctx.fillRect(0, 0, width, height);
    if (!share) return;
    const w = width * share;
    const h = (w * 4) / 3;
    ctx.drawImage(
      portrait,
      HEAD.x,
      HEAD.y,
      HEAD.width,
      HEAD.height,
      oval.x + oval.width / 2 - w / 2,
      oval.y + oval.height / 2 - h / 2,
      w,
      h,
    );
  };
  draw();
  const painter = setInterval(draw, 100);
  const md = navigator.mediaDevices;
  const realGum = md.getUserMedia.bind(md);
  md.getUserMedia = async () => canvas.captureStream(15);
  return {
    stop() {
      md.getUserMedia = realGum;
      clearInterval(painter);
      portrait.close();
    },
  };
}

async function toSelfie(manual: boolean): Promise<OnboardingFlow> {
  const { el } = await mount();
  el.manualCapture = manual;
  await passConsent(el);
  await passCpf(el, CPF.approved);
  await chooseType(el, 'CNH');
  for (const next of ['document-back', 'selfie']) {
    await pickFile(el, await photoFor(el));
    await click(el, 'Usar esta foto');
    await waitForStep(el, next);
  }
  return el;
}

/** Every hint shown, in order (said once each time it changes), for the failure messages. */
const seen: string[] = [];
const hintOf = (el: OnboardingFlow): string => {
  const hint = captureView(el)?.shadowRoot?.querySelector<HTMLElement>('[part~=capture-hint]');
  const shown = hint && !hint.hidden ? hint.textContent!.trim() : '';
  if (shown !== seen[seen.length - 1]) seen.push(shown);
  return shown;
};
afterEach(() => {
  if (seen.length) console.log(`hints: ${seen.join(' | ')}`);
  seen.length = 0;
});

describe('live hints and the checks after the shot agree', () => {
  it('a face at arm’s length (her head 30 % of a 720x1280 frame’s width) takes itself and is accepted', async function () {
    this.timeout(120_000);
    const el = await toSelfie(false);
    const camera = await pictureCamera(0.3);
    try {
      const captured: OnboardingCaptureEvent[] = [];
      el.addEventListener('onboarding-capture', (e) => captured.push(e));
      const hints = new Set<string>();
      await openCamera(el);
      await waitFor(
        () => {
          const hint = hintOf(el);
          if (hint) hints.add(hint);
          return !!preview(el) || !!errorText(el);
        },
        'the selfie was never taken by itself',
        60_000,
      );
      expect(errorText(el), [...hints].join(' | ')).to.equal('');
      expect(hints.has('Aproxime o rosto'), 'never told to come closer').to.equal(false);
      expect(captured.map((e) => e.detail.role)).to.deep.equal(['selfie']);
      expect(captured[0]!.detail.keptAnyway).to.equal(undefined);
      expect(text(el)).to.include('Selfie aceita');
      expect(text(el)).to.not.include('nítida e legível');
      await shots(el, 'selfie-arms-length-accepted');
    } finally {
      camera.stop();
    }
  });

  it('a smaller face (her head 18 %) is told "Aproxime o rosto" live and after the shot', async function () {
    this.timeout(120_000);
    const el = await toSelfie(false);
    const camera = await pictureCamera(0.18);
    try {
      await openCamera(el);
      await waitFor(() => hintOf(el) === 'Aproxime o rosto', 'the live hint never said "Aproxime o rosto"', 40_000);
      // Shown for a while, and no photo takes itself.
      await new Promise((r) => setTimeout(r, 1500));
      expect(hintOf(el)).to.equal('Aproxime o rosto');
      expect(preview(el)).to.equal(null);
      await shots(el, 'selfie-small-face-hint');
      await takePhoto(el);
      expect(errorText(el)).to.match(/^Aproxime o rosto/);
      expect(errorText(el)).to.not.match(/Mostre o rosto/);
      await shots(el, 'selfie-small-face-refused');
    } finally {
      camera.stop();
    }
  });

  it('an empty frame on the document step is "no document" live and after the shot, never "blurry"', async function () {
    this.timeout(120_000);
    // Firefox's own fake camera is the flat green frame; elsewhere a canvas stream stands in for it.
    const camera = currentEngine() === 'firefox' ? null : await pictureCamera(0);
    try {
      const { el } = await mount();
      el.manualCapture = false;
      await passConsent(el);
      await passCpf(el, CPF.approved);
      await chooseType(el, 'CNH');
      await openCamera(el);
      await waitFor(
        () => hintOf(el) === 'Coloque o documento na moldura',
        'the live hint never said "Coloque o documento na moldura"',
        30_000,
      );
      await takePhoto(el);
      expect(errorText(el)).to.match(/^Não encontramos o documento na moldura/);
      expect(errorText(el)).to.not.match(/tremida/);
      await shots(el, 'document-empty-frame-refused');
    } finally {
      camera?.stop();
    }
  });

  it('texts: a document accepted is to be checked for reading, a selfie for the face; a selfie refused from a file is not told about the oval', async function () {
    this.timeout(120_000);
    const { el } = await mount();
    await passConsent(el);
    await passCpf(el, CPF.approved);
    await chooseType(el, 'CNH');
    await pickFile(el, await cardJpeg());
    expect(text(el)).to.include('Confira se está nítida e legível');
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'document-back');
    await pickFile(el, await cardJpeg('back.jpg'));
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
    // The card as a selfie: no face in the file.
    await pickFile(el, await cardJpeg('selfie.jpg'));
    expect(errorText(el)).to.include('Não encontramos um rosto nesta foto');
    expect(errorText(el)).to.not.match(/oval/i);
    await shots(el, 'selfie-file-no-face');
    await click(el, 'Tirar outra foto');
    await pickFile(el, await faceJpeg());
    expect(errorText(el)).to.equal('');
    const said = root(el).querySelector('[aria-live]')!.textContent!;
    expect(text(el)).to.include('Selfie aceita. Confira se o seu rosto aparece inteiro e bem iluminado.');
    expect(text(el)).to.not.include('nítida e legível');
    expect(said).to.not.include('nítida e legível');
    await shots(el, 'selfie-file-accepted');
  });
});
