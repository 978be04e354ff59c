/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, onlyIn } from '@onboarding-kit/testing/engine';
import { eventually, withDeadline } from '@onboarding-kit/testing/deadline';
import { expect } from '@open-wc/testing';
import { sampleGuidance } from '../image/pipeline.js';
import { analyzeFrame } from './frame-analysis.js';
import { startFrameSampler, type FrameFractions, type FrameSampler, type GuidanceUpdate, type RemoteSample } from './frame-sampler.js';
import { RegionReader } from './region-reader.js';
import { blankScene, cardScene, guideFor } from './test-helpers.js';

/** The document guide as fractions of a width x height frame. */
function guideFractions(width: number, height: number): FrameFractions {
  const g = guideFor('documentFront', width, height);
  return { x: g.x / width, y: g.y / height, width: g.width / width, height: g.height / height };
}

async function playing(stream: MediaStream): Promise<HTMLVideoElement> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  document.body.append(video);
  await video.play();
  await eventually(() => video.videoWidth > 0 && video.readyState >= 2, 'the video has a frame');
  return video;
}

/** A video of a canvas scene that keeps sending frames (a canvas stream only sends when drawn). */
async function canvasVideo(scene: OffscreenCanvas): Promise<{ video: HTMLVideoElement; close(): void }> {
  const canvas = document.createElement('canvas');
  canvas.width = scene.width;
  canvas.height = scene.height;
  const ctx = canvas.getContext('2d')!;
  const stream = canvas.captureStream(30);
  const draw = () => ctx.drawImage(scene, 0, 0);
  draw();
  const redraw = setInterval(draw, 33);
  const video = await playing(stream);
  return {
    video,
    close: () => {
      clearInterval(redraw);
      stream.getTracks().forEach((t) => t.stop());
      video.remove();
    },
  };
}

interface Run {
  sampler: FrameSampler;
  updates: GuidanceUpdate[];
  captures: number;
  captured: Promise<void>;
}

function run(video: HTMLVideoElement, autoCapture = true, remote?: RemoteSample): Run {
  let resolve!: () => void;
  const out: Run = {
    sampler: undefined as unknown as FrameSampler,
    updates: [],
    captures: 0,
    captured: new Promise<void>((r) => (resolve = r)),
  };
  out.sampler = startFrameSampler(video, {
    role: 'documentFront',
    guide: guideFractions(video.videoWidth, video.videoHeight),
    autoCapture,
    ...(remote && { remote }),
    onUpdate: (u) => out.updates.push(u),
    onAutoCapture: () => {
      out.captures++;
      resolve();
    },
  });
  return out;
}

