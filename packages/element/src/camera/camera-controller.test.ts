/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { NOT_IN, onlyIn, skipIn } from '@onboarding-kit/testing/engine';
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { LitElement } from 'lit';
import { decode, meanAt, probeCard, worstProbe } from '@onboarding-kit/testing/pixels';
import { base64ToBytes } from '@onboarding-kit/contract';
import { frameRegionOf } from './frame-region.js';
import { processImage } from '../image/pipeline.js';
import { CameraController, constraintLadder, type CameraState } from './camera-controller.js';

/** Colour tolerance for the fake camera (measured worst probe: 2): Y4M (I420, BT.601) -> video -> canvas -> JPEG 0.95. */
const CAMERA_TOLERANCE = 8;

class CameraTestHost extends LitElement {
  camera = new CameraController(this);
  /** camera.state at each requestUpdate() the controller made. */
  states: CameraState[] = [];
  override requestUpdate(...args: Parameters<LitElement['requestUpdate']>): void {
    if (this.camera) this.states.push(this.camera.state);
    super.requestUpdate(...args);
  }
  override render() {
    return html`<video style="transform: scaleX(-1)"></video>`;
  }
  get video(): HTMLVideoElement {
    return this.renderRoot.querySelector('video')!;
  }
}
customElements.define('camera-test-host', CameraTestHost);

async function newHost(): Promise<CameraTestHost> {
  return fixture<CameraTestHost>(html`<camera-test-host></camera-test-host>`);
}

type GetUserMedia = MediaDevices['getUserMedia'];
interface GumCall {
  constraints: MediaStreamConstraints | undefined;
  result?: MediaStream;
  error?: unknown;
}

/** Wraps the real getUserMedia for one test to see what the controller asked and got. */
function spyGetUserMedia(before?: (constraints: MediaStreamConstraints | undefined) => void): GumCall[] {
  const calls: GumCall[] = [];
  const real: GetUserMedia = MediaDevices.prototype.getUserMedia;
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    before?.(constraints);
    const call: GumCall = { constraints };
    calls.push(call);
    try {
      call.result = await real.call(navigator.mediaDevices, constraints);
      return call.result;
    } catch (error) {
      call.error = error;
      throw error;
    }
  };
  return calls;
}

function restoreGetUserMedia(): void {
  delete (navigator.mediaDevices as Partial<MediaDevices>).getUserMedia;
}

const ended = (stream: MediaStream | null | undefined) => stream!.getTracks().every((track) => track.readyState === 'ended');

