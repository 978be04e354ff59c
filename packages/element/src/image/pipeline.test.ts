/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { currentEngine, onlyIn } from '@onboarding-kit/testing/engine';
import { base64ToBytes, bytesToBase64, isPureBase64, sniffBase64 } from '@onboarding-kit/contract';
import { COLOURS, PICTURE_HEIGHT, PICTURE_WIDTH, PROBES } from '@onboarding-kit/testing/card-picture';
import { canvasBlob, cardCanvas, decode, meanAt, probeCard, worstProbe } from '@onboarding-kit/testing/pixels';
import { setFrameRegion } from '../camera/frame-region.js';
import { jpegSize } from './jpeg-size.js';
import { DEFAULT_THRESHOLDS, ImageCheckError, processImage, type FramePixels, type PipelineOptions } from './pipeline.js';
import { canvasEncodesWebp, degradedCard } from './test-helpers.js';
import { defaultImageWorkerURL } from './worker-url.js';

/** The card picture after the pipeline's JPEG encode: measured worst probe 1.0. */
const JPEG_TOLERANCE = 10;

async function cardPng(filter = 'none', width = PICTURE_WIDTH, height = PICTURE_HEIGHT): Promise<Blob> {
  return canvasBlob(cardCanvas(width, height, filter));
}

type NetworkLog = { external: string[]; all: string[] };

/** The requests since the last call; null where the engine's launcher cannot record them (WebKit). */
async function networkLog(): Promise<NetworkLog | null> {
  const log = await executeServerCommand<NetworkLog | 'unsupported', unknown>('network-log');
  return log === 'unsupported' ? null : log;
}

async function refusal(promise: Promise<unknown>): Promise<ImageCheckError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected a refusal').to.be.instanceOf(ImageCheckError);
  return error as ImageCheckError;
}

const front: PipelineOptions = { role: 'documentFront' };
const revoke: string[] = [];

afterEach(() => {
  for (const url of revoke.splice(0)) URL.revokeObjectURL(url);
});

