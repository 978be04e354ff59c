/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { CAPTURE_INTEGRITY_LIMITS, base64ToBytes, bytesToBase64, chainHead, sha256Hex } from '@onboarding-kit/contract';
import { expect } from '@open-wc/testing';
import { CapturedPhotos, type CapturedPhoto } from '../controllers/captured-photos.js';
import { CaptureNonces } from './capture-nonces.js';
import { sampleFrameTimes } from './frame-times.js';
import { attestation, integrityClaim, livenessOf } from './integrity-claim.js';
import {
  SIGNAL_THRESHOLDS,
  fileDespiteCamera,
  frameTimingVariation,
  noCameraControls,
  oddVideoFormat,
  pageHidden,
  regularFrameTiming,
  virtualCameraLabel,
  webdriver,
} from './signal-rules.js';

/** `count` frame times `interval` ms apart, each shifted by `jitter(i)` ms. */
const frames = (count: number, interval: number, jitter: (i: number) => number = () => 0): number[] =>
  Array.from({ length: count }, (_, i) => 1000 + i * interval + jitter(i));

describe('injection signal rules', () => {
  it('virtual-camera-label: known virtual cameras by their label, real webcams not', () => {
    for (const label of [
      'OBS Virtual Camera',
      'ManyCam Virtual Webcam',
      'Snap Camera',
      'Dummy video device (0x0000)',
      'XSplit VCam',
      'fake_device_0',
    ])
      expect(virtualCameraLabel(label, 'selfie'), label).to.deep.equal({ name: 'virtual-camera-label', role: 'selfie', value: label });
    for (const label of ['FaceTime HD Camera', 'Integrated Camera (04f2:b6dd)', 'HD Pro Webcam C920', 'Front Camera', ''])
      expect(virtualCameraLabel(label), label).to.equal(null);
    expect((virtualCameraLabel(`OBS ${'x'.repeat(300)}`)!.value as string).length).to.equal(CAPTURE_INTEGRITY_LIMITS.signalValueMaxChars);
  });

  it('no-camera-controls: raised without focus, zoom and torch; nothing said without capabilities', () => {
    expect(noCameraControls({ width: { min: 1, max: 640 }, frameRate: { min: 1, max: 30 } }, 'documentFront')).to.deep.equal({
      name: 'no-camera-controls',
      role: 'documentFront',
    });
    for (const control of ['focusMode', 'focusDistance', 'zoom', 'torch'])
      expect(noCameraControls({ width: { max: 640 }, [control]: {} }), control).to.equal(null);
    expect(noCameraControls(null)).to.equal(null);
  });

  it('odd-video-format: frame rates out of 10..60 and sizes not a multiple of 8', () => {
    expect(oddVideoFormat({ width: 1920, height: 1080, frameRate: 30 })).to.equal(null);
    expect(oddVideoFormat({ width: 640, height: 480, frameRate: SIGNAL_THRESHOLDS.maxFrameRate })).to.equal(null);
    expect(oddVideoFormat({ width: 640, height: 480, frameRate: SIGNAL_THRESHOLDS.minFrameRate })).to.equal(null);
    expect(oddVideoFormat({ width: 640, height: 480 })).to.equal(null);
    expect(oddVideoFormat({ width: 1280, height: 720, frameRate: 120 }, 'selfie')!.value).to.equal('1280x720@120');
    expect(oddVideoFormat({ width: 1280, height: 720, frameRate: 5 })!.value).to.equal('1280x720@5');
    expect(oddVideoFormat({ width: 1366, height: 768, frameRate: 29.97 })!.value).to.equal('1366x768@29.97');
    expect(oddVideoFormat({ width: 641, frameRate: 30 })!.value).to.equal('641x?@30');
  });

  it('regular-frame-timing: a metronome is raised, a sensor’s jitter and too few frames are not', () => {
    const n = SIGNAL_THRESHOLDS.minFrames;
    expect(frameTimingVariation(frames(n - 1, 33.3))).to.equal(null);
    expect(regularFrameTiming(frames(n, 33.3), 'selfie')).to.deep.equal({ name: 'regular-frame-timing', role: 'selfie', value: 0 });
    // 2 ms either way on 33 ms: a coefficient of about 12 %, as webcams give.
    const jittery = frames(60, 33.3, (i) => (i % 2 ? 2 : -2));
    expect(frameTimingVariation(jittery)).to.be.above(SIGNAL_THRESHOLDS.regularTimingCv);
    expect(regularFrameTiming(jittery)).to.equal(null);
    // Just under the threshold: 0.05 ms on 33 ms.
    const tight = regularFrameTiming(frames(60, 33.3, (i) => (i % 2 ? 0.05 : -0.05)));
    expect(tight!.value).to.be.within(0.002, SIGNAL_THRESHOLDS.regularTimingCv);
    // Repeated times (a frame shown twice) are no interval.
    expect(frameTimingVariation([...frames(40, 40), ...frames(1, 40, () => 39 * 40)])).to.equal(0);
  });

  it('page-hidden, webdriver and file-despite-camera', () => {
    expect(pageHidden('hidden', 'documentBack')).to.deep.equal({ name: 'page-hidden', role: 'documentBack' });
    expect(pageHidden('visible')).to.equal(null);
    expect(webdriver(true)).to.deep.equal({ name: 'webdriver', value: true });
    expect(webdriver(false)).to.equal(null);
    expect(webdriver(undefined)).to.equal(null);
    expect(fileDespiteCamera('file', 'opened', 'selfie')).to.deep.equal({ name: 'file-despite-camera', role: 'selfie', value: 'opened' });
    expect(fileDespiteCamera('file', 'listed')!.value).to.equal('listed');
    expect(fileDespiteCamera('file', 'none')).to.equal(null);
    expect(fileDespiteCamera('camera', 'opened')).to.equal(null);
  });
});

