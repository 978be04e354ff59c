/**
 * The support code a person reads aloud over the phone (docs/backend-api.md#support-codes): eight
 * characters in two groups of four, `K7QM-4XPD`, in Crockford's base 32 (digits and capitals
 * without I, L, O and U, so that no two of them look or sound alike). It stands for the first 40
 * bits of an id: a session's (`ses_` and 32 hex digits) under a session, else the onboarding's
 * token. Support finds the session with `GET /v1/sessions?supportCode=`, the companion reading
 * the code back into the start of the session id.
 */

/** Crockford's base 32: what a code is written in. */
export const SUPPORT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Hex digits a code stands for: 10 of them, 40 bits, 8 characters of 5 bits. */
const HEX_DIGITS = 10;
const CODE_LENGTH = 8;
const GROUP = 4;

/** The 10 hex digits an id starts with once its kind prefix (`ses_`) and hyphens are set aside. */
function leadingHex(id: string): string | null {
  const digits = id
    .replace(/^[a-z]+_/, '')
    .replace(/-/g, '')
    .toLowerCase();
  return /^[0-9a-f]{10}/.test(digits) ? digits.slice(0, HEX_DIGITS) : null;
}

/**
 * 40 bits of an id that does not start with hex digits (an upstream's token of another shape),
 * as 10 hex digits: a djb2 hash kept below 2^40, exact in a double.
 */
function hashedHex(id: string): string {
  let h = 5381;
  for (let i = 0; i < id.length; i++) h = (h * 33 + id.charCodeAt(i)) % 2 ** 40;
  return h.toString(16).padStart(HEX_DIGITS, '0');
}

/** `K7QM-4XPD`: the code of a session id (or of an onboarding's token, without a session). */
export function supportCodeOf(id: string): string {
  // 40 bits are exact in a double: no BigInt, which older engines the element runs in lack.
  let bits = parseInt(leadingHex(id) ?? hashedHex(id), 16);
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) {
    code = SUPPORT_CODE_ALPHABET[bits % 32]! + code;
    bits = Math.floor(bits / 32);
  }
  return `${code.slice(0, GROUP)}-${code.slice(GROUP)}`;
}

/**
 * The start of the session id a code stands for (`ses_` and 10 hex digits), or null when it is
 * not a code. Read as a person types what they heard: any case, spaces and hyphens anywhere, O
 * for 0, I and L for 1.
 */
export function sessionIdPrefixOf(code: string): string | null {
  const chars = code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (chars.length !== CODE_LENGTH) return null;
  let bits = 0;
  for (const c of chars) {
    const value = SUPPORT_CODE_ALPHABET.indexOf(c);
    if (value < 0) return null;
    bits = bits * 32 + value;
  }
  return `ses_${bits.toString(16).padStart(HEX_DIGITS, '0')}`;
}
