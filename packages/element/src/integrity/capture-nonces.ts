/**
 * The capture nonce of the open capture step (docs/page-api.md#attestation): asked in the
 * background when the step opens on a flow with a session, one per opening, and the same for
 * every photo taken again on it. A request that fails (no session, a refusal, the network) leaves
 * the step without a nonce, and the attestation then goes unsent; a creation waits for a pending
 * one a few seconds at most (integrity-controller.ts).
 */
import type { ImageRoleName } from '@onboarding-kit/contract';
import { captureNonce } from '../api/companion-client.js';

export interface NonceSource {
  endpoint(): string;
  /** The page secret of a usable session, or null. */
  secret(): string | null;
}

const NONE: Promise<string | null> = Promise.resolve(null);

export class CaptureNonces {
  readonly #source: NonceSource;
  #opening: { role: ImageRoleName; nonce: Promise<string | null> } | null = null;

  constructor(source: NonceSource) {
    this.#source = source;
  }

  /** A capture step of `role` opened: its nonce is asked for now. */
  open(role: ImageRoleName): void {
    const secret = this.#source.secret();
    const nonce = secret
      ? captureNonce(this.#source.endpoint(), secret, role).then(
          (answer) => answer.nonce,
          () => null,
        )
      : NONE;
    this.#opening = { role, nonce };
  }

  /** The step closed: a photo accepted later belongs to no opening. */
  close(): void {
    this.#opening = null;
  }

  /** The nonce of the open step of `role` (null: none was or will be issued). */
  current(role: ImageRoleName): Promise<string | null> {
    return this.#opening?.role === role ? this.#opening.nonce : NONE;
  }
}
