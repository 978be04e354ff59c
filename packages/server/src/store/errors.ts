/** The store's own errors, typed so the routes can tell "try again later" from a bug. */

/**
 * The store did not answer (connection refused or lost, timeout, locked or unwritable file, store
 * closed). Nothing was decided: the caller may retry later; routes answer 503 `store_unavailable`.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** `ONBOARDING_STORE` names no store this kit has, or its database is from a newer version of the kit. */
export class StoreConfigError extends Error {
  override readonly name = 'StoreConfigError';
}

export function isStoreUnavailable(e: unknown): e is StoreUnavailableError {
  return e instanceof StoreUnavailableError;
}
