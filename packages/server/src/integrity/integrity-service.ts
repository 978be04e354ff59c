/**
 * A creation's capture integrity recorded on its session (docs/backend-api.md#capture-integrity):
 * the companion hashes what it received, remembers the attested hashes with their nonces (the
 * store's primitive, shared by every instance) and judges the attestation by integrity-rules.ts.
 * Nothing here can fail a creation: a store that cannot answer leaves the replay unchecked, said in
 * the log, and the rest of the verdict stands.
 */
import { chainHead, type AttestedItem, type ValidCreateOnboardingBytes } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import { photoSha256 } from '../onboardings/photo-sha256.js';
import type { BackendState, SessionRecord } from '../store/backend-state.js';
import { attestationVerdict, attestedEntries, usedNonces, type IntegrityOutcome, type ReceivedItem } from './integrity-rules.js';

/** The hashes of the decoded bytes of every image and keyframe a creation carries, taken before the images go upstream. */
export function receivedItems(valid: ValidCreateOnboardingBytes): ReceivedItem[] {
  const images = Object.entries(valid.images).map(([role, image]) => ({
    item: role as AttestedItem,
    sha256: photoSha256(image.base64),
  }));
  const keyframes = (valid.integrity?.keyframes ?? []).map((k, i) => ({
    item: `keyframe-${i + 1}` as AttestedItem,
    sha256: photoSha256(k.base64),
  }));
  return [...images, ...keyframes];
}

export interface IntegrityServiceOptions {
  store: Pick<BackendState, 'attestHashes'>;
  now(): number;
  /** How long an attested hash is remembered (`SESSION_MAX_AGE_MS`). */
  keepMs: number;
  logger: Logger;
}

export class IntegrityService {
  constructor(private readonly o: IntegrityServiceOptions) {}

  async verify(
    session: SessionRecord,
    claim: ValidCreateOnboardingBytes['integrity'],
    received: readonly ReceivedItem[],
  ): Promise<IntegrityOutcome> {
    const nonces = session.captureNonces ?? [];
    const attestation = claim?.attestation;
    const entries = attestedEntries(attestation, received, nonces);
    const earlier = new Map<AttestedItem, string | null>();
    try {
      const answers = await this.o.store.attestHashes(
        entries.map(({ sha256, nonce }) => ({ sha256, nonce })),
        this.o.keepMs,
      );
      entries.forEach((e, i) => earlier.set(e.item, answers[i] ?? null));
    } catch (error) {
      this.o.logger.warn('attested hashes not checked for replay', { sessionId: session.id, error });
    }
    const head = attestation ? await chainHead(attestation.links) : undefined;
    const verdict = attestationVerdict({ attestation, received, nonces, nowMs: this.o.now(), head, earlier });
    const keyframes = (claim?.keyframes ?? []).map((k) =>
      Buffer.from(k.base64.buffer, k.base64.byteOffset, k.base64.byteLength).toString('latin1'),
    );
    return {
      recorded: {
        ...(claim?.liveness && { liveness: claim.liveness }),
        ...(claim?.signals && { signals: claim.signals }),
        attestation: verdict,
        keyframes: keyframes.length,
      },
      used: usedNonces(attestation, nonces),
      keyframes,
    };
  }
}
