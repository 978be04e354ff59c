/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { validateCreateOnboarding, type DocumentReading, type SideReading } from '@onboarding-kit/contract';
import { DOCUMENT_PICTURES, documentPictureFile } from '@onboarding-kit/testing/document-pictures';
import { canvasBlob, cardCanvas } from '@onboarding-kit/testing/pixels';
import { documentReader } from './document-reader.js';
import { PhotoReadings } from './photo-readings.js';
import { base64Of, qrCardCanvas, QR_TEXT } from './test-helpers.js';

describe('the document reader', () => {
  it('reads the QR code of a picked picture in its worker, payload as bytes', async () => {
    const reading = await documentReader().read(await canvasBlob(qrCardCanvas()), true);
    expect(reading).to.deep.equal({ qr: { payloadBase64: base64Of(QR_TEXT) } });
  });

  it("reads a live frame's code with the decoder's quick pass", async () => {
    const frame = await createImageBitmap(qrCardCanvas());
    const started = performance.now();
    const reading = await documentReader().read(frame, false);
    expect(reading.qr?.payloadBase64).to.equal(base64Of(QR_TEXT));
    expect(performance.now() - started).to.be.below(2000);
  });

  it("reads a photo's JPEG as the element holds it (base64)", async () => {
    const jpeg = await canvasBlob(qrCardCanvas(QR_TEXT, 4), 'image/jpeg', 0.85);
    const reading = await documentReader().read({ base64: await base64OfBlob(jpeg) }, true);
    expect(reading.qr?.payloadBase64).to.equal(base64Of(QR_TEXT));
  });

  it("reads every test document picture's QR code and zone as a picked JPEG, and claims the kind it shows", async function () {
    // Fifteen thorough reads: WebKit on a busy 2-core machine has taken over a minute.
    this.timeout(240_000);
    const misses: string[] = [];
    const refused: string[] = [];
    for (const { id, expected } of DOCUMENT_PICTURES) {
      const jpeg = await documentPictureFile(id, 'image/jpeg', 0.9);
      const reading = await documentReader().read(jpeg, true);
      // The companion's own check of a creation's reading (the contract's) takes what the reader gives.
      const refusal = creationRefusal(await base64OfBlob(jpeg), { [expected.side]: reading });
      if (refusal) refused.push(`${id}: ${refusal}`);
      const got = {
        qr: reading.qr?.payloadBase64,
        lines: reading.mrz?.lines,
        cpf: reading.mrz?.fields.cpf,
        valid: reading.mrz?.valid,
        kind: reading.documentKind,
      };
      const want = {
        qr: expected.qr === undefined ? undefined : base64Of(expected.qr),
        lines: expected.lines ? [...expected.lines] : undefined,
        cpf: expected.fields?.cpf,
        valid: expected.valid,
        kind: expected.kind,
      };
      if (JSON.stringify(got) !== JSON.stringify(want)) misses.push(`${id}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    }
    expect(misses).to.deep.equal([]);
    expect(refused).to.deep.equal([]);
  });

  it('gives an empty reading for a picture with no code', async () => {
    expect(await documentReader().read(await canvasBlob(cardCanvas()), true)).to.deep.equal({});
  });

  it('rejects every read when its worker cannot load', async () => {
    const reader = documentReader(new URL('./no-such-reader-worker.js', location.href).href);
    let failure: unknown = null;
    await reader.read(await canvasBlob(qrCardCanvas()), true).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(Error);
    // Later reads fail at once, saying why.
    failure = null;
    await reader.read(await canvasBlob(cardCanvas()), true).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.contain('could not start');
  });
});

type Photo = { base64: string; reading?: SideReading };

async function base64OfBlob(blob: Blob): Promise<string> {
  let binary = '';
  for (const byte of new Uint8Array(await blob.arrayBuffer())) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Why the contract refuses a creation carrying `documentReading` (null: accepted). */
function creationRefusal(image: string, documentReading: DocumentReading): string | null {
  const body = { cpf: '529.982.247-25', images: { documentFront: image, documentBack: image, selfie: image }, documentReading };
  const checked = validateCreateOnboarding(body, 10_000_000);
  return checked.ok ? null : JSON.stringify(checked);
}

async function photoOf(canvas: OffscreenCanvas): Promise<Photo> {
  return { base64: await base64OfBlob(await canvasBlob(canvas, 'image/jpeg', 0.9)) };
}

/** The readings as a photo record receives them. */
function recorder() {
  const set: { role: string; reading: SideReading }[] = [];
  let done: () => void = () => undefined;
  const next = () => new Promise<void>((resolve) => (done = resolve));
  return {
    set,
    next,
    photos: { setReading: (role: string, _photo: Photo, reading: SideReading) => (set.push({ role, reading }), done()) },
  };
}

describe('the photo readings', () => {
  it("give an accepted document photo its reading, and never read the selfie's", async () => {
    const reads: string[] = [];
    const real = documentReader();
    const rec = recorder();
    const readings = new PhotoReadings<Photo>(rec.photos, () => ({
      read: (source, thorough) => (reads.push(thorough ? 'photo' : 'frame'), real.read(source, thorough)),
    }));
    const photo = await photoOf(qrCardCanvas());
    readings.readPhoto('selfie', photo, false);
    const arrived = rec.next();
    readings.readPhoto('documentBack', photo, false);
    await arrived;
    expect(reads).to.deep.equal(['photo']);
    expect(rec.set).to.deep.equal([{ role: 'documentBack', reading: { qr: { payloadBase64: base64Of(QR_TEXT) } } }]);
  });

  it('leave the flow going when the reader fails: the photo gets an empty reading', async () => {
    const rec = recorder();
    const broken = documentReader(new URL('./missing-reader-worker.js', location.href).href);
    const readings = new PhotoReadings<Photo>(rec.photos, () => broken);
    const arrived = rec.next();
    readings.readPhoto('documentFront', await photoOf(qrCardCanvas()), true);
    await arrived;
    expect(rec.set).to.deep.equal([{ role: 'documentFront', reading: {} }]);
  });

  it('read a live frame of a document step, one at a time, and never a selfie frame', async () => {
    const { video, close } = await cardVideo();
    try {
      const reads: boolean[] = [];
      const real = documentReader();
      let live: SideReading | undefined;
      let arrived: () => void = () => undefined;
      const liveRead = new Promise<void>((resolve) => (arrived = resolve));
      const readings = new PhotoReadings<Photo>(
        { setReading: () => undefined, liveReading: (_role, reading) => ((live = reading), arrived()) },
        () => ({ read: (source, thorough) => (reads.push(thorough), real.read(source, thorough)) }),
      );
      readings.readFrame('selfie', video);
      readings.readFrame('documentFront', video);
      readings.readFrame('documentFront', video);
      await liveRead;
      expect(reads).to.deep.equal([false]);
      expect(live).to.deep.equal({ qr: { payloadBase64: base64Of(QR_TEXT) } });
    } finally {
      close();
    }
  });

  it('rest after each live read twice as long as it took before reading another frame', async () => {
    const { video, close } = await cardVideo();
    try {
      let clock = 1_000;
      let reads = 0;
      let finished: () => void = () => undefined;
      const readings = new PhotoReadings<Photo>(
        { setReading: () => undefined },
        () => ({
          read: async (source) => {
            if ('close' in source) source.close();
            reads++;
            clock += 100;
            finished();
            return {};
          },
        }),
        () => clock,
      );
      const readEnds = async () => {
        await new Promise<void>((resolve) => (finished = resolve));
        // The read's settlement runs its bookkeeping a few turns later.
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
      };
      let ended = readEnds();
      readings.readFrame('documentBack', video);
      await ended;
      expect(reads).to.equal(1);
      clock += 199;
      readings.readFrame('documentBack', video);
      readings.readFrame('documentFront', video);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reads, 'a frame within the rest is not read').to.equal(1);
      clock += 1;
      ended = readEnds();
      readings.readFrame('documentBack', video);
      await ended;
      expect(reads).to.equal(2);
    } finally {
      close();
    }
  });
});

/** The QR card playing in a video, as a camera shows it (a canvas stream redrawn to make frames). */
async function cardVideo(): Promise<{ video: HTMLVideoElement; close(): void }> {
  const canvas = document.createElement('canvas');
  const card = qrCardCanvas();
  canvas.width = card.width;
  canvas.height = card.height;
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(card, 0, 0);
  const video = document.createElement('video');
  video.muted = true;
  video.srcObject = canvas.captureStream(30);
  const redraw = setInterval(() => ctx.fillRect(0, 0, 1, 1), 33);
  document.body.append(video);
  const close = () => {
    clearInterval(redraw);
    video.remove();
  };
  try {
    await video.play();
    while (video.readyState < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  } catch (error) {
    close();
    throw error;
  }
  return { video, close };
}
