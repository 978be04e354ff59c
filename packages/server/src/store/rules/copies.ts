/**
 * Copies of what a store hands out, so no caller ever holds the stored object and a field cleared
 * with `undefined` reads back absent from every store alike.
 */
import type { SessionRecord } from '../backend-state.js';
import type { OnboardingRecord } from '../store.js';

export const copyRecord = (r: OnboardingRecord): OnboardingRecord => ({
  ...r,
  history: r.history.map((h) => ({ ...h })),
  ...(r.moreAccessKeyHashes && { moreAccessKeyHashes: [...r.moreAccessKeyHashes] }),
  ...(r.keptAnyway && { keptAnyway: { ...r.keptAnyway } }),
});

/** Sessions travel as JSON in the shared stores, where a property set to `undefined` vanishes: every store copies them that way. */
export const copySession = (s: SessionRecord): SessionRecord => JSON.parse(JSON.stringify(s)) as SessionRecord;