describe('processImage: the card picture', () => {
  it("comes out as pure base64 of a JPEG within the caps, with the picture's pixels, prepared in the image worker", async () => {
    await networkLog();
    const result = await processImage(await cardPng(), front);
    revoke.push(result.previewUrl);
    expect(result.role).to.equal('documentFront');
    expect(result.mime).to.equal('image/jpeg');
    expect(isPureBase64(result.base64)).to.equal(true);
    expect(result.base64.startsWith('data:')).to.equal(false);
    expect(sniffBase64(result.base64)).to.equal('image/jpeg');
    const bytes = base64ToBytes(result.base64);
    expect(bytes.length).to.equal(result.bytes);
    expect(result.bytes).to.be.at.most(1024 * 1024);
    expect([result.width, result.height]).to.deep.equal([1280, 720]);
    const image = await decode(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    expect([image.width, image.height]).to.deep.equal([1280, 720]);
    const probes = probeCard(image);
    console.log(
      `pipeline output worst probe diff: ${worstProbe(probes).toFixed(1)}, bytes ${result.bytes}, checks ${JSON.stringify(result.checks)}, timings ${JSON.stringify(result.timings)}`,
    );
    expect(worstProbe(probes), JSON.stringify(probes)).to.be.at.most(JPEG_TOLERANCE);
    // The preview URL shows the same JPEG.
    const preview = await fetch(result.previewUrl).then((r) => r.arrayBuffer());
    expect(new Uint8Array(preview)).to.deep.equal(bytes);

    // Every engine these tests run in has OffscreenCanvas in workers: the worker answered, the
    // page did none of the pixel work.
    expect(result.processedIn).to.equal('worker');
    const log = await networkLog();
    if (log) {
      expect(log.external).to.deep.equal([]);
      expect(log.all.some((entry) => entry.includes('jsdelivr'))).to.equal(false);
      // The compression library comes with the worker (the test server serves it as a module
      // from its own origin; the build puts it inside the worker file), never as a blob: worker.
      const library = log.all.filter((entry) => entry.includes('browser-image-compression'));
      for (const entry of library) expect(new URL(entry.split(' ')[1]!).origin).to.equal(location.origin);
      expect(log.all.some((entry) => entry.includes('blob:'))).to.equal(false);
    }
  });

  it('the worker is the self-hosted script beside the pipeline module', async () => {
    // A fresh URL (same file, a query) so that this test sees the worker script being fetched.
    await networkLog();
    const workerURL = `${defaultImageWorkerURL()}?fresh=${Date.now()}`;
    const result = await processImage(await cardPng(), { ...front, workerURL });
    revoke.push(result.previewUrl);
    expect(result.processedIn).to.equal('worker');
    const log = await networkLog();
    if (log) {
      expect(log.all).to.include(`GET ${workerURL}`);
      expect(log.external).to.deep.equal([]);
    }
  });

  it('a picture over the long-edge cap is resized in the worker', async () => {
    const result = await processImage(await cardPng('none', 2400, 1350), front);
    revoke.push(result.previewUrl);
    expect(result.processedIn).to.equal('worker');
    expect([result.width, result.height]).to.deep.equal([2000, 1125]);
    expect(result.bytes).to.be.at.most(1024 * 1024);
  });

  it('a picture that fits but encodes over the byte cap is encoded again at lower quality or size', async () => {
    const result = await processImage(await cardPng(), { ...front, maxBytes: 12 * 1024 });
    revoke.push(result.previewUrl);
    expect(result.processedIn).to.equal('worker');
    expect(result.bytes).to.be.at.most(12 * 1024);
    expect(sniffBase64(result.base64)).to.equal('image/jpeg');
  });

  it('a byte cap no JPEG can meet is a compression failure that says so', async () => {
    const error = await refusal(processImage(await cardPng(), { ...front, maxBytes: 100 }));
    expect(error.code).to.equal('compression-failed');
    expect(error.message).to.contain('small enough');
    expect(error.detail).to.include({ maxBytes: 100 });
  });

  it('keeps a selfie unmirrored', async () => {
    const result = await processImage(await cardPng(), { role: 'selfie' });
    revoke.push(result.previewUrl);
    const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
    expect(worstProbe(probeCard(image))).to.be.at.most(JPEG_TOLERANCE);
    expect(worstProbe(probeCard(image, true))).to.be.greaterThan(60);
  });

  it('accepts WebP input and still outputs JPEG', async function () {
    // WebKit's canvas cannot make a WebP to feed in (it encodes PNG instead).
    if (!(await canvasEncodesWebp())) this.skip();
    const webp = await canvasBlob(cardCanvas(), 'image/webp', 0.95);
    expect(new TextDecoder().decode(new Uint8Array(await webp.slice(8, 12).arrayBuffer()))).to.equal('WEBP');
    const result = await processImage(webp, front);
    revoke.push(result.previewUrl);
    expect(sniffBase64(result.base64)).to.equal('image/jpeg');
  });

  it('accepts a portrait picture (minimum size does not depend on orientation)', async () => {
    const result = await processImage(await cardPng('none', 720, 1280), { role: 'documentBack' });
    revoke.push(result.previewUrl);
    expect([result.width, result.height]).to.deep.equal([720, 1280]);
  });

  it('an explicit main-thread fallback when the worker script is missing, and still no CDN request', async () => {
    await networkLog();
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    let result;
    try {
      result = await processImage(await cardPng('none', 2400, 1350), {
        ...front,
        workerURL: new URL('/no-such-worker.js', location.href).href,
      });
    } finally {
      console.warn = warn;
    }
    revoke.push(result.previewUrl);
    expect(result.processedIn).to.equal('main-thread');
    // The library is never loaded on the page: its work there would be main-thread work.
    expect([result.processedBy, result.ownBecause]).to.deep.equal(['own', undefined]);
    expect(String(warnings[0])).to.contain('main thread').and.to.contain('no-such-worker.js');
    expect(sniffBase64(result.base64)).to.equal('image/jpeg');
    expect([result.width, result.height]).to.deep.equal([2000, 1125]);
    const log = await networkLog();
    if (log) expect(log.external).to.deep.equal([]);
  });
});

/** The compression library needs `Image` in WebKit (it sniffs Safari and decodes with `new Image()`), which workers lack. */
const LIBRARY_NEEDS_IMAGE = 'WebKit: the compression library decodes with new Image() there, which a worker does not have';

describe('processImage: which code resizes and encodes in the worker', () => {
  it('the own encode, once, for a picture whose first JPEG is within the byte cap, also one it resizes', async () => {
    const fits = await processImage(await cardPng(), front);
    revoke.push(fits.previewUrl);
    expect([fits.processedIn, fits.processedBy, fits.ownBecause]).to.deep.equal(['worker', 'own', undefined]);
    expect([fits.width, fits.height]).to.deep.equal([1280, 720]);
    const image = await decode(new Blob([base64ToBytes(fits.base64) as Uint8Array<ArrayBuffer>]));
    expect(worstProbe(probeCard(image))).to.be.at.most(JPEG_TOLERANCE);

    const resized = await processImage(await cardPng('none', 2400, 1350), { ...front, maxBytes: 200 * 1024 });
    revoke.push(resized.previewUrl);
    expect([resized.processedIn, resized.processedBy]).to.deep.equal(['worker', 'own']);
    expect([resized.width, resized.height]).to.deep.equal([2000, 1125]);
    expect(resized.bytes).to.be.at.most(200 * 1024);
    expect(sniffBase64(resized.base64)).to.equal('image/jpeg');
    expect(isPureBase64(resized.base64)).to.equal(true);
  });

  onlyIn(['chromium', 'firefox'], LIBRARY_NEEDS_IMAGE)(
    'the compression library, in the worker, for a file whose first JPEG is over the byte cap',
    async () => {
      const over = await processImage(await cardPng(), { ...front, maxBytes: 20 * 1024 });
      revoke.push(over.previewUrl);
      expect([over.processedIn, over.processedBy, over.ownBecause]).to.deep.equal(['worker', 'library', undefined]);
      expect(over.bytes).to.be.at.most(20 * 1024);
      expect(over.width / over.height).to.be.closeTo(1280 / 720, 0.01);
      expect(sniffBase64(over.base64)).to.equal('image/jpeg');
    },
  );

  onlyIn(['webkit'], 'Chromium and Firefox run the compression library in the worker')(
    'the own loop, in the worker, for a JPEG over the byte cap, because the library cannot run there; later photos do not try it again',
    async () => {
      const first = await processImage(await cardPng(), { ...front, maxBytes: 20 * 1024 });
      revoke.push(first.previewUrl);
      expect([first.processedIn, first.processedBy]).to.deep.equal(['worker', 'own']);
      expect(first.ownBecause).to.contain('browser-image-compression cannot run in this worker').and.to.contain('Image');
      expect(first.bytes).to.be.at.most(20 * 1024);
      const second = await processImage(await cardPng('none', 2400, 1350), { ...front, maxBytes: 20 * 1024 });
      revoke.push(second.previewUrl);
      expect([second.processedIn, second.processedBy, second.ownBecause]).to.deep.equal(['worker', 'own', first.ownBecause]);
    },
  );

  it("the own encode when the library's output misses the byte cap; the library is asked again for the next photo", async () => {
    // The library gives up after 10 rounds of 5 % smaller (about 770 px wide here), still over 8 KB.
    const tight = await processImage(await cardPng(), { ...front, maxBytes: 8 * 1024 });
    revoke.push(tight.previewUrl);
    expect([tight.processedIn, tight.processedBy]).to.deep.equal(['worker', 'own']);
    expect(tight.bytes).to.be.at.most(8 * 1024);
    expect(sniffBase64(tight.base64)).to.equal('image/jpeg');
    if (currentEngine() !== 'webkit') {
      expect(tight.ownBecause).to.match(/^browser-image-compression stopped at \d+ bytes, over the 8192 cap$/);
      const next = await processImage(await cardPng(), { ...front, maxBytes: 20 * 1024 });
      revoke.push(next.previewUrl);
      expect(next.processedBy).to.equal('library');
    }
  });
});

interface Counted {
  encodes: number;
  /** The sizes of the canvases the worker made (OffscreenCanvas constructions). */
  canvases: [number, number][];
  decodes: { kind: string; size: number | null; resize: [number, number] | null }[];
}

/**
 * The real image worker with its JPEG encodes (`convertToBlob`) and bitmap decodes
 * (`createImageBitmap`) counted, installed before its modules load; each answer's timings carry
 * the counts since the previous answer.
 */
function countingWorkerURL(): string {
  const script = `
    const counts = { encodes: 0, decodes: [], canvases: [] };
    const EngineCanvas = self.OffscreenCanvas;
    self.OffscreenCanvas = class extends EngineCanvas {
      constructor(width, height) {
        super(width, height);
        counts.canvases.push([width, height]);
      }
    };
    const convert = OffscreenCanvas.prototype.convertToBlob;
    OffscreenCanvas.prototype.convertToBlob = function (...args) { counts.encodes++; return convert.apply(this, args); };
    const engine = self.createImageBitmap.bind(self);
    self.createImageBitmap = (image, ...rest) => {
      const options = rest.length === 1 || rest.length === 5 ? rest[rest.length - 1] : undefined;
      counts.decodes.push({
        kind: image instanceof Blob ? 'Blob' : image.constructor.name,
        size: image instanceof Blob ? image.size : (image.displayWidth ?? image.width ?? null),
        resize: options && options.resizeWidth ? [options.resizeWidth, options.resizeHeight] : null,
      });
      return engine(image, ...rest);
    };
    const post = self.postMessage.bind(self);
    self.postMessage = (message, transfer) => {
      if (message && message.ok) message.image.timings = { ...message.image.timings, counted: { encodes: counts.encodes, decodes: counts.decodes, canvases: counts.canvases } };
      counts.encodes = 0;
      counts.decodes = [];
      counts.canvases = [];
      post(message, transfer || []);
    };
    // Requests that arrive while the worker's modules load wait for its handler.
    const early = [];
    self.onmessage = (event) => early.push(event);
    import(${JSON.stringify(defaultImageWorkerURL())}).then(() => early.forEach((event) => self.onmessage(event)));
  `;
  return URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
}

const countsOf = (result: { timings: object }) => (result.timings as { counted: Counted }).counted;

describe("processImage: a camera frame as pixels, a file decoded at the upload's size", () => {
  const workerURL = countingWorkerURL();
  after(() => URL.revokeObjectURL(workerURL));

  it('a frame as an ImageBitmap (copied to a new worker, then transferred) or a VideoFrame: never decoded, encoded once, and closed', async () => {
    const frames: FramePixels[] = [await createImageBitmap(cardCanvas()), await createImageBitmap(cardCanvas())];
    if (typeof VideoFrame === 'function') frames.push(new VideoFrame(cardCanvas(), { timestamp: 0 }));
    for (const frame of frames) {
      const result = await processImage(frame, { ...front, workerURL });
      revoke.push(result.previewUrl);
      expect([result.processedIn, result.processedBy, result.width, result.height]).to.deep.equal(['worker', 'own', 1280, 720]);
      const { encodes, decodes } = countsOf(result);
      expect({ encodes, decodes }).to.deep.equal({ encodes: 1, decodes: [] });
      const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
      expect(worstProbe(probeCard(image))).to.be.at.most(JPEG_TOLERANCE);
      // The pipeline took the frame over: closed (or transferred) once done.
      expect('displayWidth' in frame ? frame.format : frame.width, frame.constructor.name).to.equal('displayWidth' in frame ? null : 0);
    }
  });

  it('frame after frame of one size: the worker draws each into the canvas the one before used (kept, wiped), not a new one', async () => {
    const marked = <T extends FramePixels>(frame: T): T => {
      setFrameRegion(frame, { x: 100, y: 60, width: 800, height: 450 });
      return frame;
    };
    const kinds: [string, () => Promise<FramePixels>, [number, number]][] = [
      ['ImageBitmap marked with a region', async () => marked(await createImageBitmap(cardCanvas())), [800, 450]],
    ];
    if (typeof VideoFrame === 'function') {
      kinds.push(['whole VideoFrame', async () => new VideoFrame(cardCanvas(), { timestamp: 0 }), [1280, 720]]);
      kinds.push(['VideoFrame marked with a region', async () => marked(new VideoFrame(cardCanvas(), { timestamp: 0 })), [800, 450]]);
    }
    for (const [kind, make, [width, height]] of kinds) {
      const made: number[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await processImage(await make(), { ...front, workerURL, keepAnyway: true });
        revoke.push(result.previewUrl);
        expect([result.width, result.height], kind).to.deep.equal([width, height]);
        made.push(countsOf(result).canvases.filter(([w, h]) => w === width && h === height).length);
        const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
        const whole = { width: 1280, height: 720, data: cardCanvas().getContext('2d')!.getImageData(0, 0, 1280, 720).data };
        const [ox, oy] = width === 1280 ? [0, 0] : [100, 60];
        for (const [x, y] of [
          [20, 20],
          [300, 200],
          [700, 400],
        ] as const) {
          const expected = meanAt(whole, ox + x, oy + y);
          const actual = meanAt(image, x, y);
          expect(Math.max(...actual.map((v, n) => Math.abs(v - expected[n]!))), `${kind} #${i + 1} (${x}, ${y})`).to.be.at.most(
            JPEG_TOLERANCE,
          );
        }
      }
      // The first may find a canvas kept from an earlier test; the next ones always do.
      expect(made.slice(1), `${kind}: canvases of ${width}x${height} made per frame ${JSON.stringify(made)}`).to.deep.equal([0, 0]);
    }
  });

  // The capture sends a region as the whole frame marked with the region (below), not as a visibleRect.
  onlyIn(['chromium', 'firefox'], "WebKit draws a VideoFrame's whole picture whatever its visibleRect")(
    "a VideoFrame's region (its visibleRect) is what comes out",
    async () => {
      const card = cardCanvas();
      const frame = new VideoFrame(card, { timestamp: 0, visibleRect: { x: 640, y: 360, width: 640, height: 360 } });
      const result = await processImage(frame, { ...front, workerURL, keepAnyway: true });
      revoke.push(result.previewUrl);
      expect([result.width, result.height]).to.deep.equal([640, 360]);
      const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
      const whole = { width: 1280, height: 720, data: card.getContext('2d')!.getImageData(0, 0, 1280, 720).data };
      for (const [x, y] of [
        [20, 20],
        [300, 200],
        [600, 340],
      ] as const) {
        const expected = meanAt(whole, 640 + x, 360 + y);
        const actual = meanAt(image, x, y);
        expect(
          Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!))),
          `(${x}, ${y}): ${actual.join(',')} vs ${expected.join(',')}`,
        ).to.be.at.most(JPEG_TOLERANCE);
      }
    },
  );

  // What the camera capture sends for the guide's region: the whole frame, marked with the region,
  // cut out in the worker with drawImage's source rectangle (in WebKit too, unlike a visibleRect).
  it('a whole frame marked with a region (a VideoFrame where there is one, and an ImageBitmap): the worker cuts out exactly that region', async () => {
    const card = cardCanvas();
    const frames: FramePixels[] = [await createImageBitmap(card)];
    if (typeof VideoFrame === 'function') frames.push(new VideoFrame(card, { timestamp: 0 }));
    const whole = { width: 1280, height: 720, data: card.getContext('2d')!.getImageData(0, 0, 1280, 720).data };
    const probes = [
      [20, 20],
      [300, 200],
      [620, 340],
      [80, 300],
    ] as const;
    // The probes tell the region from the frame's top-left corner (an uncut frame would fail them).
    const apart = probes.map(([x, y]) => Math.max(...meanAt(whole, x, y).map((v, i) => Math.abs(v - meanAt(whole, 600 + x, 300 + y)[i]!))));
    expect(Math.max(...apart)).to.be.greaterThan(3 * JPEG_TOLERANCE);
    for (const frame of frames) {
      setFrameRegion(frame, { x: 600, y: 300, width: 640, height: 360 });
      const result = await processImage(frame, { ...front, workerURL, keepAnyway: true });
      revoke.push(result.previewUrl);
      expect([result.processedIn, result.width, result.height], frame.constructor.name).to.deep.equal(['worker', 640, 360]);
      const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
      for (const [x, y] of probes) {
        const expected = meanAt(whole, 600 + x, 300 + y);
        const actual = meanAt(image, x, y);
        expect(
          Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!))),
          `${frame.constructor.name} (${x}, ${y}): ${actual.join(',')} vs ${expected.join(',')}`,
        ).to.be.at.most(JPEG_TOLERANCE);
      }
    }
  });

  it('a refused frame comes with its JPEG, to be shown and kept anyway', async () => {
    const error = await refusal(processImage(await createImageBitmap(degradedCard('blurry')), { ...front, workerURL }));
    expect(error.code).to.equal('blurry');
    expect(error.image).to.be.instanceOf(Blob);
    const bytes = new Uint8Array(await error.image!.arrayBuffer());
    expect(jpegSize(bytes)).to.deep.equal({ width: 1280, height: 720 });
    const kept = await processImage(error.image!, { ...front, workerURL, keepAnyway: true });
    revoke.push(kept.previewUrl);
    expect([kept.width, kept.height]).to.deep.equal([1280, 720]);
  });

  it("a 12 MP photo is decoded straight to the upload's size (2000x1500) and encoded once", async () => {
    const photo = await canvasBlob(cardCanvas(4000, 3000), 'image/jpeg', 0.92);
    const result = await processImage(photo, { ...front, workerURL });
    revoke.push(result.previewUrl);
    expect([result.processedBy, result.width, result.height]).to.deep.equal(['own', 2000, 1500]);
    const { encodes, decodes } = countsOf(result);
    expect(encodes).to.equal(1);
    // Firefox decodes with ImageDecoder and makes the bitmap from its frame; the others from the Blob.
    const ofPhoto = decodes.filter((d) => d.kind === 'Blob' || (d.size ?? 0) >= 1000);
    expect(ofPhoto, JSON.stringify(decodes)).to.have.length(1);
    expect(ofPhoto[0]!.resize).to.deep.equal([2000, 1500]);
  });
});

