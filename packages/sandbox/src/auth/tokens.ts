/**
 * Access tokens: issue, verify, expire. The JWT carries whole-second `iat`/`exp` like any JWT;
 * the exact expiry instant (millisecond precision) is kept here by `jti`, so a token is refused
 * from `tokenTtlS` after its issue, not up to a second later, and `expireAll()` can revoke every
 * token at once.
 */
import { randomUUID } from 'node:crypto';
import { newSigningKey, signJwt, verifyJwt } from './jwt.js';

export interface IssuedToken {
  access_token: string;
  expires_in: number;
}

export class TokenIssuer {
  readonly #key = newSigningKey();
  /** jti -> expiry instant (ms since epoch). */
  readonly #live = new Map<string, number>();
  #issued = 0;

  constructor(
    private readonly ttlS: number,
    private readonly now: () => number = Date.now,
  ) {}

  get issuedCount(): number {
    return this.#issued;
  }

  issue(subject: string): IssuedToken {
    const now = this.now();
    this.#prune(now);
    const expiresAt = now + this.ttlS * 1000;
    const jti = randomUUID();
    this.#live.set(jti, expiresAt);
    this.#issued++;
    const token = signJwt({ sub: subject, iat: Math.floor(now / 1000), exp: Math.ceil(expiresAt / 1000), jti }, this.#key);
    return { access_token: token, expires_in: this.ttlS };
  }

  /** The token's subject when it is genuine, not revoked and not expired; otherwise null. */
  verify(token: string): string | null {
    const claims = verifyJwt(token, this.#key);
    if (!claims) return null;
    const expiresAt = this.#live.get(claims.jti);
    if (expiresAt === undefined) return null;
    if (this.now() >= expiresAt) {
      this.#live.delete(claims.jti);
      return null;
    }
    return claims.sub;
  }

  expireAll(): void {
    this.#live.clear();
  }

  #prune(now: number): void {
    for (const [jti, expiresAt] of this.#live) if (now >= expiresAt) this.#live.delete(jti);
  }
}
