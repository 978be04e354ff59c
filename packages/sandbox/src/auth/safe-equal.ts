/**
 * The sandbox's one comparison of secrets (client, secret, token signatures): constant-time, and
 * both sides hashed first so lengths leak nothing either. scripts/check-secret-compare.ts fails
 * the lint when `timingSafeEqual` appears anywhere else or a secret is compared with `===`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
