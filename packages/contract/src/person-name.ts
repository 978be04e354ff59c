/**
 * What a person's name may be, wherever one is typed or sent (the element's name field, a
 * creation's `name`, a session's `name`): letters (any script, accents included), spaces and the
 * common marks names carry (full stop, comma, hyphen, apostrophes, brackets, slash), at most 200
 * characters. Digits and any other sign are refused, as the element's message says ("letters,
 * spaces and common marks").
 */
export const PERSON_NAME_MAX_LENGTH = 200;

const PERSON_NAME = /^[\p{L}\p{M} .,'’()/-]*$/u;

/** Whether `value` (already trimmed) is a name as the rule above allows; the empty string passes (the name is optional). */
export function isPersonName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= PERSON_NAME_MAX_LENGTH && PERSON_NAME.test(value);
}