describe('startFrameSampler on a playing video', () => {
  let close: (() => void) | undefined;
  let current: Run | undefined;
  afterEach(() => {
    current?.sampler.stop();
    close?.();
    current = undefined;
    close = undefined;
  });

  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'the fake camera showing the card: analyses say it fits, and the photo takes itself once',
    async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 } });
      const video = await playing(stream);
      close = () => {
        stream.getTracks().forEach((t) => t.stop());
        video.remove();
      };
      expect([video.videoWidth, video.videoHeight]).to.deep.equal([1280, 720]);
      current = run(video);
      await withDeadline(current.captured, 'the automatic photo');
      const last = current.updates.at(-1)!;
      console.log(
        `fake camera: ${current.updates.length} samples, ${last.analysis.card} sharpness=${last.analysis.sharpness.toFixed(0)} brightness=${last.analysis.brightness.toFixed(0)}; per sample mean ${current.sampler.timing.meanMs.toFixed(2)} ms, max ${current.sampler.timing.maxMs.toFixed(2)} ms`,
      );
      expect(last.analysis.card).to.equal('fits');
      expect(last.analysis.passes).to.equal(true);
      expect(last.progress).to.equal(1);
      // Held and passing frames came first: the photo waited for the hold to fill.
      expect(current.updates.some((u) => u.progress > 0 && u.progress < 1)).to.equal(true);
      // Quiet afterwards: more samples, no second photo.
      const seen = current.updates.length;
      await eventually(() => current!.updates.length >= seen + 3, 'samples after the photo');
      expect(current.captures).to.equal(1);
      expect(current.updates.slice(seen).every((u) => u.progress === 0)).to.equal(true);
    },
  );

  it('a canvas stream of the card: it fits and the photo takes itself', async () => {
    const v = await canvasVideo(cardScene());
    close = v.close;
    current = run(v.video);
    await withDeadline(current.captured, 'the automatic photo');
    expect(current.updates.at(-1)!.analysis.card).to.equal('fits');
    expect(current.captures).to.equal(1);
    expect(current.sampler.timing.samples).to.equal(current.updates.length);
  });

  it('the bare table: asks for the document, never takes the photo', async () => {
    const v = await canvasVideo(blankScene());
    close = v.close;
    current = run(v.video);
    await eventually(() => current!.updates.length >= 8, 'eight samples');
    expect(current.captures).to.equal(0);
    expect(current.updates.every((u) => u.analysis.card === 'none')).to.equal(true);
    expect(current.updates.at(-1)!.hint).to.equal('no-document');
  });

  it('with auto-capture off: hints and analyses, no photo; stop() ends the updates', async () => {
    const v = await canvasVideo(cardScene());
    close = v.close;
    current = run(v.video, false);
    await eventually(() => current!.updates.length >= 8, 'eight samples');
    expect(current.captures).to.equal(0);
    expect(current.updates.every((u) => u.progress === 0)).to.equal(true);
    current.sampler.stop();
    const seen = current.updates.length;
    // Long enough for two more samples had it gone on (a wait, not a measure).
    await new Promise((r) => setTimeout(r, 600));
    expect(current.updates.length).to.equal(seen);
  });

  describe('with the image worker as its remote', () => {
    it('the worker reads the card as the page does: same fit, same bars', async () => {
      const scene = cardScene();
      const guide = guideFractions(scene.width, scene.height);
      const g = {
        x: guide.x * scene.width,
        y: guide.y * scene.height,
        width: guide.width * scene.width,
        height: guide.height * scene.height,
      };
      const onPage = analyzeFrame(new RegionReader().read(scene, scene.width, scene.height, g, 0.06), {
        role: 'documentFront',
        margin: 0.06,
      });
      const inWorker = await sampleGuidance(await createImageBitmap(scene), { guide, margin: 0.06, role: 'documentFront' });
      expect(onPage.card).to.equal('fits');
      expect(inWorker.analysis.card).to.equal(onPage.card);
      expect(inWorker.analysis.hint).to.equal(onPage.hint);
      expect(inWorker.analysis.brightness).to.be.closeTo(onPage.brightness, 1);
      expect(inWorker.analysis.sharpness / onPage.sharpness).to.be.within(0.9, 1.1);
      expect(inWorker.grey.grey.length).to.equal(inWorker.grey.width * inWorker.grey.height);
    });

    it('every sample of a canvas stream of the card goes to the worker, and the photo takes itself', async () => {
      const v = await canvasVideo(cardScene());
      close = v.close;
      let sent = 0;
      current = run(v.video, true, (frame, request) => {
        sent++;
        return sampleGuidance(frame, request);
      });
      await withDeadline(current.captured, 'the automatic photo');
      expect(current.updates.at(-1)!.analysis.card).to.equal('fits');
      expect(current.captures).to.equal(1);
      expect(sent).to.be.at.least(current.updates.length);
    });

    it('a remote that keeps failing is given up: the page samples on its own, each frame closed', async () => {
      const v = await canvasVideo(cardScene());
      close = v.close;
      const closed: boolean[] = [];
      let calls = 0;
      current = run(v.video, true, (frame) => {
        calls++;
        frame.close();
        closed.push(true);
        return Promise.reject(new Error('this worker cannot read frames'));
      });
      await withDeadline(current.captured, 'the automatic photo on the page');
      expect(calls).to.equal(3);
      expect(closed.length).to.equal(calls);
      expect(current.updates.at(-1)!.analysis.card).to.equal('fits');
    });
  });
});
