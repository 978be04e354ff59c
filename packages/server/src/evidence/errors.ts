/** Errors of the evidence archive that callers map to a client error (the admin route answers 400). */

/** Shortest password accepted for an encrypted archive (characters, counted as code points). */
export const MIN_EVIDENCE_PASSWORD_LENGTH = 12;
/** Longest password accepted: far beyond any passphrase, short enough that nobody can abuse it. */
export const MAX_EVIDENCE_PASSWORD_LENGTH = 1024;

/** The password given for an encrypted archive is unusable; nothing was produced. */
export class EvidencePasswordError extends Error {
  override readonly name = 'EvidencePasswordError';
  readonly code = 'invalid_password';
  readonly field = 'password';
}

/**
 * Throws {@link EvidencePasswordError} unless `password` is a string of 12 to 1024 characters.
 * The message never repeats the password.
 */
export function assertEvidencePassword(password: unknown): asserts password is string {
  if (typeof password !== 'string') throw new EvidencePasswordError('password must be a string.');
  const length = [...password].length;
  if (length < MIN_EVIDENCE_PASSWORD_LENGTH) {
    throw new EvidencePasswordError(`password must have at least ${MIN_EVIDENCE_PASSWORD_LENGTH} characters.`);
  }
  if (length > MAX_EVIDENCE_PASSWORD_LENGTH) {
    throw new EvidencePasswordError(`password must have at most ${MAX_EVIDENCE_PASSWORD_LENGTH} characters.`);
  }
}
