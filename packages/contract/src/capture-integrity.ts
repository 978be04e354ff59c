/**
 * Capture integrity (docs/page-api.md#capture-integrity): what the page saw while it captured
 * (a liveness challenge's result, injection signals) and an attestation that binds each submitted
 * image to a nonce the companion issued for its capture step. The page collects and reports; it
 * never judges. The companion verifies the attestation against the bytes it receives, records the
 * rest as the page's claim, and reports both to the backend, which decides.
 */
import type { ImageRoleName } from './page-api.js';

/** The liveness challenge's outcome: `unavailable` when it could not run (no model, no camera, a file). */
export const LIVENESS_RESULTS = ['passed', 'failed', 'unavailable'] as const;
export type LivenessResult = (typeof LIVENESS_RESULTS)[number];

/** The prompts a challenge draws two of, in random order. */
export const LIVENESS_PROMPTS = ['turn-left', 'turn-right', 'come-closer'] as const;
export type LivenessPrompt = (typeof LIVENESS_PROMPTS)[number];

/** Why a challenge did not run. */
export const LIVENESS_UNAVAILABLE_REASONS = ['model-unavailable', 'no-camera', 'file', 'not-asked'] as const;
export type LivenessUnavailableReason = (typeof LIVENESS_UNAVAILABLE_REASONS)[number];

export interface LivenessReport {
  result: LivenessResult;
  /** The prompts shown, in the order shown, and whether each was met in time. */
  prompts: { prompt: LivenessPrompt; met: boolean }[];
  /** Present when `result` is `unavailable`. */
  reason?: LivenessUnavailableReason;
}

/**
 * The injection signals the page collects. Each is raised or not; a raised signal carries what was
 * measured. What each does and does not prove: docs/page-api.md#injection-signals.
 */
export const INTEGRITY_SIGNALS = [
  /** The camera's label names a known virtual camera (OBS, ManyCam, v4l2loopback, ...). */
  'virtual-camera-label',
  /** The track reports none of focus, zoom or torch among its capabilities. */
  'no-camera-controls',
  /** The track's resolution or frame rate is one no phone or webcam sensor gives. */
  'odd-video-format',
  /** Frame intervals from `requestVideoFrameCallback` too regular for a real sensor. */
  'regular-frame-timing',
  /** The page was hidden while a capture step was open. */
  'page-hidden',
  /** `navigator.webdriver` was true: the browser is driven by automation. */
  'webdriver',
  /** A photo came from a file although a camera was available. */
  'file-despite-camera',
] as const;
export type IntegritySignalName = (typeof INTEGRITY_SIGNALS)[number];

export interface IntegritySignal {
  name: IntegritySignalName;
  /** The capture step it was seen on, when it belongs to one. */
  role?: ImageRoleName;
  /** What was measured: a camera label, a `1920x1080@60` format, a coefficient of variation, ... (at most 120 characters). */
  value?: string | number | boolean;
}

/** What an attestation link may stand for: a submitted image, or one of the challenge's keyframes. */
export type AttestedItem = ImageRoleName | `keyframe-${number}`;

export interface AttestationLink {
  item: AttestedItem;
  /** The nonce the companion issued for the item's capture step (keyframes: the selfie's). */
  nonce: string;
  /** SHA-256 of the item's decoded bytes, lowercase hex. */
  sha256: string;
}

/** The page's attestation: one link per submitted image and keyframe, and the chain's head. */
export interface CaptureAttestation {
  links: AttestationLink[];
  /** `chainHead(links)`: lowercase hex. */
  head: string;
}

/** `integrity` of a creation body: all optional, and none of it a gate. */
export interface CaptureIntegrityClaim {
  liveness?: LivenessReport;
  /** Two or three frames of the challenge, JPEG in pure base64 (`CAPTURE_INTEGRITY_LIMITS`). */
  keyframes?: string[];
  signals?: IntegritySignal[];
  attestation?: CaptureAttestation;
}

/** Why the companion found an attestation invalid. */
export const ATTESTATION_PROBLEMS = [
  /** A link names a nonce this session was not issued for that step. */
  'unknown-nonce',
  /** A nonce an earlier creation consumed. */
  'nonce-reused',
  /** A nonce past its lifetime. */
  'nonce-expired',
  /** A link's hash is not the hash of the bytes received. */
  'hash-mismatch',
  /** A submitted image or keyframe has no link, or a link names nothing submitted. */
  'missing-link',
  /** The head is not the chain of the links. */
  'chain-mismatch',
  /** An image's bytes were attested before, in another capture, under another nonce. */
  'replayed',
] as const;
export type AttestationProblem = (typeof ATTESTATION_PROBLEMS)[number];

/** `valid`: every check held; `invalid`: see `problems`; `missing`: the page sent no attestation. */
export const ATTESTATION_STATES = ['valid', 'invalid', 'missing'] as const;
export type AttestationState = (typeof ATTESTATION_STATES)[number];

export interface AttestationVerdict {
  state: AttestationState;
  problems: { problem: AttestationProblem; item?: AttestedItem }[];
  /** The hashes the companion computed itself, per item. */
  hashes: { item: AttestedItem; sha256: string }[];
}

/** `integrity` of a session view and of its notifications. */
export interface SessionIntegrity {
  liveness: LivenessReport;
  signals: IntegritySignal[];
  attestation: AttestationVerdict;
  /** How many keyframes the evidence archive holds (`keyframe-1.jpg`, ...). */
  keyframes: number;
}

/** 201 answer of `POST /v1/session/capture-nonce`. */
export interface CaptureNonce {
  nonce: string;
  role: ImageRoleName;
  expiresAt: string;
}

export const CAPTURE_INTEGRITY_LIMITS = {
  keyframesMax: 3,
  /** Decoded bytes per keyframe. */
  keyframeMaxBytes: 256 * 1024,
  signalsMax: 32,
  signalValueMaxChars: 120,
  /** Nonces one session may be issued, over all its steps. */
  noncesPerSession: 30,
  /** A nonce's lifetime from its issue, in milliseconds. */
  nonceLifetimeMs: 60 * 60 * 1000,
} as const;

const HEX = '0123456789abcdef';
const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => HEX[b >> 4]! + HEX[b & 15]!).join('');
const fromHex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/** SHA-256 of `bytes`, lowercase hex (Web Crypto: the same in a browser, a worker and Node). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}

/**
 * The chain's head: `h0` is 32 zero bytes, and each link folds in as
 * `h = SHA-256(h ‖ UTF-8(item) ‖ 0x00 ‖ UTF-8(nonce) ‖ 0x00 ‖ sha256 bytes)`. The order is the links'
 * order, so a swapped pair of images breaks it as surely as a changed one.
 */
export async function chainHead(links: readonly AttestationLink[]): Promise<string> {
  const encoder = new TextEncoder();
  let head = new Uint8Array(32);
  for (const link of links) {
    const parts = [head, encoder.encode(link.item), new Uint8Array(1), encoder.encode(link.nonce), new Uint8Array(1), fromHex(link.sha256)];
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    head = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', joined));
  }
  return hex(head);
}
