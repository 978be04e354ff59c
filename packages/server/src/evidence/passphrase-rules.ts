/**
 * What makes an evidence passphrase strong enough, as pure functions. Zip AES derives its key with
 * PBKDF2-HMAC-SHA1 at 1,000 rounds, so a guess costs an attacker almost nothing: the passphrase's
 * own unpredictability is the whole protection. A generated one is the default; a chosen one is
 * held to a length and to a rough estimate of its entropy that refuses the usual human shapes
 * (one character repeated, a sequence, a keyboard row, a word with digits after it).
 */

/** Shortest chosen passphrase (characters, counted as code points). */
export const MIN_CHOSEN_PASSPHRASE_LENGTH = 16;
/** Longest passphrase accepted: far beyond any passphrase, short enough that nobody can abuse it. */
export const MAX_PASSPHRASE_LENGTH = 1024;
/** Characters of a generated passphrase: 24 from 32 symbols is 120 bits. */
export const GENERATED_PASSPHRASE_LENGTH = 24;
/** What a chosen passphrase must be estimated to hold, in bits. */
export const MIN_PASSPHRASE_BITS = 60;

/** 32 symbols (a power of two: a random byte maps onto them without bias), without l, o, 0 and 1, which read alike. */
const GENERATED_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Runs a person types without thinking: each step along one of these (either way) adds nothing. */
const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];

/** The rule a passphrase breaks; the refusal names it and never repeats the passphrase. */
export type PassphraseRule = 'not-a-string' | 'too-short' | 'too-long' | 'repeated' | 'sequence' | 'word-and-digits' | 'low-entropy';

export const PASSPHRASE_RULE_TEXT: Record<PassphraseRule, string> = {
  'not-a-string': 'password must be a string.',
  'too-short': `password must have at least ${MIN_CHOSEN_PASSPHRASE_LENGTH} characters.`,
  'too-long': `password must have at most ${MAX_PASSPHRASE_LENGTH} characters.`,
  repeated: 'password must not be one character or one short pattern repeated.',
  sequence: 'password must not be a sequence or a keyboard row (abcd, 1234, qwerty).',
  'word-and-digits': 'password must not be one word with digits or symbols around it.',
  'low-entropy': `password is too predictable (estimated under ${MIN_PASSPHRASE_BITS} bits): use more, and more varied, characters, or let the companion generate one.`,
};

/** Whether `b` follows `a` along one of the SEQUENCES, either way. */
function steps(a: string, b: string): boolean {
  for (const s of SEQUENCES) {
    const i = s.indexOf(a);
    if (i >= 0 && (s[i + 1] === b || (i > 0 && s[i - 1] === b))) return true;
  }
  return false;
}

/** How many symbols a character of its class could have been: an uppercase letter is no likelier than a lowercase one. */
function classSize(c: string): number {
  if (/[a-zA-Z]/.test(c)) return 26;
  if (/[0-9]/.test(c)) return 10;
  if (/[\x20-\x7e]/.test(c)) return 33;
  return 100;
}

/**
 * A rough lower estimate of the passphrase's entropy, in bits: each character that is neither the
 * previous one again, nor a step along a sequence from it, nor the end of a pair already seen
 * counts log2 of its class's size. A pattern repeated, a sequence or a row count once.
 */
export function estimatePassphraseBits(passphrase: string): number {
  const chars = [...passphrase];
  const folded = chars.map((c) => c.toLowerCase());
  const pairs = new Set<string>();
  let bits = 0;
  for (let i = 0; i < folded.length; i++) {
    const c = folded[i]!;
    const prev = folded[i - 1];
    const pair = `${prev ?? ''}\u0000${c}`;
    const predictable = prev !== undefined && (c === prev || steps(prev, c) || pairs.has(pair));
    pairs.add(pair);
    if (!predictable) bits += Math.log2(classSize(chars[i]!));
  }
  return bits;
}

/** At most this many distinct characters, whatever the length, is one character or a short pattern repeated. */
const FEW_DISTINCT = 5;

/** The passphrase is a short unit (at most half of it) repeated, or holds few distinct characters. */
function isRepeated(folded: string): boolean {
  const chars = [...folded];
  if (new Set(chars).size <= FEW_DISTINCT) return true;
  for (let unit = 1; unit <= chars.length / 2; unit++) {
    if (chars.every((c, i) => c === chars[i % unit])) return true;
  }
  return false;
}

/** Most of the passphrase walks one sequence or row (steps along SEQUENCES). */
function isSequence(folded: string): boolean {
  const chars = [...folded];
  let walked = 0;
  for (let i = 1; i < chars.length; i++) if (steps(chars[i - 1]!, chars[i]!)) walked++;
  return walked >= (chars.length - 1) / 2;
}

/** One run of letters of a single word's length, with only digits and symbols before or after it. */
function isWordAndDigits(passphrase: string): boolean {
  const m = /^[^\p{L}]*(\p{L}+)[^\p{L}]*$/u.exec(passphrase);
  return m !== null && [...m[1]!].length <= 14;
}

/**
 * The first rule a chosen passphrase breaks, or null when it may encrypt an archive: a string of
 * 16 to 1024 characters that is not a repetition, a sequence, a word with digits, and is estimated
 * to hold at least MIN_PASSPHRASE_BITS.
 */
export function chosenPassphraseRule(passphrase: unknown): PassphraseRule | null {
  if (typeof passphrase !== 'string') return 'not-a-string';
  const length = [...passphrase].length;
  if (length < MIN_CHOSEN_PASSPHRASE_LENGTH) return 'too-short';
  if (length > MAX_PASSPHRASE_LENGTH) return 'too-long';
  const folded = passphrase.toLowerCase();
  if (isRepeated(folded)) return 'repeated';
  if (isSequence(folded)) return 'sequence';
  if (isWordAndDigits(passphrase)) return 'word-and-digits';
  if (estimatePassphraseBits(passphrase) < MIN_PASSPHRASE_BITS) return 'low-entropy';
  return null;
}

/**
 * A passphrase of GENERATED_PASSPHRASE_LENGTH symbols from `randomBytes` (a CSPRNG in the
 * companion), drawn again in the vanishingly rare case the draw breaks a rule of chosen ones, so
 * every passphrase an archive gets passes them.
 */
export function generatePassphrase(randomBytes: (n: number) => Uint8Array): string {
  for (;;) {
    const bytes = randomBytes(GENERATED_PASSPHRASE_LENGTH);
    let out = '';
    for (const b of bytes) out += GENERATED_ALPHABET[b % GENERATED_ALPHABET.length];
    if (chosenPassphraseRule(out) === null) return out;
  }
}
