/** The error collector's source (collect-errors.js) and how a driver reads it back. */
import { readFileSync } from 'node:fs';
import type { PageErrors } from './types.js';

export const COLLECTOR_SOURCE = readFileSync(new URL('./collect-errors.js', import.meta.url), 'utf8');

/** In-page: what the collector saw; a page without it says so instead of looking clean. */
export function readCollected(): PageErrors {
  const c = (window as unknown as { __collected?: PageErrors }).__collected;
  return c
    ? { errors: [...c.errors], console: [...c.console], csp: [...c.csp] }
    : { errors: ['(no error collector in this page)'], console: [], csp: [] };
}

/** Merges the collector's record with what the engine itself reported (without repeats). */
export function mergeErrors(collected: PageErrors, engineErrors: string[]): PageErrors {
  return { ...collected, errors: [...collected.errors, ...engineErrors.filter((e) => !collected.errors.some((c) => c.includes(e)))] };
}
