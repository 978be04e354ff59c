/** HS256 JWTs with node:crypto: the upstream hands out a JWT as `access_token` (docs/upstream-api.md#authentication-and-token-lifetime). */
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from './safe-equal.js';

export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
  jti: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signJwt(claims: JwtClaims, key: Uint8Array): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', key).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** The claims of a token signed with `key`, or null for anything forged, altered or malformed. Expiry is the caller's job. */
export function verifyJwt(token: string, key: Uint8Array): JwtClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return null;
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url');
  if (!safeEqual(signature, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<JwtClaims>;
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.jti !== 'string' ||
      typeof claims.exp !== 'number' ||
      typeof claims.iat !== 'number'
    )
      return null;
    return claims as JwtClaims;
  } catch {
    return null;
  }
}

/** A fresh signing key per process (per sandbox): tokens never survive a restart, like another environment's. */
export function newSigningKey(): Uint8Array {
  return randomBytes(32);
}
