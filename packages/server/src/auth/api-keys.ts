/**
 * The integrator's backend API keys (docs/backend-api.md#api-keys). Several are valid at once so a
 * key can be rotated without downtime; only their SHA-256 hashes are kept, so a heap dump holds no
 * usable key. A presented key is checked against every hash, with no early exit, so timing tells
 * neither whether nor which key matched. Each hash carries its key's scopes (auth/key-scopes.ts):
 * a valid key without the scope a route needs gets 403 `forbidden`. A page's access key or a
 * session's client secret is a different secret: it matches none of these hashes.
 */
import type { MiddlewareHandler } from 'hono';
import { CompanionConfigError } from '../config/config-error.js';
import { bearer, hashSecret, keyMatches, secretEquals } from './access-key.js';
import { httpError } from '../http/companion-error.js';
import type { CompanionEnv } from '../http/env.js';
import { requestHeader } from '../transport/index.js';
import { OPTION_LIMITS } from '../config/defaults.js';
import { ADMIN_KEY_SCOPES, API_KEY_SCOPES, isApiKeyScope, keyOf, scopesProblem, type ApiKeyInput, type ApiKeyScope } from './key-scopes.js';

/** Shorter keys are guessable offline from a leaked hash. */
export const API_KEY_MIN_LENGTH = OPTION_LIMITS.secretMinLength;

export class ApiKeyring {
  readonly #entries: readonly { readonly hash: string; readonly scopes: readonly ApiKeyScope[] }[];

  private constructor(entries: readonly { hash: string; scopes: readonly ApiKeyScope[] }[]) {
    this.#entries = entries;
  }

  /**
   * Throws `CompanionConfigError` for an empty list, a key under 32 characters or one with
   * whitespace (a Bearer token cannot carry it), or bad scopes. A key given alone gets `unscoped`
   * (default: every scope; the companion passes its environment's default).
   */
  static from(keys: readonly ApiKeyInput[], options: { unscoped?: readonly ApiKeyScope[] } = {}): ApiKeyring {
    if (!Array.isArray(keys) || keys.length === 0) throw new CompanionConfigError('Invalid API keys: at least one key is needed.');
    const unscoped = options.unscoped ?? API_KEY_SCOPES;
    const byHash = new Map<string, Set<ApiKeyScope>>();
    keys.forEach((input: unknown, i) => {
      const key = keyOf(input as ApiKeyInput);
      if (typeof key !== 'string' || key.length < API_KEY_MIN_LENGTH || /\s/.test(key)) {
        // The position, never the key: this message reaches logs.
        throw new CompanionConfigError(
          `Invalid API keys: key #${i + 1} must have at least ${API_KEY_MIN_LENGTH} characters and no whitespace.`,
        );
      }
      const scopes = typeof input === 'string' ? unscoped : (input as { scopes: unknown }).scopes;
      const problem = scopesProblem(scopes);
      if (problem) throw new CompanionConfigError(`Invalid API keys: key #${i + 1}: ${problem}.`);
      const hash = hashSecret(key);
      const held = byHash.get(hash) ?? new Set<ApiKeyScope>();
      for (const scope of scopes as ApiKeyScope[]) held.add(scope);
      byHash.set(hash, held);
    });
    return new ApiKeyring([...byHash].map(([hash, scopes]) => ({ hash, scopes: API_KEY_SCOPES.filter((s) => scopes.has(s)) })));
  }

  /** How many distinct keys are accepted. */
  get size(): number {
    return this.#entries.length;
  }

  /** Whether `presented` is one of the keys; the same work whichever key matches, or none. */
  matches(presented: string | undefined): boolean {
    return this.scopesOf(presented) !== undefined;
  }

  /** The scopes of `presented`, or undefined when it is none of the keys; the same work whichever key matches, or none. */
  scopesOf(presented: string | undefined): readonly ApiKeyScope[] | undefined {
    let found: readonly ApiKeyScope[] | undefined;
    for (const entry of this.#entries) {
      // keyMatches runs on every entry: no early exit once one matched.
      const match = keyMatches(presented, entry.hash);
      found = match ? entry.scopes : found;
    }
    return found;
  }
}

export interface RequireApiKeyOptions {
  /** The scope the guarded routes need (absent: any valid key); a valid key without it gets 403 `forbidden`. */
  scope?: ApiKeyScope;
  /** The admin key, accepted besides the keyring's with the scopes `admin` and `reports` (ADMIN_KEY_SCOPES). */
  alsoAccept?: string;
}

const BACKEND_REALM = 'onboarding-backend';

/** `Authorization: Bearer <API key>` or 401 `unauthorized`; a key without `scope`, 403 `forbidden` naming the scope. */
export function requireApiKey(keyring: ApiKeyring, options: RequireApiKeyOptions = {}): MiddlewareHandler<CompanionEnv> {
  if (!(keyring instanceof ApiKeyring)) throw new TypeError('requireApiKey needs an ApiKeyring (ApiKeyring.from(keys)).');
  const { scope, alsoAccept: extra } = options;
  if (extra !== undefined && !extra) throw new TypeError('requireApiKey: alsoAccept must be a non-empty key when given.');
  if (scope !== undefined && !isApiKeyScope(scope))
    throw new TypeError(`requireApiKey: unknown scope (known: ${API_KEY_SCOPES.join(', ')}).`);
  return async (c, next) => {
    const presented = bearer(requestHeader(c, 'authorization'));
    const ringScopes = keyring.scopesOf(presented);
    // Compared even when the ring matched, so the admin key costs the same as any other key.
    const isExtra = extra !== undefined && secretEquals(presented, extra);
    const scopes = ringScopes ?? (isExtra ? ADMIN_KEY_SCOPES : undefined);
    if (!scopes) {
      throw httpError('unauthorized', 'A valid API key is required (Authorization: Bearer <API key>).', {
        realm: BACKEND_REALM,
      });
    }
    if (scope !== undefined && !scopes.includes(scope)) {
      // The scope, never the key: the caller knows which key it sent, a log reader must not.
      throw httpError('forbidden', `This API key does not have the scope "${scope}" this route needs.`);
    }
    await next();
  };
}
