/**
 * The access token lifecycle (docs/upstream-api.md#authentication-and-token-lifetime;
 * docs/upstream-api.md, rule 3): one token reused until shortly before `expires_in`, at most one
 * renewal in flight however many calls wait, and a renewal after a real HTTP 401 that only happens
 * once per stale token (the 20 calls that all got 401 with the same token share one renewal).
 */
export interface IssuedToken {
  accessToken: string;
  /** Seconds, as the upstream gave it. */
  expiresIn: number;
}

export interface AccessTokensOptions {
  /** Obtains a fresh token (`POST /api/token-generate`). */
  generate: () => Promise<IssuedToken>;
  /** Renew this long before expiry (default: 30 s, at most a tenth of the lifetime). */
  renewEarlyMs?: number;
  now?: () => number;
}

export class AccessTokens {
  private current?: { value: string; renewAt: number };
  private inflight?: Promise<string>;
  private readonly generate: () => Promise<IssuedToken>;
  private readonly renewEarlyMs?: number;
  private readonly now: () => number;

  constructor(options: AccessTokensOptions) {
    this.generate = options.generate;
    if (options.renewEarlyMs !== undefined) this.renewEarlyMs = options.renewEarlyMs;
    this.now = options.now ?? Date.now;
  }

  /** A valid token: the cached one, the renewal already in flight, or a new renewal. */
  get(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return Promise.resolve(this.current.value);
    return this.renew();
  }

  /**
   * Called after a real HTTP 401 with `stale`. Renews only if nobody has replaced that token yet;
   * otherwise hands out the replacement (or joins the renewal in flight).
   */
  afterUnauthorized(stale: string): Promise<string> {
    if (this.inflight) return this.inflight;
    if (this.current && this.current.value !== stale) return Promise.resolve(this.current.value);
    this.current = undefined;
    return this.renew();
  }

  /** The token currently held (for redaction of logs), if any. */
  peek(): string | undefined {
    return this.current?.value;
  }

  private renew(): Promise<string> {
    if (this.inflight) return this.inflight;
    const started = this.now();
    this.inflight = this.generate()
      .then(({ accessToken, expiresIn }) => {
        const lifetimeMs = Math.max(0, expiresIn * 1000);
        const early = Math.min(this.renewEarlyMs ?? 30_000, lifetimeMs / 10);
        this.current = { value: accessToken, renewAt: started + lifetimeMs - early };
        return accessToken;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
