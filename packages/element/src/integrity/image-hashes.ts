/**
 * SHA-256 of the photos' decoded bytes, started as soon as each photo is accepted, so that
 * sending waits on no hash: the creation leaves as soon as the person sends.
 */
import { base64ToBytes, sha256Hex } from '@onboarding-kit/contract';

export class ImageHashes {
  #hashes = new Map<string, Promise<string>>();

  /** Hashes what is new among these photos (pure base64), and forgets the photos no longer among them. */
  keep(photos: readonly string[]): void {
    const kept = new Map<string, Promise<string>>();
    for (const base64 of photos) kept.set(base64, this.#hashes.get(base64) ?? sha256Hex(base64ToBytes(base64)));
    this.#hashes = kept;
  }

  /** The hash of `base64`, from the photos kept or computed now. */
  of(base64: string): Promise<string> {
    return this.#hashes.get(base64) ?? sha256Hex(base64ToBytes(base64));
  }
}
