/** The password of encrypted evidence archives: the rules (./passphrase-rules.ts) as the companion's refusal, and a generated one. */
import { randomBytes } from 'node:crypto';
import { httpError } from '../http/companion-error.js';
import { chosenPassphraseRule, generatePassphrase, PASSPHRASE_RULE_TEXT } from './passphrase-rules.js';

export {
  MAX_PASSPHRASE_LENGTH as MAX_EVIDENCE_PASSWORD_LENGTH,
  MIN_CHOSEN_PASSPHRASE_LENGTH as MIN_EVIDENCE_PASSWORD_LENGTH,
} from './passphrase-rules.js';

/**
 * Throws a 400 `invalid_password` `CompanionError` (field `password`) unless `password` passes
 * the rules of chosen passphrases; nothing is produced then. The message names the rule broken
 * and never repeats the password.
 */
export function assertEvidencePassword(password: unknown): asserts password is string {
  const rule = chosenPassphraseRule(password);
  if (rule) throw httpError('invalid_password', PASSPHRASE_RULE_TEXT[rule], { field: 'password' });
}

/** A new passphrase from the operating system's CSPRNG (24 characters, 120 bits). */
export function newEvidencePassword(): string {
  return generatePassphrase((n) => randomBytes(n));
}