describe('processImage: a worker that fails for its own reasons', () => {
  it('the photo is prepared on the main thread instead, with a warning that quotes the failure', async () => {
    // A worker that answers every request with what an engine lacking OffscreenCanvas in workers would say.
    const script = `self.onmessage = (e) => self.postMessage({ id: e.data.id, ok: false, error: { name: 'ReferenceError', message: 'OffscreenCanvas is not defined' } });`;
    const workerURL = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '));
    try {
      const result = await processImage(await cardPng(), { ...front, workerURL });
      revoke.push(result.previewUrl);
      expect(result.processedIn).to.equal('main-thread');
      expect(sniffBase64(result.base64)).to.equal('image/jpeg');
      expect(warnings.join('\n')).to.contain('ReferenceError: OffscreenCanvas is not defined');
    } finally {
      console.warn = warn;
      URL.revokeObjectURL(workerURL);
    }
  });
});

describe('processImage: base64 where the engine has no Uint8Array toBase64', () => {
  it('the data-URL reader gives the same pure base64 and size (on the page, as an engine before toBase64 would)', async () => {
    const script = `self.onmessage = (e) => self.postMessage({ id: e.data.id, ok: false, error: { name: 'ReferenceError', message: 'OffscreenCanvas is not defined' } });`;
    const workerURL = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
    const proto = Uint8Array.prototype as { toBase64?: unknown };
    const own = Object.getOwnPropertyDescriptor(proto, 'toBase64');
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const withNative = await processImage(await cardPng(), { ...front, workerURL });
      revoke.push(withNative.previewUrl);
      delete proto.toBase64;
      const without = await processImage(await cardPng(), { ...front, workerURL });
      revoke.push(without.previewUrl);
      expect(without.processedIn).to.equal('main-thread');
      expect(isPureBase64(without.base64)).to.equal(true);
      expect([without.width, without.height, without.bytes]).to.deep.equal([1280, 720, base64ToBytes(without.base64).length]);
      // The same pixels and encoder: the same JPEG either way.
      expect(without.base64).to.equal(withNative.base64);
    } finally {
      if (own) Object.defineProperty(proto, 'toBase64', own);
      console.warn = warn;
      URL.revokeObjectURL(workerURL);
    }
  });
});

