/**
 * The `Idempotency-Key` of a creation: one per content sent, so that sending the same content
 * again after a lost answer gets the onboarding already created instead of a second one.
 */
import type { CreateOnboardingRequest } from '@onboarding-kit/contract';

/** A version 4 UUID from getRandomValues, which (unlike randomUUID) also exists outside secure contexts. */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether two creation bodies are the same content (photos compared by their base64). */
export function sameRequest(a: CreateOnboardingRequest, b: CreateOnboardingRequest): boolean {
  const fields = ['cpf', 'cnpj', 'name', 'documentType'] as const;
  if (fields.some((f) => a[f] !== b[f])) return false;
  const roles = new Set([...Object.keys(a.images), ...Object.keys(b.images)]) as Set<keyof CreateOnboardingRequest['images']>;
  return [...roles].every((role) => a.images[role] === b.images[role] && a.keptAnyway?.[role] === b.keptAnyway?.[role]);
}
