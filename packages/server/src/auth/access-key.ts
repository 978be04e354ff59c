/**
 * The page's access key: 32 random bytes (base64url) handed out once at creation. Only its
 * SHA-256 is stored; checks hash the presented key and compare constant-time, and an unknown
 * token costs the same comparison, so timing tells nothing either. Every secret the companion
 * checks (access key, webhook key, admin key) is compared here and nowhere else:
 * scripts/check-secret-compare.ts fails the lint on a `timingSafeEqual` elsewhere or a secret
 * compared with `===`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys drawn from the system's random source 128 at a time (one call instead of one per creation), as Node does for `randomUUID()`. */
const POOL_BYTES = 32 * 128;
let pool = Buffer.alloc(0);
let poolAt = POOL_BYTES;

export function newAccessKey(): string {
  if (poolAt + 32 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  const key = pool.toString('base64url', poolAt, poolAt + 32);
  // Used bytes are wiped: a key handed out is nowhere in memory but where it went.
  pool.fill(0, poolAt, poolAt + 32);
  poolAt += 32;
  return key;
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