describe('processImage: refusals', () => {
  it('a PDF is not an image, whatever MIME type it claims', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
    expect((await refusal(processImage(new Blob([pdf], { type: 'application/pdf' }), front))).code).to.equal('not-an-image');
    expect((await refusal(processImage(new Blob([pdf], { type: 'image/jpeg' }), front))).code).to.equal('not-an-image');
  });

  it('text is not an image; a GIF is an unsupported image type', async () => {
    expect((await refusal(processImage(new Blob(['hello'], { type: 'text/plain' }), front))).code).to.equal('not-an-image');
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x3b]);
    expect((await refusal(processImage(new Blob([gif], { type: 'image/gif' }), front))).code).to.equal('unsupported-type');
  });

  it('a JPEG that does not decode is not an image', async () => {
    const broken = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect((await refusal(processImage(new Blob([broken], { type: 'image/jpeg' }), front))).code).to.equal('not-an-image');
  });

  it('a file over maxFileBytes is refused before it is read', async () => {
    const png = await cardPng();
    const error = await refusal(processImage(png, { ...front, maxFileBytes: png.size - 1 }));
    expect(error.code).to.equal('file-too-large');
    expect(error.detail).to.deep.equal({ bytes: png.size, maxBytes: png.size - 1 });
  });

  it('a tiny image is too small', async () => {
    const error = await refusal(processImage(await cardPng('none', 320, 180), front));
    expect(error.code).to.equal('too-small');
    expect(error.detail).to.include({ width: 320, height: 180, minWidth: 640, minHeight: 480 });
  });

  it('a blurred picture is blurry', async () => {
    const error = await refusal(processImage(await canvasBlob(degradedCard('blurry')), front));
    expect(error.code).to.equal('blurry');
    expect(error.detail!['sharpness']).to.be.below(DEFAULT_THRESHOLDS.blur.documentFront);
  });

  it('a dark picture is too dark; a bright one too bright', async () => {
    const dark = await refusal(processImage(await canvasBlob(degradedCard('dark')), front));
    expect(dark.code).to.equal('too-dark');
    expect(dark.detail!['brightness']).to.be.below(DEFAULT_THRESHOLDS.dark);
    const bright = await refusal(processImage(await canvasBlob(degradedCard('bright')), front));
    expect(bright.code).to.equal('too-bright');
    expect(bright.detail!['brightness']).to.be.above(DEFAULT_THRESHOLDS.bright);
  });

  it('thresholds are options', async () => {
    const result = await processImage(await canvasBlob(degradedCard('blurry')), { ...front, blurThreshold: 1 });
    revoke.push(result.previewUrl);
    expect(result.checks.sharpness).to.be.below(DEFAULT_THRESHOLDS.blur.documentFront);
    const error = await refusal(processImage(await cardPng(), { ...front, darkThreshold: 200 }));
    expect(error.code).to.equal('too-dark');
  });
});

