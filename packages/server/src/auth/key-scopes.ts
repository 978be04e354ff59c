/**
 * What an API key may do (docs/backend-api.md#scopes): each key carries scopes, each backend route
 * group needs one, and a key is never more than its scopes. Pure rules, read by the options'
 * checks, the keyring and `npm start`'s configuration alike.
 */

/** `sessions`: /v1/sessions; `queries`: /v1/queries; `reports`: reports, PDFs and evidence; `admin`: the other admin routes. */
export const API_KEY_SCOPES = ['sessions', 'queries', 'reports', 'admin'] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key as the options take it: alone (the environment's default scopes) or with its scopes. */
export type ApiKeyInput = string | { key: string; scopes: readonly ApiKeyScope[] };

/** A key with its scopes settled. */
export interface ScopedApiKey {
  readonly key: string;
  readonly scopes: readonly ApiKeyScope[];
}

/** The operator's `adminKey` opens the admin routes and nothing of the backend's: sessions and paid queries stay with API keys. */
export const ADMIN_KEY_SCOPES: readonly ApiKeyScope[] = ['admin', 'reports'];

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** Why a list of scopes is not one, or null: at least one, each known. */
export function scopesProblem(scopes: unknown): string | null {
  if (!Array.isArray(scopes) || scopes.length === 0) return `at least one scope is needed (${API_KEY_SCOPES.join(', ')})`;
  const unknown = scopes.find((s) => !isApiKeyScope(s));
  // An unknown scope is quoted only when it looks like a scope word: it may be part of a key pasted in the wrong place.
  if (unknown !== undefined)
    return `unknown scope${typeof unknown === 'string' && /^[a-z]{1,20}$/.test(unknown) ? ` "${unknown}"` : ''} (known: ${API_KEY_SCOPES.join(', ')})`;
  return null;
}

/** Each input key with its scopes: those given, or `unscoped` for a key given alone. */
export function settleKeyScopes(keys: readonly ApiKeyInput[], unscoped: readonly ApiKeyScope[]): ScopedApiKey[] {
  return keys.map((k) => (typeof k === 'string' ? { key: k, scopes: unscoped } : { key: k.key, scopes: [...k.scopes] }));
}

/**
 * One entry of `ONBOARDING_API_KEYS`: `<key>` or `<key>:<scope>+<scope>`. Keys are base64 or
 * base64url, which have no `:`, so the last `:` ends the key. Never echoes the key.
 */
export function parseApiKeyEntry(entry: string): { ok: true; value: ApiKeyInput } | { ok: false; problem: string } {
  const at = entry.lastIndexOf(':');
  if (at < 0) return { ok: true, value: entry };
  const key = entry.slice(0, at);
  const scopes = entry.slice(at + 1).split('+');
  const problem = scopesProblem(scopes);
  return problem ? { ok: false, problem } : { ok: true, value: { key, scopes: scopes as ApiKeyScope[] } };
}

/** The key of an input, whatever its form. */
export function keyOf(input: ApiKeyInput): string {
  return typeof input === 'string' ? input : input?.key;
}
