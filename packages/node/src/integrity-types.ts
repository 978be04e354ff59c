/**
 * `integrity` of a session view (docs/backend-api.md#capture-integrity): the page's claims about
 * its capture and the companion's own verdict on their attestation. Declared here so that the SDK
 * installs alone; test/contract-types.test.ts holds them to @onboarding-kit/contract.
 */
import type { ImageRoleName } from './types.js';

export type LivenessResult = 'passed' | 'failed' | 'unavailable';
export type LivenessPrompt = 'turn-left' | 'turn-right' | 'come-closer';
export type LivenessUnavailableReason = 'model-unavailable' | 'no-camera' | 'file' | 'not-asked';

/** The page's claim about the liveness challenge; never checked by the companion. */
export interface LivenessReport {
  result: LivenessResult;
  prompts: { prompt: LivenessPrompt; met: boolean }[];
  reason?: LivenessUnavailableReason;
}

export type IntegritySignalName =
  | 'virtual-camera-label'
  | 'no-camera-controls'
  | 'odd-video-format'
  | 'regular-frame-timing'
  | 'page-hidden'
  | 'webdriver'
  | 'file-despite-camera';

/** A signal the page raised; what each does and does not prove: docs/page-api.md#injection-signals. */
export interface IntegritySignal {
  name: IntegritySignalName;
  role?: ImageRoleName;
  value?: string | number | boolean;
}

export type AttestedItem = ImageRoleName | `keyframe-${number}`;
export type AttestationProblem =
  | 'unknown-nonce'
  | 'nonce-reused'
  | 'nonce-expired'
  | 'hash-mismatch'
  | 'missing-link'
  | 'chain-mismatch'
  | 'replayed';

/** The companion's verdict on the page's hash chain. */
export interface AttestationVerdict {
  state: 'valid' | 'invalid' | 'missing';
  problems: { problem: AttestationProblem; item?: AttestedItem }[];
  /** SHA-256 of each image and keyframe as the companion received them. */
  hashes: { item: AttestedItem; sha256: string }[];
}

export interface SessionIntegrity {
  liveness: LivenessReport;
  signals: IntegritySignal[];
  attestation: AttestationVerdict;
  /** How many keyframes the evidence archive holds (`keyframe-1.jpg`, ...). */
  keyframes: number;
}
