/**
 * What the document photos carry, read in the reader's worker on the document steps only (never
 * the selfie): live frames while the camera shows a steady card, at most one at a time, and each
 * accepted photo once more, thoroughly. Live reads are paced (live-pace.ts) so that the reader
 * never starves the page's thread of a core. A photo's reading lands on its record (`reading`) when it
 * finishes; what the live frames read fills in what the photo itself did not give, when the
 * photo came from that camera. Nothing waits for a reading: a reader that fails reads nothing.
 */
import type { SideReading } from '@onboarding-kit/contract';
import { presentedFrame } from '../camera/capture-frame.js';
import type { CaptureRole } from '../image/pipeline.js';
import type { DocumentReader } from './document-reader.js';
import { nextLiveRead } from './live-pace.js';
import { loadReader, preloadReader } from './load-reader.js';

/** The record of a photo that can carry a reading, and where the reading is put. */
export interface ReadablePhotos<P extends { base64: string; reading?: SideReading }> {
  /** Sets `reading` on the photo of `role` if it is still `photo`. */
  setReading(role: CaptureRole, photo: P, reading: SideReading): void;
  /** What the live frames of `role` read so far, each time a frame adds to it. */
  liveReading?(role: DocumentRole, reading: SideReading): void;
}

export type DocumentRole = Exclude<CaptureRole, 'selfie'>;

function isDocument(role: CaptureRole | null): role is DocumentRole {
  return role === 'documentFront' || role === 'documentBack';
}

/** Whether a reading has anything in it. */
export function hasReading(reading: SideReading | undefined): reading is SideReading {
  return !!(reading?.qr || reading?.mrz);
}

/** The photo's own reading, each member it lacks taken from the live frames'. */
function merged(photo: SideReading, live: SideReading | undefined): SideReading {
  const qr = photo.qr ?? live?.qr;
  const mrz = photo.mrz ?? live?.mrz;
  const documentKind = photo.documentKind ?? live?.documentKind;
  return { ...(qr && { qr }), ...(mrz && { mrz }), ...(documentKind && { documentKind }) };
}

export class PhotoReadings<P extends { base64: string; reading?: SideReading }> {
  readonly #photos: ReadablePhotos<P>;
  readonly #reader: () => DocumentReader | null;
  /** What live frames of the open camera gave, per document side. */
  #live: Partial<Record<DocumentRole, SideReading>> = {};
  #liveInFlight = false;
  /** No live frame is read before this time (`#now`'s clock). */
  #nextLive = Number.NEGATIVE_INFINITY;
  readonly #now: () => number;

  constructor(photos: ReadablePhotos<P>, reader: () => DocumentReader | null = loadReader, now = () => performance.now()) {
    this.#photos = photos;
    this.#reader = reader;
    this.#now = now;
  }

  /** The data steps of a flow with document steps: the worker is fetched while the browser is idle. */
  prepare(): void {
    preloadReader();
  }

  /** A steady frame of the camera on `role`'s step: read when it is a document's, no frame is being read and the last read's rest is over. */
  readFrame(role: CaptureRole | null, video: HTMLVideoElement): void {
    if (!isDocument(role) || this.#liveInFlight || video.readyState < 2 || this.#now() < this.#nextLive) return;
    const reader = this.#reader();
    if (!reader) return;
    this.#liveInFlight = true;
    const started = this.#now();
    // The frame without a copy on the page where the engine can (WebKit's createImageBitmap of a
    // video blocked its page for tens of milliseconds): the worker makes the pixels.
    presentedFrame(video)
      .then((frame) => reader.read(frame, false))
      .then(
        (reading) => {
          if (!hasReading(reading)) return;
          this.#live[role] = merged(reading, this.#live[role]);
          this.#photos.liveReading?.(role, this.#live[role]);
        },
        () => undefined,
      )
      .finally(() => {
        this.#liveInFlight = false;
        this.#nextLive = nextLiveRead(started, this.#now());
      });
  }

  /** An accepted photo of `role`: read once more, its record given the reading when done. */
  readPhoto(role: CaptureRole, photo: P, fromCamera: boolean): void {
    if (!isDocument(role)) return;
    const live = fromCamera ? this.#live[role] : undefined;
    delete this.#live[role];
    const reader = this.#reader();
    const reading = reader ? reader.read({ base64: photo.base64 }, true).catch(() => ({})) : Promise.resolve({});
    void reading.then((own) => this.#photos.setReading(role, photo, merged(own, live)));
  }

  /** The camera of `role` opens anew: what earlier frames read says nothing of what it will show. */
  forget(role: CaptureRole): void {
    if (isDocument(role)) delete this.#live[role];
  }
}
