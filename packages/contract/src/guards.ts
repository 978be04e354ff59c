/** Checks of unknown JSON shared by the parsers; internal to the contract (not re-exported). */
import type { Validation } from './page-api.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** A member at fault, as `invalid_field` naming it (`field`) at the start of the message. */
export const refuseField = (field: string, message: string): Validation<never> => ({
  ok: false,
  status: 400,
  error: { code: 'invalid_field', message: `${field} ${message}`, field },
});

/** The first member of `value` outside `known`, as a refusal saying it is no member of `what`; null when every member is known. */
export function unknownMember(
  value: Record<string, unknown>,
  known: readonly string[],
  field: string,
  what: string,
): Validation<never> | null {
  const extra = Object.keys(value).find((k) => !known.includes(k));
  return extra === undefined ? null : refuseField(`${field}.${extra.slice(0, 40)}`, `is not a member of ${what}.`);
}