describe('the integrity claim', () => {
  it('liveness: the selfie’s own report, else the honest reason it did not run', () => {
    const selfie = { base64: '', role: 'selfie' } as never;
    const passed = { result: 'passed', prompts: [{ prompt: 'turn-left', met: true }] } as const;
    expect(livenessOf({ ...(selfie as object), liveness: passed } as never, { source: 'camera', camera: 'opened' })).to.equal(passed);
    expect(livenessOf(selfie, { source: 'file', camera: 'listed' })!.reason).to.equal('file');
    expect(livenessOf(selfie, { source: 'file', camera: 'none' })!.reason).to.equal('no-camera');
    expect(livenessOf(selfie, { source: 'camera', camera: 'opened' })).to.deep.equal({
      result: 'unavailable',
      prompts: [],
      reason: 'model-unavailable',
    });
    expect(livenessOf(undefined, null)).to.equal(undefined);
  });

  it('attestation: one link per item with the hash of its bytes, chained; none when an item lacks a nonce', async () => {
    const front = new Uint8Array([1, 2, 3]);
    const selfie = new Uint8Array([4, 5]);
    const made = await attestation([
      { item: 'documentFront', nonce: 'n1', sha256: () => sha256Hex(front) },
      { item: 'selfie', nonce: 'n2', sha256: () => sha256Hex(selfie) },
      { item: 'keyframe-1', nonce: 'n2', sha256: () => sha256Hex(selfie) },
    ]);
    expect(made!.links).to.deep.equal([
      { item: 'documentFront', nonce: 'n1', sha256: await sha256Hex(front) },
      { item: 'selfie', nonce: 'n2', sha256: await sha256Hex(selfie) },
      { item: 'keyframe-1', nonce: 'n2', sha256: await sha256Hex(selfie) },
    ]);
    expect(made!.head).to.equal(await chainHead(made!.links));
    let hashed = 0;
    const counted = async () => (hashed++, sha256Hex(front));
    const unsent = await attestation([
      { item: 'documentFront', nonce: 'n1', sha256: counted },
      { item: 'selfie', sha256: counted },
    ]);
    expect(unsent).to.equal(undefined);
    expect(hashed, 'nothing hashed without every nonce').to.equal(0);
    expect(await attestation([])).to.equal(undefined);
  });
});

describe('the creation’s claim', () => {
  it('the selfie’s keyframes within the limits, in pure base64, linked under the selfie’s nonce after the images', async () => {
    const frame = (byte: number, size = 4) => new Blob([new Uint8Array(size).fill(byte)], { type: 'image/jpeg' });
    const tooBig = frame(9, CAPTURE_INTEGRITY_LIMITS.keyframeMaxBytes + 1);
    const images = { documentFront: bytesToBase64(new Uint8Array([1, 2, 3])), selfie: bytesToBase64(new Uint8Array([4, 5])) };
    const photos = {
      documentFront: { nonce: 'n-front' },
      selfie: { nonce: 'n-selfie', keyframes: [frame(1), tooBig, frame(2), frame(3), frame(4)] },
    } as never;
    const hashOf = (base64: string) => sha256Hex(base64ToBytes(base64));
    const signals = [{ name: 'webdriver', value: true }] as const;
    const claim = await integrityClaim({ images, hashOf, photos, signals: [...signals], selfie: { source: 'camera', camera: 'opened' } });
    expect(claim.keyframes).to.deep.equal([1, 2, 3].map((byte) => bytesToBase64(new Uint8Array(4).fill(byte))));
    expect(claim.liveness).to.deep.equal({ result: 'unavailable', prompts: [], reason: 'model-unavailable' });
    expect(claim.signals).to.deep.equal(signals);
    const links = claim.attestation!.links;
    expect(links.map((l) => `${l.item} ${l.nonce}`)).to.deep.equal([
      'documentFront n-front',
      'selfie n-selfie',
      'keyframe-1 n-selfie',
      'keyframe-2 n-selfie',
      'keyframe-3 n-selfie',
    ]);
    expect(links[2]!.sha256).to.equal(await sha256Hex(new Uint8Array(4).fill(1)));
    expect(claim.attestation!.head).to.equal(await chainHead(links));
    // A step without its nonce: no attestation at all, the rest as before.
    const unattested = await integrityClaim({ images, hashOf, photos: { selfie: {} } as never, signals: [], selfie: null });
    expect(unattested.attestation).to.equal(undefined);
    expect(unattested.liveness!.reason).to.equal('model-unavailable');
  });
});

