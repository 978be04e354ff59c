/** The password rule of encrypted evidence archives. */
import { httpError } from '../http/companion-error.js';

/** Shortest password accepted for an encrypted archive (characters, counted as code points). */
export const MIN_EVIDENCE_PASSWORD_LENGTH = 12;
/** Longest password accepted: far beyond any passphrase, short enough that nobody can abuse it. */
export const MAX_EVIDENCE_PASSWORD_LENGTH = 1024;

const refuse = (message: string) => httpError('invalid_password', message, { field: 'password' });

/**
 * Throws a 400 `invalid_password` `CompanionError` (field `password`) unless `password` is a
 * string of 12 to 1024 characters; nothing is produced then. The message never repeats the password.
 */
export function assertEvidencePassword(password: unknown): asserts password is string {
  if (typeof password !== 'string') throw refuse('password must be a string.');
  const length = [...password].length;
  if (length < MIN_EVIDENCE_PASSWORD_LENGTH) throw refuse(`password must have at least ${MIN_EVIDENCE_PASSWORD_LENGTH} characters.`);
  if (length > MAX_EVIDENCE_PASSWORD_LENGTH) throw refuse(`password must have at most ${MAX_EVIDENCE_PASSWORD_LENGTH} characters.`);
}