/** Inserts an APP1 Exif segment holding only Orientation into a JPEG, right after SOI. */
function withExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  const tiff = [
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08, // big-endian TIFF header, IFD0 at 8
    0x00,
    0x01, // one entry
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    orientation,
    0x00,
    0x00, // Orientation SHORT
    0x00,
    0x00,
    0x00,
    0x00, // no next IFD
  ];
  const payload = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00, ...tiff]; // "Exif\0\0"
  const length = payload.length + 2;
  const app1 = [0xff, 0xe1, length >> 8, length & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return out;
}

describe('processImage: orientation, size caps, abort', () => {
  it('applies EXIF orientation 6: dimensions swap and the picture is turned upright', async () => {
    const jpeg = new Uint8Array(await (await canvasBlob(cardCanvas(), 'image/jpeg', 0.95)).arrayBuffer());
    const rotated = withExifOrientation(jpeg, 6);
    expect(jpegSize(rotated)).to.deep.equal({ width: 1280, height: 720 });
    const result = await processImage(new Blob([rotated as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), front);
    revoke.push(result.previewUrl);
    expect([result.width, result.height]).to.deep.equal([720, 1280]);
    expect(result.processedBy).to.equal('own');
    // Orientation 6 = rotate 90 degrees clockwise: (x, y) lands at (H - 1 - y, x).
    const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
    for (const probe of PROBES) {
      const actual = meanAt(image, PICTURE_HEIGHT - 1 - probe.y, probe.x);
      const expected = COLOURS[probe.colour];
      const diff = Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)));
      expect(diff, `${probe.name}: ${actual.join(',')}`).to.be.at.most(JPEG_TOLERANCE);
    }
  });

  it('a 12 MP photo whose first JPEG is over maxBytes is compressed under it with its long edge <= maxLongEdge', async () => {
    const big = cardCanvas(4000, 3000);
    // Sensor-like noise so the JPEG is as heavy as a real photo.
    const ctx = big.getContext('2d')!;
    const pixels = ctx.getImageData(0, 0, 4000, 3000);
    let seed = 1;
    for (let i = 0; i < pixels.data.length; i += 4) {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      const n = (seed >>> 27) - 16;
      pixels.data[i] = pixels.data[i]! + n;
      pixels.data[i + 1] = pixels.data[i + 1]! + n;
      pixels.data[i + 2] = pixels.data[i + 2]! + n;
    }
    ctx.putImageData(pixels, 0, 0);
    const photo = await canvasBlob(big, 'image/jpeg', 0.95);
    expect(photo.size).to.be.above(3 * 1024 * 1024);
    const result = await processImage(photo, { ...front, maxBytes: 512 * 1024, maxLongEdge: 2000 });
    revoke.push(result.previewUrl);
    console.log(
      `12 MP: input ${photo.size} B -> ${result.bytes} B ${result.width}x${result.height}, timings ${JSON.stringify(result.timings)}`,
    );
    expect(result.bytes).to.be.at.most(512 * 1024);
    expect(Math.max(result.width, result.height)).to.be.at.most(2000);
    expect(result.width / result.height).to.be.closeTo(4 / 3, 0.01);
    expect(result.processedBy).to.equal(currentEngine() === 'webkit' ? 'own' : 'library');
    const image = await decode(new Blob([base64ToBytes(result.base64) as Uint8Array<ArrayBuffer>]));
    expect([image.width, image.height]).to.deep.equal([result.width, result.height]);
  });

  it('an already aborted signal rejects with its reason and does no work', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await processImage(await cardPng(), { ...front, signal: controller.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as DOMException).name).to.equal('AbortError');
  });

  it('aborting during compression rejects with AbortError', async () => {
    const controller = new AbortController();
    const big = await canvasBlob(cardCanvas(4000, 3000), 'image/jpeg', 0.95);
    const pending = processImage(big, { ...front, signal: controller.signal, maxBytes: 200 * 1024 });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as DOMException).name).to.equal('AbortError');
  });
});

describe('base64 encoding choice (measured once, not asserted on speed)', () => {
  it('bytesToBase64 and FileReader give the same text', async () => {
    const bytes = new Uint8Array(1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    let t = performance.now();
    const ours = bytesToBase64(bytes);
    const oursMs = performance.now() - t;
    t = performance.now();
    const dataUrl = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsDataURL(new Blob([bytes]));
    });
    const readerMs = performance.now() - t;
    console.log(`1 MiB to base64: bytesToBase64 ${oursMs.toFixed(1)} ms, FileReader ${readerMs.toFixed(1)} ms`);
    expect(dataUrl.slice(dataUrl.indexOf(',') + 1)).to.equal(ours);
  });
});
