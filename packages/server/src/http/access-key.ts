/**
 * The page's access key: 32 random bytes (base64url) handed out once at creation. Only its
 * SHA-256 is stored; checks hash the presented key and compare constant-time, and an unknown
 * token costs the same comparison, so timing tells nothing either. Every secret the companion
 * checks (access key, webhook key, admin key) is compared here and nowhere else:
 * scripts/check-secret-compare.ts fails the lint on a `timingSafeEqual` elsewhere or a secret
 * compared with `===`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newAccessKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

const DUMMY_HASH = hashSecret('no onboarding has this key');

/** Constant-time check of a presented key against a stored hash (or a dummy when there is none). */
export function keyMatches(presented: string | undefined, storedHash: string | undefined): boolean {
  const expected = Buffer.from(storedHash ?? DUMMY_HASH, 'hex');
  const actual = Buffer.from(hashSecret(presented ?? ''), 'hex');
  return timingSafeEqual(expected, actual) && presented !== undefined && storedHash !== undefined;
}

/** Constant-time equality of two secrets of any length (hashing first equalises the lengths). */
export function secretEquals(presented: string | undefined, expected: string): boolean {
  const a = Buffer.from(hashSecret(presented ?? ''), 'hex');
  const b = Buffer.from(hashSecret(expected), 'hex');
  return timingSafeEqual(a, b) && presented !== undefined;
}

/** `Authorization: Bearer <key>` -> key, or undefined. */
export function bearer(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}
