/** The store's own errors, typed so the routes can tell "try again later" from a bug. */

/**
 * The store did not answer (connection refused or lost, timeout, locked or unwritable file, store
 * closed). The operation may or may not have been applied: a Redis command that timed out here
 * can still run once Redis answers, and a lost connection may have carried it before it broke.
 * Callers treat the outcome as unknown and rely only on what is safe to repeat: a status update
 * or a lease operation repeated changes nothing more; a rate-limit request may be counted twice,
 * which only errs towards refusing. Routes answer 503 `store_unavailable`.
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

/**
 * Stored personal data that this store cannot open: sealed with a data key it was not given, or
 * with a key of that id whose bytes differ (or the stored value was altered). The message names
 * the key id and the record, never the data.
 */
export class DataKeyError extends Error {
  override readonly name = 'DataKeyError';
  readonly code = 'data_key';

  constructor(
    message: string,
    readonly keyId: string | null,
  ) {
    super(message);
  }
}