describe('capture nonces', () => {
  it('a photo gets its step’s nonce once it comes, keeps it when the sides swap, and a late one finds no other photo', async () => {
    const photos = new CapturedPhotos(() => undefined);
    const photo = (role: CapturedPhoto['role'], base64: string) =>
      ({ role, base64, mime: 'image/jpeg', previewUrl: URL.createObjectURL(new Blob([base64])) }) as CapturedPhoto;
    const settled = () => new Promise((resolve) => setTimeout(resolve));
    photos.accept('documentFront', photo('documentFront', 'AAAA'), Promise.resolve('n-front'));
    photos.accept('documentBack', photo('documentBack', 'BBBB'), Promise.resolve(null));
    await settled();
    expect(photos.all.documentFront!.nonce).to.equal('n-front');
    expect(photos.all.documentBack!.nonce).to.equal(undefined);
    photos.swap('documentFront', 'documentBack');
    expect(photos.all.documentBack).to.include({ base64: 'AAAA', nonce: 'n-front' });
    let give: (nonce: string) => void = () => undefined;
    photos.accept('selfie', photo('selfie', 'CCCC'), new Promise((resolve) => (give = resolve)));
    photos.accept('selfie', photo('selfie', 'DDDD'));
    give('late');
    await settled();
    expect(photos.all.selfie!.nonce).to.equal(undefined);
    photos.clear();
  });

  it('none without a session, nor when the companion refuses or cannot be reached; none for a step not open', async () => {
    const asked: string[] = [];
    const nonces = (endpoint: string, secret: string | null) =>
      new CaptureNonces({ endpoint: () => (asked.push(endpoint), endpoint), secret: () => secret });
    const noSession = nonces('/never', null);
    noSession.open('selfie');
    expect(await noSession.current('selfie')).to.equal(null);
    expect(asked, 'no request without a session').to.deep.equal([]);
    // The companion double knows no such route: a 404 with the error body.
    const refused = nonces(`/test-companion/n${Date.now()}`, 'cs_test_refused_0123456789abcdef');
    refused.open('documentFront');
    expect(await refused.current('documentFront')).to.equal(null);
    const unreachable = nonces('http://127.0.0.1:9', 'cs_test_unreachable_0123456789abcdef');
    unreachable.open('documentBack');
    expect(await unreachable.current('documentBack')).to.equal(null);
    expect(await unreachable.current('selfie'), 'another step').to.equal(null);
    unreachable.close();
    expect(await unreachable.current('documentBack'), 'the step closed').to.equal(null);
  });
});

describe('frame times', () => {
  it('samples a playing video up to the count, and a stopped sampling calls back no more', async function () {
    this.timeout(20_000);
    const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 48 });
    const ctx = canvas.getContext('2d')!;
    const stream = canvas.captureStream(30);
    const paint = setInterval(() => ctx.fillRect(0, 0, Math.random() * 64, 48), 20);
    const video = Object.assign(document.createElement('video'), { muted: true, playsInline: true, srcObject: stream });
    document.body.append(video);
    try {
      await video.play();
      const times = await new Promise<number[]>((resolve) => expect(sampleFrameTimes(video, 10, resolve)).to.not.equal(null));
      expect(times).to.have.length(10);
      expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).to.equal(true);
      let calls = 0;
      const sampling = sampleFrameTimes(video, 1000, () => calls++)!;
      await new Promise((resolve) => setTimeout(resolve, 150));
      sampling.stop();
      const requested = HTMLVideoElement.prototype.requestVideoFrameCallback;
      let after = 0;
      HTMLVideoElement.prototype.requestVideoFrameCallback = function (this: HTMLVideoElement, ...args) {
        after++;
        return requested.apply(this, args);
      };
      await new Promise((resolve) => setTimeout(resolve, 300));
      HTMLVideoElement.prototype.requestVideoFrameCallback = requested;
      expect(after, 'no frame asked for after stop').to.equal(0);
      expect(calls).to.equal(0);
    } finally {
      clearInterval(paint);
      for (const track of stream.getTracks()) track.stop();
      video.remove();
    }
  });
});
