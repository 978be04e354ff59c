/**
 * The onboarding a page waits for, kept in `sessionStorage` so that a reload picks the wait up
 * again: where it is kept, reading it back (expired or foreign entries dropped) and forgetting it.
 * Storage may be refused at any point (privacy settings, sandboxed frame): every access here
 * treats that as "nothing kept".
 */

/**
 * What survives a reload while the outcome is awaited: enough to read the status, nothing of
 * what the person sent (no image, no CPF) and never the session's secret.
 */
export interface KeptOnboarding {
  tokenOnboarding: string;
  accessKey: string;
  endpoint: string;
  /** When the companion answered the creation (ms since the epoch). */
  savedAt: number;
}

/** The companion follows an onboarding for 48 h; a page reloaded later has nothing left to wait for. */
const KEPT_FOR_MS = 48 * 60 * 60_000;

/**
 * Where a page keeps the onboarding it waits for: one key per endpoint and session. The session
 * enters only as a hash, so that its secret is written nowhere.
 */
export function resumeKeyFor(endpoint: string, secret: string): string | null {
  if (!endpoint) return null;
  let h = 0x811c9dc5;
  for (let i = 0; i < secret.length; i++) h = Math.imul(h ^ secret.charCodeAt(i), 0x01000193);
  return `onboarding-kit:${endpoint}:${secret ? (h >>> 0).toString(36) : '-'}`;
}

/** The onboarding kept under `key`, unless it is malformed, expired or for another endpoint. */
export function readKept(key: string, endpoint: string, nowMs = Date.now()): KeptOnboarding | null {
  let kept: Partial<KeptOnboarding> | null = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Partial<KeptOnboarding> | null;
  } catch {
    // Storage refused (privacy settings, sandboxed frame) or garbage in it: nothing to resume.
  }
  const { tokenOnboarding, accessKey, savedAt } = kept ?? {};
  if (
    typeof tokenOnboarding === 'string' &&
    typeof accessKey === 'string' &&
    typeof savedAt === 'number' &&
    kept?.endpoint === endpoint &&
    nowMs - savedAt < KEPT_FOR_MS
  ) {
    return { tokenOnboarding, accessKey, endpoint, savedAt };
  }
  if (kept) forget(key);
  return null;
}

/** Writes the onboarding under `key`; false when storage refused it. */
export function storeKept(key: string, kept: KeptOnboarding): boolean {
  try {
    sessionStorage.setItem(key, JSON.stringify(kept));
    return true;
  } catch {
    // Storage refused or full: the wait goes on, only a reload cannot pick it up.
    return false;
  }
}

/** Drops what is kept under `key`. */
export function forget(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing could be stored either.
  }
}
