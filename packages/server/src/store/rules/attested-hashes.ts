/**
 * Attested hashes (docs/page-api.md#attestation): the SHA-256 of each image or keyframe a creation
 * attested, with the nonce it came under, remembered for `keepMs` so that the same bytes sent
 * again under another nonce can be told apart. The first attestation of some bytes is the one
 * remembered, until it lapses; the images themselves are never kept. The Redis store runs this in
 * Lua on its own clock; `ATTESTED_HASH_CASES` holds every store to it.
 */
export interface AttestedHash {
  nonce: string;
  expiresAtMs: number;
}

/** One hash a creation attested, and the nonce it came under. */
export interface AttestedEntry {
  sha256: string;
  nonce: string;
}

/** The nonce these bytes were attested under before (null: never, or lapsed), and what to remember now. */
export function attestHash(
  held: AttestedHash | undefined,
  nonce: string,
  keepMs: number,
  nowMs: number,
): { earlier: string | null; write?: AttestedHash } {
  if (held && held.expiresAtMs > nowMs) return { earlier: held.nonce };
  return { earlier: null, write: { nonce, expiresAtMs: nowMs + keepMs } };
}

/** Whether a remembered hash has lapsed at `nowMs` (a sweep may forget it). */
export const attestedLapsed = (held: AttestedHash, nowMs: number): boolean => held.expiresAtMs <= nowMs;
