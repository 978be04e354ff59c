/**
 * Idempotency keys: the first request reserves a key, a request that finds it reserved is told it
 * is pending (or, from its fingerprint, that it is another request), and one that finds a result
 * gets it to replay. The Redis store runs these decisions in Lua (a key's TTL is its expiry
 * there); `IDEMPOTENCY_CASES` holds every store to them.
 */
import type { IdempotencyState } from '../backend-state.js';

export interface HeldKey {
  fingerprint: string;
  /** Set once the holder completed; until then the key is pending. */
  result?: string;
  expiresAtMs: number;
}

export interface KeyTtls {
  ttlMs: number;
  pendingTtlMs: number;
}

/** A reservation lives no longer than either limit: a creation that never finishes frees its key with the shorter. */
export const reservationTtlMs = ({ ttlMs, pendingTtlMs }: KeyTtls): number => Math.min(ttlMs, pendingTtlMs);

const keyLive = (held: HeldKey | undefined, nowMs: number): held is HeldKey => held !== undefined && held.expiresAtMs > nowMs;

/** What `reserveIdempotencyKey` answers, and the key to store when it reserves (for `reservationMs`, see `reservationTtlMs`). */
export function reserveKey(
  held: HeldKey | undefined,
  fingerprint: string,
  reservationMs: number,
  nowMs: number,
): { answer: IdempotencyState; write?: HeldKey } {
  if (keyLive(held, nowMs)) {
    return {
      answer:
        held.result === undefined
          ? { state: 'pending', fingerprint: held.fingerprint }
          : { state: 'done', fingerprint: held.fingerprint, result: held.result },
    };
  }
  return { answer: { state: 'reserved' }, write: { fingerprint, expiresAtMs: nowMs + reservationMs } };
}

/** The key after its holder completed, or undefined (nothing written): only a reservation has the fingerprint a replay is compared with, and a first result is final. */
export function completeKey(held: HeldKey | undefined, result: string, ttlMs: number, nowMs: number): HeldKey | undefined {
  return held && held.result === undefined ? { fingerprint: held.fingerprint, result, expiresAtMs: nowMs + ttlMs } : undefined;
}

/** Whether a release deletes the key: a result, once recorded, is what a retry must get. */
export const releaseFrees = (held: HeldKey | undefined): boolean => held !== undefined && held.result === undefined;

/** Steps on one key and what each answers; the conformance suite plays them against every store. */
export type IdempotencyStep =
  | { op: 'reserve'; fingerprint: string; expect: IdempotencyState['state'] }
  | { op: 'complete'; result: string }
  | { op: 'release' };

export const IDEMPOTENCY_CASES: ReadonlyArray<{ name: string; steps: IdempotencyStep[]; replays?: string }> = [
  { name: 'a free key is reserved', steps: [{ op: 'reserve', fingerprint: 'f1', expect: 'reserved' }] },
  {
    name: 'a reserved key is pending, whatever the fingerprint',
    steps: [
      { op: 'reserve', fingerprint: 'f1', expect: 'reserved' },
      { op: 'reserve', fingerprint: 'f2', expect: 'pending' },
    ],
  },
  {
    name: 'a completed key replays its result',
    steps: [
      { op: 'reserve', fingerprint: 'f1', expect: 'reserved' },
      { op: 'complete', result: 'r1' },
      { op: 'reserve', fingerprint: 'f1', expect: 'done' },
    ],
    replays: 'r1',
  },
  {
    name: 'a first result is final',
    steps: [
      { op: 'reserve', fingerprint: 'f1', expect: 'reserved' },
      { op: 'complete', result: 'r1' },
      { op: 'complete', result: 'r2' },
      { op: 'reserve', fingerprint: 'f1', expect: 'done' },
    ],
    replays: 'r1',
  },
  {
    name: 'a released key is free again',
    steps: [
      { op: 'reserve', fingerprint: 'f1', expect: 'reserved' },
      { op: 'release' },
      { op: 'reserve', fingerprint: 'f2', expect: 'reserved' },
    ],
  },
  {
    name: 'a late release does not free a result',
    steps: [
      { op: 'reserve', fingerprint: 'f1', expect: 'reserved' },
      { op: 'complete', result: 'r1' },
      { op: 'release' },
      { op: 'reserve', fingerprint: 'f2', expect: 'done' },
    ],
    replays: 'r1',
  },
  {
    name: 'completing a key nobody reserved records nothing',
    steps: [
      { op: 'complete', result: 'r1' },
      { op: 'reserve', fingerprint: 'f1', expect: 'reserved' },
    ],
  },
];
