/**
 * The integrator's backend API keys (docs/backend-api.md#api-keys). Several are valid at once so a
 * key can be rotated without downtime; only their SHA-256 hashes are kept, so a heap dump holds no
 * usable key. A presented key is checked against every hash, with no early exit, so timing tells
 * neither whether nor which key matched. A page's access key or a session's client secret is a
 * different secret: it matches none of these hashes.
 */
import type { MiddlewareHandler } from 'hono';
import { CompanionConfigError } from '../config/config-error.js';
import { bearer, hashSecret, keyMatches, secretEquals } from './access-key.js';
import { httpError } from '../http/companion-error.js';
import type { CompanionEnv } from '../http/env.js';
import { requestHeader } from '../transport/index.js';
import { OPTION_LIMITS } from '../config/defaults.js';

/** Shorter keys are guessable offline from a leaked hash. */
export const API_KEY_MIN_LENGTH = OPTION_LIMITS.secretMinLength;

export class ApiKeyring {
  readonly #hashes: readonly string[];

  private constructor(hashes: readonly string[]) {
    this.#hashes = hashes;
  }

  /** Throws `CompanionConfigError` for an empty list, a key under 32 characters or one with whitespace (a Bearer token cannot carry it). */
  static from(keys: readonly string[]): ApiKeyring {
    if (!Array.isArray(keys) || keys.length === 0) throw new CompanionConfigError('Invalid API keys: at least one key is needed.');
    keys.forEach((key: unknown, i) => {
      if (typeof key !== 'string' || key.length < API_KEY_MIN_LENGTH || /\s/.test(key)) {
        // The position, never the key: this message reaches logs.
        throw new CompanionConfigError(
          `Invalid API keys: key #${i + 1} must have at least ${API_KEY_MIN_LENGTH} characters and no whitespace.`,
        );
      }
    });
    return new ApiKeyring([...new Set(keys.map(hashSecret))]);
  }

  /** How many distinct keys are accepted. */
  get size(): number {
    return this.#hashes.length;
  }

  /** Whether `presented` is one of the keys; the same work whichever key matches, or none. */
  matches(presented: string | undefined): boolean {
    let found = false;
    for (const hash of this.#hashes) {
      // keyMatches runs first on every hash: `found ||` must not skip the rest.
      const match = keyMatches(presented, hash);
      found = match || found;
    }
    return found;
  }
}

export interface RequireApiKeyOptions {
  /** One more key accepted besides the keyring's (the admin key on the admin routes). */
  alsoAccept?: string;
}

const BACKEND_REALM = 'onboarding-backend';

/** `Authorization: Bearer <API key>` or 401 `unauthorized` in the error shape. */
export function requireApiKey(keyring: ApiKeyring, options: RequireApiKeyOptions = {}): MiddlewareHandler<CompanionEnv> {
  if (!(keyring instanceof ApiKeyring)) throw new TypeError('requireApiKey needs an ApiKeyring (ApiKeyring.from(keys)).');
  const extra = options.alsoAccept;
  if (extra !== undefined && !extra) throw new TypeError('requireApiKey: alsoAccept must be a non-empty key when given.');
  return async (c, next) => {
    const presented = bearer(requestHeader(c, 'authorization'));
    const inRing = keyring.matches(presented);
    // Compared even when the ring matched, so the admin key costs the same as any other key.
    const isExtra = extra !== undefined && secretEquals(presented, extra);
    if (!inRing && !isExtra) {
      throw httpError('unauthorized', 'A valid API key is required (Authorization: Bearer <API key>).', {
        realm: BACKEND_REALM,
      });
    }
    await next();
  };
}
