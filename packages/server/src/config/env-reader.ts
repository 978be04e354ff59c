/**
 * How the `ONBOARDING_*` variables are read (config/env-config.ts says which exist): blank
 * values unset, numbers, flags, words and lists checked, every problem collected rather than
 * thrown, and a secret's problem told by its place and length, never its value.
 */
import { OPTION_LIMITS } from './defaults.js';

/**
 * Who reads the variables: `companion` (the bin) runs the companion alone, `demo` (`npm start`)
 * adds the demo's pages, an API key and a notification receiver of its own, and the embedded
 * sandbox whenever no upstream is named.
 */
export type EnvRunner = 'companion' | 'demo';

/** The environment's variables, blank ones unset, and the errors found while reading them. */
export interface Reader {
  runner: EnvRunner;
  errors: string[];
  get(name: string): string | undefined;
  integer(name: string, fallback: number, min: number, max: number): number;
}

export function reader(env: Readonly<Record<string, string | undefined>>, runner: EnvRunner): Reader {
  const errors: string[] = [];
  const get = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
      errors.push(`${name} must be a whole number from ${min} to ${max} (got "${raw.slice(0, 40)}").`);
      return fallback;
    }
    return n;
  };
  return { runner, errors, get, integer };
}

/** A comma-separated list of keys or secrets. Its messages never quote one: they count and measure instead. */
export function readSecrets({ errors, get }: Reader, name: string, noun: 'key' | 'secret'): string[] {
  const values = list(get(name));
  values.forEach((value, i) => {
    const which = values.length > 1 ? `${noun} ${i + 1} of ${values.length}` : `the ${noun}`;
    if (/\s/.test(value)) errors.push(`${name}: ${which} contains a space; separate ${noun}s with commas only.`);
    else if (value.length < OPTION_LIMITS.secretMinLength)
      errors.push(
        `${name}: ${which} has ${value.length} characters; each needs at least ${OPTION_LIMITS.secretMinLength} (use a long random value).`,
      );
  });
  return values;
}

/** A comma-separated list, entries trimmed, empty ones (a trailing comma) dropped. */
export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A yes/no variable: `1` or `true` for yes, unset, `0` or `false` for no. */
export function readFlag({ errors, get }: Reader, name: string): boolean {
  const raw = get(name)?.toLowerCase();
  if (raw === undefined || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  errors.push(`${name} must be 1 or 0 (got "${raw.slice(0, 20)}").`);
  return false;
}

/** One of a few words, or its default when unset. */
export function readChoice<T extends string>({ errors, get }: Reader, name: string, choices: readonly T[], fallback: T): T {
  const raw = get(name);
  if (raw === undefined) return fallback;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  errors.push(`${name} must be ${choices.map((c) => `"${c}"`).join(', ')} (got "${raw.slice(0, 20)}").`);
  return fallback;
}
