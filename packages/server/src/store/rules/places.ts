/**
 * Places: at most `limit` holders at once under one key (a client address, a session), shared by
 * every instance on the store. A place lapses `ttlMs` after it was taken, so an instance that dies
 * while holding one keeps it from the others only that long. A holder that asks again keeps its
 * one place, extended. The Redis store runs this in Lua on its own clock; `PLACE_CASES` holds
 * every store to it.
 */
export interface Place {
  holder: string;
  expiresAtMs: number;
}

/** The places still held at `nowMs`. */
export const livePlaces = (held: readonly Place[], nowMs: number): Place[] => held.filter((p) => p.expiresAtMs > nowMs);

/** The key's places once `holder` has one, or null when `limit` others hold theirs. */
export function takePlace(held: readonly Place[], holder: string, limit: number, ttlMs: number, nowMs: number): Place[] | null {
  const others = livePlaces(held, nowMs).filter((p) => p.holder !== holder);
  if (others.length >= limit) return null;
  return [...others, { holder, expiresAtMs: nowMs + ttlMs }];
}

/** The key's places once `holder` has left, and whether it held a live one. */
export function leavePlace(held: readonly Place[], holder: string, nowMs: number): { left: boolean; places: Place[] } {
  const live = livePlaces(held, nowMs);
  const places = live.filter((p) => p.holder !== holder);
  return { left: places.length < live.length, places };
}

/** Steps on one key (limit 2), with the time they happen at (ms after the start) and their answer. */
export type PlaceStep = { at: number; op: 'take' | 'leave'; holder: string; ttlMs?: number; expect: boolean };
export const PLACE_CASE_LIMIT = 2;

export const PLACE_CASES: ReadonlyArray<{ name: string; steps: PlaceStep[] }> = [
  {
    name: 'places up to the limit are taken, one more is refused',
    steps: [
      { at: 0, op: 'take', holder: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'b', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'c', ttlMs: 1_000, expect: false },
    ],
  },
  {
    name: 'a holder asking again keeps its one place',
    steps: [
      { at: 0, op: 'take', holder: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'b', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'c', ttlMs: 1_000, expect: false },
    ],
  },
  {
    name: 'a place left is free at once',
    steps: [
      { at: 0, op: 'take', holder: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'b', ttlMs: 1_000, expect: true },
      { at: 0, op: 'leave', holder: 'a', expect: true },
      { at: 0, op: 'leave', holder: 'a', expect: false },
      { at: 0, op: 'take', holder: 'c', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'd', ttlMs: 1_000, expect: false },
    ],
  },
  {
    name: 'lapsed places are free: a holder that never leaves holds them only for their time',
    steps: [
      { at: 0, op: 'take', holder: 'a', ttlMs: 1_000, expect: true },
      { at: 0, op: 'take', holder: 'b', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'take', holder: 'c', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'take', holder: 'd', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'take', holder: 'e', ttlMs: 1_000, expect: false },
    ],
  },
  {
    name: 'leaving a lapsed place or one never taken changes nothing',
    steps: [
      { at: 0, op: 'leave', holder: 'a', expect: false },
      { at: 0, op: 'take', holder: 'a', ttlMs: 1_000, expect: true },
      { at: 1_500, op: 'leave', holder: 'a', expect: false },
    ],
  },
];
