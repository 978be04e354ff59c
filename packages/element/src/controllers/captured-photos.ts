/**
 * The photos the capture controller shows, accepted and refused, with the object URLs it owns:
 * each is revoked when its photo is replaced, dropped or cleared, and all of them while the host
 * is out of the document (a page moving the element), to be recreated when it comes back.
 * `onChange` is the host's requestUpdate.
 */
import { base64ToBytes, type KeptCheck, type LivenessReport, type SideReading } from '@onboarding-kit/contract';
import { OnboardingCaptureEvent } from '../events.js';
import type { CaptureRole, ImageCheckCode, ProcessedImage } from '../image/pipeline.js';

export interface RejectedPhoto {
  role: CaptureRole;
  code: ImageCheckCode;
  /** Object URL of the refused source, when it is an image the browser can show. */
  previewUrl: string | null;
  /** Refused twice or more for what it shows: the person may keep it anyway. */
  canKeep: boolean;
  /** Refused twice or more for what nobody may keep (a selfie without a face): the step offers what else to try. */
  stuck: boolean;
}

/**
 * A photo of the flow: `keptAnyway` when the person kept it after the checks refused it twice,
 * `keptCheck` the check that refused it (what the creation reports to the backend); `reading`
 * what a document photo carries, once its reading finished (reader/photo-readings.ts); `nonce` the
 * capture nonce of the step it was taken on (it travels with the photo when sides swap);
 * `liveness` and `keyframes` the selfie's challenge (docs/page-api.md#capture-integrity).
 */
export type CapturedPhoto = ProcessedImage & {
  keptAnyway?: true;
  keptCheck?: KeptCheck;
  reading?: SideReading;
  nonce?: string;
  liveness?: LivenessReport;
  keyframes?: Blob[];
};

export class CapturedPhotos {
  readonly #onChange: () => void;
  #photos: Partial<Record<CaptureRole, CapturedPhoto>> = {};
  #rejected: RejectedPhoto | null = null;
  /** The refused source, to show it again after the host comes back to the document. */
  #rejectedSource: Blob | null = null;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  get all(): Readonly<Partial<Record<CaptureRole, CapturedPhoto>>> {
    return this.#photos;
  }

  get rejected(): RejectedPhoto | null {
    return this.#rejected;
  }

  /** The refused photo's source, while it can be shown (and so kept anyway). */
  get rejectedSource(): Blob | null {
    return this.#rejectedSource;
  }

  /** Replaces the photo of `role`; it gets its step's capture nonce once `nonce` gives one. */
  accept(role: CaptureRole, photo: CapturedPhoto, nonce?: Promise<string | null>): void {
    this.remove(role);
    this.#photos = { ...this.#photos, [role]: photo };
    this.#onChange();
    void nonce?.then((issued) => issued && this.#amend(role, photo, { nonce: issued }));
  }

  /** The photos of `a` and `b` change places (a document's sides taken the wrong way round). */
  swap(a: CaptureRole, b: CaptureRole): void {
    const { [a]: first, [b]: second, ...rest } = this.#photos;
    this.#photos = { ...rest, ...(second && { [a]: { ...second, role: a } }), ...(first && { [b]: { ...first, role: b } }) };
    this.#onChange();
  }

  /** Gives the photo of `role` its reading, if it is still `photo` (not replaced or dropped meanwhile). */
  setReading(role: CaptureRole, photo: CapturedPhoto, reading: SideReading): void {
    this.#amend(role, photo, { reading });
  }

  #amend(role: CaptureRole, photo: CapturedPhoto, patch: Pick<CapturedPhoto, 'reading' | 'nonce'>): void {
    // The same JPEG, not the same object: a host moved in the document recreates the records.
    const current = this.#photos[role];
    if (current?.base64 !== photo.base64) return;
    this.#photos = { ...this.#photos, [role]: { ...current, ...patch } };
    this.#onChange();
  }

  /** Shows a refused photo; `source` only where the browser can show it. */
  reject(refusal: Omit<RejectedPhoto, 'previewUrl'>, source: Blob | null): void {
    this.#rejected = { ...refusal, previewUrl: source ? URL.createObjectURL(source) : null };
    this.#rejectedSource = source;
    this.#onChange();
  }

  /** Drops the photos of these roles, revoking their object URLs. */
  remove(...roles: CaptureRole[]): void {
    for (const role of roles) {
      const existing = this.#photos[role];
      if (!existing) continue;
      URL.revokeObjectURL(existing.previewUrl);
      const { [role]: _dropped, ...rest } = this.#photos;
      this.#photos = rest;
      this.#onChange();
    }
  }

  clearRejected(): void {
    if (!this.#rejected) return;
    if (this.#rejected.previewUrl) URL.revokeObjectURL(this.#rejected.previewUrl);
    this.#rejected = null;
    this.#rejectedSource = null;
    this.#onChange();
  }

  /** Drops every photo, accepted or refused, revoking their object URLs. */
  clear(): void {
    for (const photo of Object.values(this.#photos)) if (photo) URL.revokeObjectURL(photo.previewUrl);
    this.#photos = {};
    this.clearRejected();
    this.#onChange();
  }

  suspend(): void {
    for (const photo of Object.values(this.#photos)) if (photo) URL.revokeObjectURL(photo.previewUrl);
    if (this.#rejected?.previewUrl) URL.revokeObjectURL(this.#rejected.previewUrl);
  }

  /** New object URLs for what suspend revoked: the photos from their JPEG bytes, the refused one from its source. */
  resume(): void {
    const photos: Partial<Record<CaptureRole, CapturedPhoto>> = {};
    for (const [role, photo] of Object.entries(this.#photos) as [CaptureRole, CapturedPhoto | undefined][]) {
      if (!photo) continue;
      const jpeg = new Blob([base64ToBytes(photo.base64) as Uint8Array<ArrayBuffer>], { type: photo.mime });
      photos[role] = { ...photo, previewUrl: URL.createObjectURL(jpeg) };
    }
    this.#photos = photos;
    if (this.#rejected?.previewUrl) {
      this.#rejected = { ...this.#rejected, previewUrl: this.#rejectedSource ? URL.createObjectURL(this.#rejectedSource) : null };
    }
    this.#onChange();
  }
}

/** The page's `onboarding-capture` of an accepted photo: its size and where it was prepared, never its pixels. */
export function captureEvent(photo: CapturedPhoto): OnboardingCaptureEvent {
  return new OnboardingCaptureEvent({
    role: photo.role,
    bytes: photo.bytes,
    width: photo.width,
    height: photo.height,
    processedIn: photo.processedIn,
    processedBy: photo.processedBy,
    ...(photo.keptAnyway && { keptAnyway: true }),
  });
}
