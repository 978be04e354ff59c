/** An onboarding's life in a store apart from its status: how it is created, gets more access keys and leaves. */
import type { OnboardingRecord, Store } from '../store.js';
import { msOf } from './iso-time.js';

export type NewOnboarding = Parameters<Store['create']>[0];

/** The record `create` stores: updated when created, with one `creation` entry unless a history is given. */
export function newOnboarding(input: NewOnboarding): OnboardingRecord {
  return {
    ...input,
    updatedAt: input.createdAt,
    history: input.history ?? [{ status: input.status, at: input.createdAt, source: 'creation' }],
  };
}

/** A replayed creation's further access key; a repeat adds nothing and the order of issue holds. */
export function withAccessKey(r: OnboardingRecord, hash: string): OnboardingRecord {
  // A Set, not a comparison: hashes are compared only through the constant-time helpers.
  return { ...r, moreAccessKeyHashes: [...new Set([...(r.moreAccessKeyHashes ?? []), hash])] };
}

/** Retention, in ms since the epoch: strictly before a cutoff goes. */
export interface OnboardingCutoffs {
  finishedBeforeMs: number;
  createdBeforeMs: number;
}

export const onboardingCutoffs = (c: { finishedBefore: Date; createdBefore: Date }): OnboardingCutoffs => ({
  finishedBeforeMs: c.finishedBefore.getTime(),
  createdBeforeMs: c.createdBefore.getTime(),
});

/** Whether retention deletes `r`: finished before the one cutoff, or created before the other. */
export function onboardingExpired(r: Pick<OnboardingRecord, 'createdAt' | 'finishedAt'>, c: OnboardingCutoffs): boolean {
  return (r.finishedAt !== undefined && msOf(r.finishedAt) < c.finishedBeforeMs) || msOf(r.createdAt) < c.createdBeforeMs;
}
