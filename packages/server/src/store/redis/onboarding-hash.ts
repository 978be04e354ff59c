/** An onboarding as a Redis hash and back (key names: ./keys.ts). */
import type { KeptAnyway, OnboardingStatus } from '@onboarding-kit/contract';
import type { OnboardingRecord } from '../store.js';

/** Fields of the access keys added by replays; the value orders them (HLEN at insertion only grows). */
export const MORE_KEY_FIELD = 'moreAccessKeyHash:';

export function toHash(r: OnboardingRecord): Record<string, string> {
  const fields: Record<string, string> = {
    tokenOnboarding: r.tokenOnboarding,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    accessKeyHash: r.accessKeyHash,
    history: JSON.stringify(r.history.map(({ status, at, source }) => ({ status, at, source }))),
  };
  if (r.externalId !== undefined) fields.externalId = r.externalId;
  if (r.finishedAt !== undefined) fields.finishedAt = r.finishedAt;
  if (r.sessionId !== undefined) fields.sessionId = r.sessionId;
  if (r.keptAnyway !== undefined) fields.keptAnyway = JSON.stringify(r.keptAnyway);
  // Values 1..n sit below any HLEN a later addition gets, so the order of issue holds.
  (r.moreAccessKeyHashes ?? []).forEach((h, i) => (fields[MORE_KEY_FIELD + h] = String(i + 1)));
  return fields;
}

/** A hash without a status or a token (Redis expired it, or it is not one of ours) is no onboarding. */
export function fromHash(h: Record<string, string>): OnboardingRecord | null {
  if (!h.status || !h.tokenOnboarding) return null;
  const history = (JSON.parse(h.history ?? '[]') as OnboardingRecord['history']).map(({ status, at, source }) => ({ status, at, source }));
  const more = Object.entries(h)
    .filter(([field]) => field.startsWith(MORE_KEY_FIELD))
    .sort(([, x], [, y]) => Number(x) - Number(y))
    .map(([field]) => field.slice(MORE_KEY_FIELD.length));
  return {
    tokenOnboarding: h.tokenOnboarding,
    status: h.status as OnboardingStatus,
    createdAt: h.createdAt!,
    updatedAt: h.updatedAt!,
    ...(h.externalId !== undefined && { externalId: h.externalId }),
    accessKeyHash: h.accessKeyHash!,
    history,
    ...(h.finishedAt !== undefined && { finishedAt: h.finishedAt }),
    ...(h.sessionId !== undefined && { sessionId: h.sessionId }),
    ...(more.length > 0 && { moreAccessKeyHashes: more }),
    ...(h.keptAnyway !== undefined && { keptAnyway: JSON.parse(h.keptAnyway) as KeptAnyway }),
  };
}

/** HGETALL as a Lua script returns it (a flat list) to an object. */
export function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}
