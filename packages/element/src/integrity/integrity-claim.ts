/**
 * The `integrity` of a creation body (docs/page-api.md#capture-integrity): the signals, the
 * selfie's liveness (or why there is none), its keyframes, and the attestation, which links each
 * image sent and each keyframe to its step's nonce by the SHA-256 of its decoded bytes. Without a
 * nonce for every item there is no attestation: the companion then reports it `missing`.
 */
import {
  CAPTURE_INTEGRITY_LIMITS,
  bytesToBase64,
  chainHead,
  sha256Hex,
  type AttestationLink,
  type AttestedItem,
  type CaptureAttestation,
  type CaptureIntegrityClaim,
  type CreateOnboardingRequest,
  type ImageRoleName,
  type IntegritySignal,
  type LivenessReport,
} from '@onboarding-kit/contract';
import type { CapturedPhoto } from '../controllers/captured-photos.js';

/** Where a step's photo came from, and whether a camera was there to take it. */
export interface PhotoOrigin {
  source: 'camera' | 'file';
  camera: 'opened' | 'listed' | 'none';
}

export interface ClaimInput {
  images: CreateOnboardingRequest['images'];
  /** The SHA-256 of an image's decoded bytes (image-hashes.ts). */
  hashOf(base64: string): Promise<string>;
  photos: Readonly<Partial<Record<ImageRoleName, CapturedPhoto>>>;
  signals: IntegritySignal[];
  /** Where the selfie came from (null: not known). */
  selfie: PhotoOrigin | null;
}

/** The selfie's own report, else why the challenge did not run. */
export function livenessOf(selfie: CapturedPhoto | undefined, origin: PhotoOrigin | null): LivenessReport | undefined {
  if (!selfie) return undefined;
  if (selfie.liveness) return selfie.liveness;
  const reason = origin?.source !== 'file' ? 'model-unavailable' : origin.camera === 'none' ? 'no-camera' : 'file';
  return { result: 'unavailable', prompts: [], reason };
}

async function keyframeBytes(selfie: CapturedPhoto | undefined): Promise<Uint8Array[]> {
  const { keyframesMax, keyframeMaxBytes } = CAPTURE_INTEGRITY_LIMITS;
  const blobs = (selfie?.keyframes ?? []).filter((blob) => blob.size <= keyframeMaxBytes).slice(0, keyframesMax);
  return Promise.all(blobs.map(async (blob) => new Uint8Array(await blob.arrayBuffer())));
}

/** The attestation of these items (`sha256` their hash, asked only when every item has a nonce), or undefined. */
export async function attestation(
  items: { item: AttestedItem; nonce?: string | undefined; sha256: () => Promise<string> }[],
): Promise<CaptureAttestation | undefined> {
  if (items.length === 0 || items.some((entry) => !entry.nonce)) return undefined;
  const links: AttestationLink[] = await Promise.all(
    items.map(async ({ item, nonce, sha256 }) => ({ item, nonce: nonce!, sha256: await sha256() })),
  );
  return { links, head: await chainHead(links) };
}

export async function integrityClaim({ images, hashOf, photos, signals, selfie: origin }: ClaimInput): Promise<CaptureIntegrityClaim> {
  const selfie = photos.selfie;
  const liveness = images.selfie ? livenessOf(selfie, origin) : undefined;
  const keyframes = images.selfie ? await keyframeBytes(selfie) : [];
  const sent = (Object.entries(images) as [ImageRoleName, string][]).map(([role, base64]) => ({
    item: role as AttestedItem,
    nonce: photos[role]?.nonce,
    sha256: () => hashOf(base64),
  }));
  const frames = keyframes.map((bytes, i) => ({
    item: `keyframe-${i + 1}` as AttestedItem,
    nonce: selfie?.nonce,
    sha256: () => sha256Hex(bytes),
  }));
  const attested = await attestation([...sent, ...frames]);
  return {
    ...(liveness && { liveness }),
    ...(keyframes.length > 0 && { keyframes: keyframes.map((bytes) => bytesToBase64(bytes)) }),
    signals: signals.slice(0, CAPTURE_INTEGRITY_LIMITS.signalsMax),
    ...(attested && { attestation: attested }),
  };
}
