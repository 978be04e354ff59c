/**
 * Leases: one holder at a time, taken when free, lapsed or already the taker's, and extended or
 * given up only by a holder whose lease has not lapsed. The Redis store runs these decisions in
 * Lua on its keys' TTLs; `LEASE_CASES` holds every store to them.
 */
export interface Lease {
  owner: string;
  expiresAtMs: number;
}

const live = (held: Lease | undefined, nowMs: number): held is Lease => held !== undefined && held.expiresAtMs > nowMs;
const heldBy = (held: Lease | undefined, owner: string, nowMs: number): held is Lease => live(held, nowMs) && held.owner === owner;

/** The lease after `owner` asked for it, or null when someone else holds it. */
export function acquireLease(held: Lease | undefined, owner: string, ttlMs: number, nowMs: number): Lease | null {
  return live(held, nowMs) && held.owner !== owner ? null : { owner, expiresAtMs: nowMs + ttlMs };
}

/** The lease extended, or null when it lapsed or is someone else's (stop the work it guards). */
export function renewLease(held: Lease | undefined, owner: string, ttlMs: number, nowMs: number): Lease | null {
  return heldBy(held, owner, nowMs) ? { owner, expiresAtMs: nowMs + ttlMs } : null;
}

/** Whether `owner` may give the lease up: only while it holds it. */
export const releaseLease = (held: Lease | undefined, owner: string, nowMs: number): boolean => heldBy(held, owner, nowMs);

/** `renewLeases` renews each name once, however often it is named. */
export const distinctNames = (names: string[]): string[] => [...new Set(names)];

/** Steps on one lease name, with the time they happen at (ms after the start) and their answer. */
export type LeaseStep = { at: number; op: 'acquire' | 'renew' | 'release'; owner: string; ttlMs?: number; expect: boolean };

export const LEASE_CASES: ReadonlyArray<{ name: string; steps: LeaseStep[] }> = [
  { name: 'a free lease is taken', steps: [{ at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true }] },
  {
    name: 'a held lease is refused to another',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'acquire', owner: 'b', ttlMs: 1_000, expect: false },
    ],
  },
  {
    name: 'the holder takes it again',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
    ],
  },
  {
    name: 'a lapsed lease is free',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'acquire', owner: 'b', ttlMs: 1_000, expect: true },
    ],
  },
  {
    name: 'only the holder renews',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'renew', owner: 'b', ttlMs: 1_000, expect: false },
      { at: 0, op: 'renew', owner: 'a', ttlMs: 1_000, expect: true },
    ],
  },
  {
    name: 'a lapsed lease is not renewed',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'renew', owner: 'a', ttlMs: 1_000, expect: false },
    ],
  },
  { name: 'an unknown lease is not renewed', steps: [{ at: 0, op: 'renew', owner: 'a', ttlMs: 1_000, expect: false }] },
  {
    name: 'only the holder releases',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'release', owner: 'b', expect: false },
      { at: 0, op: 'release', owner: 'a', expect: true },
      { at: 0, op: 'release', owner: 'a', expect: false },
    ],
  },
  {
    name: 'a released lease is free',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'release', owner: 'a', expect: true },
      { at: 0, op: 'acquire', owner: 'b', ttlMs: 1_000, expect: true },
    ],
  },
  {
    name: 'a lapsed lease is not released',
    steps: [
      { at: 0, op: 'acquire', owner: 'a', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'release', owner: 'a', expect: false },
    ],
  },
];