describe('CameraController with the fake camera', () => {
  let host: CameraTestHost;

  afterEach(async () => {
    restoreGetUserMedia();
    host?.camera.stop();
    await executeServerCommand('camera-permission', { grant: true });
  });

  it('does nothing before start(): idle, no stream, no getUserMedia call', async () => {
    const calls = spyGetUserMedia();
    host = await newHost();
    expect(host.camera.state).to.equal('idle');
    expect(host.camera.stream).to.equal(null);
    expect(host.camera.facing).to.equal(null);
    expect(calls).to.have.length(0);
  });

  it("start('environment') goes live through 'starting' and shows the stream in the attached video", async () => {
    host = await newHost();
    host.camera.attach(host.video);
    await host.camera.start('environment');
    expect(host.camera.state).to.equal('live');
    expect(host.camera.error).to.equal(null);
    expect(host.camera.facing).to.equal('environment');
    expect(host.states).to.deep.equal(['starting', 'live']);
    const [track] = host.camera.stream!.getVideoTracks();
    expect(track!.readyState).to.equal('live');
    expect(host.video.srcObject).to.equal(host.camera.stream);
    expect(host.video.muted).to.equal(true);
    expect(host.video.playsInline).to.equal(true);
  });

  onlyIn(['chromium'], NOT_IN.cardCamera)('falls back from exact facing to preferred facing with high-resolution preferences', async () => {
    const calls = spyGetUserMedia();
    host = await newHost();
    await host.camera.start('user');
    expect(host.camera.state).to.equal('live');
    // The fake device reports no facing, so `exact` is overconstrained for real.
    expect(calls).to.have.length(2);
    expect(calls[0]!.constraints).to.deep.equal(constraintLadder('user')[0]);
    expect((calls[0]!.error as DOMException).name).to.equal('OverconstrainedError');
    expect(calls[1]!.constraints).to.deep.equal({
      audio: false,
      video: { width: { ideal: 1920 }, height: { ideal: 1080 }, facingMode: { ideal: 'user' } },
    });
    expect(calls[1]!.result).to.equal(host.camera.stream);
    const settings = host.camera.stream!.getVideoTracks()[0]!.getSettings();
    expect([settings.width, settings.height]).to.deep.equal([1280, 720]);
  });

  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'capture() gives the full-resolution, unmirrored frame of the Y4M picture (preview mirrored by CSS)',
    async () => {
      host = await newHost();
      host.camera.attach(host.video);
      await host.camera.start('user');
      const blob = await host.camera.capture();
      expect(blob.type).to.equal('image/jpeg');
      const image = await decode(blob);
      expect([image.width, image.height]).to.deep.equal([1280, 720]);
      const probes = probeCard(image);
      console.log(`camera capture worst probe diff: ${worstProbe(probes).toFixed(1)}`);
      expect(worstProbe(probes), JSON.stringify(probes)).to.be.at.most(CAMERA_TOLERANCE);
      // Mirrored, the probes would land on other colours.
      expect(worstProbe(probeCard(image, true))).to.be.greaterThan(60);
    },
  );

  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'capturePixels() gives the frame as pixels (a VideoFrame here), unmirrored, and a region as the whole frame marked with its region, which the pipeline cuts out exactly',
    async () => {
      host = await newHost();
      host.camera.attach(host.video);
      await host.camera.start('user');
      const whole = await host.camera.capturePixels();
      expect(whole).to.be.instanceOf(VideoFrame);
      const frame = whole as VideoFrame;
      expect([frame.displayWidth, frame.displayHeight]).to.deep.equal([1280, 720]);
      const canvas = new OffscreenCanvas(1280, 720);
      canvas.getContext('2d')!.drawImage(frame, 0, 0);
      frame.close();
      const image = await decode(await canvas.convertToBlob({ type: 'image/png' }));
      expect(worstProbe(probeCard(image)), 'the frame as the camera gave it').to.be.at.most(CAMERA_TOLERANCE);
      expect(worstProbe(probeCard(image, true))).to.be.greaterThan(60);
      const part = await host.camera.capturePixels({ region: () => ({ x: 640, y: 360, width: 640, height: 360 }) });
      // No copy on the page: the whole frame, carrying the region for the image worker to cut.
      expect(part).to.be.instanceOf(VideoFrame);
      expect([(part as VideoFrame).displayWidth, (part as VideoFrame).displayHeight]).to.deep.equal([1280, 720]);
      expect(frameRegionOf(part)).to.deep.equal({ x: 640, y: 360, width: 640, height: 360 });
      const result = await processImage(part, { role: 'documentFront', keepAnyway: true });
      URL.revokeObjectURL(result.previewUrl);
      expect([result.processedIn, result.width, result.height]).to.deep.equal(['worker', 640, 360]);
      const quarter = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }));
      // The bottom-right quarter of the picture: its pixel (5, 5) is the picture's (645, 365).
      const expected = meanAt(image, 645, 365, 0);
      const actual = meanAt(quarter, 5, 5, 0);
      expect(Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)))).to.be.at.most(CAMERA_TOLERANCE + 2);
    },
  );

  onlyIn(['chromium'], NOT_IN.cardCamera)(
    'a capture goes through the image pipeline as pixels into a capped JPEG that still shows the picture',
    async () => {
      host = await newHost();
      host.camera.attach(host.video);
      await host.camera.start('environment');
      const result = await processImage(await host.camera.capturePixels(), { role: 'documentFront', maxBytes: 512 * 1024 });
      expect([result.processedIn, result.processedBy]).to.deep.equal(['worker', 'own']);
      URL.revokeObjectURL(result.previewUrl);
      expect(result.bytes).to.be.at.most(512 * 1024);
      expect([result.width, result.height]).to.deep.equal([1280, 720]);
      const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }));
      expect(worstProbe(probeCard(image))).to.be.at.most(CAMERA_TOLERANCE + 2);
      console.log(`camera capture through pipeline: ${result.bytes} B, checks ${JSON.stringify(result.checks)}`);
    },
  );

  onlyIn(['chromium'], NOT_IN.cardCamera)('capture() works without an attached preview and can give PNG', async () => {
    host = await newHost();
    await host.camera.start('environment');
    const blob = await host.camera.capture({ type: 'image/png' });
    expect(blob.type).to.equal('image/png');
    const image = await decode(blob);
    expect(worstProbe(probeCard(image))).to.be.at.most(CAMERA_TOLERANCE);
  });

  it('capture() when not live rejects with an aborted CameraError', async () => {
    host = await newHost();
    const error = await host.camera.capture().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.have.property('code', 'aborted');
  });

  it('stop() stops every track, detaches the video and goes idle', async () => {
    host = await newHost();
    host.camera.attach(host.video);
    await host.camera.start('environment');
    const stream = host.camera.stream;
    host.camera.stop();
    expect(ended(stream)).to.equal(true);
    expect(host.camera.state).to.equal('idle');
    expect(host.camera.stream).to.equal(null);
    expect(host.video.srcObject).to.equal(null);
  });

  it('switching facing stops the old tracks before asking for the new camera', async () => {
    host = await newHost();
    await host.camera.start('environment');
    const old = host.camera.stream;
    const oldEndedAtRequest: boolean[] = [];
    spyGetUserMedia(() => oldEndedAtRequest.push(ended(old)));
    await host.camera.start('user');
    expect(oldEndedAtRequest.length).to.be.greaterThan(0);
    expect(oldEndedAtRequest.every(Boolean)).to.equal(true);
    expect(host.camera.stream).to.not.equal(old);
    expect(host.camera.facing).to.equal('user');
    expect(host.camera.state).to.equal('live');
  });

  it('stop() while starting discards (and stops) the stream that arrives late', async () => {
    const calls = spyGetUserMedia();
    host = await newHost();
    const starting = host.camera.start('environment');
    expect(host.camera.state).to.equal('starting');
    host.camera.stop();
    await starting;
    expect(host.camera.state).to.equal('idle');
    expect(host.camera.stream).to.equal(null);
    const opened = calls.map((c) => c.result).filter(Boolean);
    expect(opened).to.have.length(1);
    expect(ended(opened[0])).to.equal(true);
  });

  it('removing the host from the page stops every track', async () => {
    host = await newHost();
    await host.camera.start('environment');
    const stream = host.camera.stream;
    host.remove();
    expect(ended(stream)).to.equal(true);
    expect(host.camera.state).to.equal('idle');
  });

  it('the page becoming hidden stops every track', async () => {
    host = await newHost();
    await host.camera.start('environment');
    const stream = host.camera.stream;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    expect(ended(stream)).to.equal(true);
    expect(host.camera.state).to.equal('idle');
  });

  it('a visibilitychange to visible leaves the camera live', async () => {
    host = await newHost();
    await host.camera.start('environment');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(document.visibilityState).to.equal('visible');
    expect(host.camera.state).to.equal('live');
  });

  it('a track ended by the browser turns into an aborted error with the stream released', async () => {
    host = await newHost();
    await host.camera.start('environment');
    const stream = host.camera.stream!;
    stream.getVideoTracks()[0]!.dispatchEvent(new Event('ended'));
    expect(host.camera.state).to.equal('error');
    expect(host.camera.error?.code).to.equal('aborted');
    expect(ended(stream)).to.equal(true);
  });

  skipIn(['webkit'], NOT_IN.cameraDenial)("denied permission -> state 'error' with code 'denied', and no stream", async () => {
    await executeServerCommand('camera-permission', { grant: false });
    host = await newHost();
    await host.camera.start('environment');
    expect(host.camera.state).to.equal('error');
    expect(host.camera.error?.code).to.equal('denied');
    expect((host.camera.error?.cause as DOMException).name).to.equal('NotAllowedError');
    expect(host.camera.stream).to.equal(null);
    expect(host.states).to.deep.equal(['starting', 'error']);
  });

  skipIn(['webkit'], NOT_IN.cameraDenial)('after a denial, granting and starting again goes live', async () => {
    await executeServerCommand('camera-permission', { grant: false });
    host = await newHost();
    await host.camera.start('environment');
    expect(host.camera.error?.code).to.equal('denied');
    await executeServerCommand('camera-permission', { grant: true });
    await host.camera.start('environment');
    expect(host.camera.state).to.equal('live');
    expect(host.camera.error).to.equal(null);
  });

  it("every request overconstrained, even `video: true` (WebKit without a camera) -> 'no-camera'", async () => {
    host = await newHost();
    const asked: (MediaStreamConstraints | undefined)[] = [];
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      asked.push(constraints);
      throw new DOMException('Invalid constraint', 'OverconstrainedError');
    };
    await host.camera.start('environment');
    expect(asked).to.deep.equal(constraintLadder('environment'));
    expect(host.camera.state).to.equal('error');
    expect(host.camera.error?.code).to.equal('no-camera');
    expect((host.camera.error?.cause as DOMException).name).to.equal('OverconstrainedError');
  });

  it("no mediaDevices API -> 'unsupported' (secure context)", async () => {
    host = await newHost();
    navigator.mediaDevices.getUserMedia = undefined as unknown as GetUserMedia;
    await host.camera.start('environment');
    expect(host.camera.error?.code).to.equal('unsupported');
  });
});
