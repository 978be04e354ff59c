/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { renderCardPictureRgba } from '@onboarding-kit/testing/card-picture';
import { greyCopy } from '../image/quality.js';
import { detectFaces, FACE_LONG_EDGE, judgeSelfie, judgeSelfieSource } from './face-detector.js';
import { livenessWorker } from '../liveness/liveness-client.js';
import { FaceDetectorUnavailableError, judgeSelfieBlob } from './load-face.js';

/** NASA's portrait of Eileen Collins (public domain), as Debian's python3-skimage ships it: see test/fixtures/faces/README.md. */
const ASTRONAUT_URL = new URL('../../test/fixtures/faces/astronaut.jpg', import.meta.url).href;
/** The part of the portrait a selfie's oval box would hold: her face in the middle, 3:4. */
const SELFIE_CROP = { x: 135, y: 5, width: 180, height: 240 } as const;

let astronaut: ImageBitmap;
before(async () => {
  astronaut = await createImageBitmap(await (await fetch(ASTRONAUT_URL)).blob());
});

/** A grey canvas with the selfie crop drawn at `x, y` with width `size` (3:4). */
function scene(
  width: number,
  height: number,
  ...placements: { x: number; y: number; size: number }[]
): OffscreenCanvas | HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = 'rgb(128, 128, 128)';
  ctx.fillRect(0, 0, width, height);
  for (const { x, y, size } of placements) {
    ctx.drawImage(astronaut, SELFIE_CROP.x, SELFIE_CROP.y, SELFIE_CROP.width, SELFIE_CROP.height, x, y, size, (size * 4) / 3);
  }
  return canvas;
}

const judge = (source: CanvasImageSource & { width: number; height: number }) => judgeSelfie(greyCopy(source, FACE_LONG_EDGE));

describe('face detector', () => {
  it('finds the one face of the portrait, over her face', () => {
    const image = greyCopy(astronaut, 512);
    const faces = detectFaces(image);
    expect(faces).to.have.length(1);
    const [face] = faces;
    // Her face spans about x 170..290, y 70..190 of the 512 px portrait (eyes at y ~ 120).
    expect(face!.x + face!.width / 2).to.be.within(200, 250);
    expect(face!.y + face!.height / 2).to.be.within(100, 150);
    expect(face!.width).to.be.within(50, 120);
  });

  it('accepts a selfie: one face, large enough, in the oval', () => {
    const { verdict, faces } = judge(scene(240, 320, { x: 0, y: 0, size: 240 }));
    expect(verdict).to.equal('ok');
    expect(faces).to.have.length(1);
  });

  it('refuses two faces side by side', () => {
    expect(judge(scene(480, 320, { x: 0, y: 0, size: 240 }, { x: 240, y: 0, size: 240 })).verdict).to.equal('several-faces');
  });

  it('refuses a face too far from the camera, and finds it though it is smaller than the copy shows', () => {
    // Her head 18 % of the picture's width: the face box is under 11 % of the short side, and
    // below the detector's window on the 320 px copy: the closer look finds it.
    const small = scene(720, 960, { x: 295, y: 393, size: 130 });
    expect(judge(small).verdict, 'the 320 px copy alone sees no face').to.equal('no-face');
    expect(judgeSelfieSource(small).verdict).to.equal('face-too-small');
    // Her head 30 % of the width: an arm's length selfie, accepted.
    expect(judgeSelfieSource(scene(720, 960, { x: 252, y: 336, size: 216 })).verdict).to.equal('ok');
    // The whole portrait: her face, ~23 % of its width, is large enough, but high in the picture.
    expect(judge(astronaut).verdict).to.equal('face-off-center');
    // Landscape: the short axis (the height) is what the face is measured against.
    expect(judge(scene(640, 320, { x: 170, y: -40, size: 300 })).verdict).to.equal('ok');
  });

  it('refuses a face shifted towards a corner of the oval', () => {
    const { verdict, faces } = judge(scene(240, 320, { x: -60, y: -80, size: 240 }));
    expect(faces).to.have.length(1);
    expect(verdict).to.equal('face-off-center');
  });

  it('finds no face on the fake camera’s card, whose photo has a drawn face-like blob, at any framing', () => {
    const { width, height, rgba } = renderCardPictureRgba();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
    expect(judge(canvas).verdict).to.equal('no-face');
    // The card's photo alone, filling the frame as a selfie would: the blob is not a face either.
    const photo = document.createElement('canvas');
    photo.width = 250;
    photo.height = 320;
    photo.getContext('2d')!.drawImage(canvas, 240, 182, 250, 320, 0, 0, 250, 320);
    expect(judge(photo).verdict).to.equal('no-face');
  });

  it('finds no face in noise or a blank picture', () => {
    const noise = document.createElement('canvas');
    noise.width = 240;
    noise.height = 320;
    const ctx = noise.getContext('2d')!;
    const pixels = ctx.createImageData(240, 320);
    let seed = 7;
    for (let i = 0; i < pixels.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      pixels.data.fill(seed >> 23, i, i + 3);
      pixels.data[i + 3] = 255;
    }
    ctx.putImageData(pixels, 0, 0);
    expect(judge(noise).verdict).to.equal('no-face');
    expect(judge(scene(240, 320)).verdict).to.equal('no-face');
  });

  it('judges a decoded source on its grey copy, reporting that copy’s size', () => {
    const result = judgeSelfieSource(scene(480, 640, { x: 0, y: 0, size: 480 }));
    expect(result).to.include({ verdict: 'ok', width: 240, height: FACE_LONG_EDGE });
  });
});

describe('judgeSelfieBlob', () => {
  it('judges an encoded selfie in the liveness worker', async () => {
    const canvas = scene(240, 320, { x: 0, y: 0, size: 240 }) as HTMLCanvasElement;
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.9));
    const judgement = await judgeSelfieBlob(blob);
    expect(judgement.verdict).to.equal('ok');
    expect(judgement.faces).to.have.length(1);
  });

  it('says the check is unavailable where the worker cannot start', async () => {
    const blob = await (await fetch(ASTRONAUT_URL)).blob();
    const broken = livenessWorker(new URL('./missing-face-worker.js', location.href).href);
    expect(await judgeSelfieBlob(blob, broken).catch((e: unknown) => e)).to.be.instanceOf(FaceDetectorUnavailableError);
  });
});
