/**
 * The members of `POST /v1/sessions` that choose what a session runs beyond the capture: its
 * instant checks, the document prefill and its optional steps (docs/backend-api.md#checks).
 */
import type { ApiErrorCode } from './errors.js';
import type { Validation } from './page-api.js';
import { SESSION_CHECKS, SESSION_STEPS, type SessionCheck, type SessionStep } from './session-checks.js';

/** What a session asks for beyond the capture; each member present only when asked for. */
export interface ValidSessionOptions {
  checks?: SessionCheck[];
  prefillFromDocument?: true;
  steps?: SessionStep[];
}

const fail = (code: ApiErrorCode, message: string, field: string): Validation<never> => ({
  ok: false,
  status: 400,
  error: { code, message, field },
});

/** A non-empty list of names from `allowed`, repeats folded, in the order first given. */
function namesOf<T extends string>(value: unknown, allowed: readonly T[], field: string): Validation<T[] | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const message = `${field} must be a non-empty list of ${allowed.join(', ')}.`;
  if (!Array.isArray(value) || value.length < 1 || value.length > allowed.length * 4) return fail('invalid_field', message, field);
  for (const name of value) if (!(allowed as readonly unknown[]).includes(name)) return fail('invalid_field', message, field);
  return { ok: true, value: [...new Set(value as T[])] };
}

/** `checks`, `prefillFromDocument` and `steps` of a session body; every refusal names its field. */
export function sessionOptionsOf(b: Record<string, unknown>): Validation<ValidSessionOptions> {
  const checks = namesOf(b.checks, SESSION_CHECKS, 'checks');
  if (!checks.ok) return checks;
  const steps = namesOf(b.steps, SESSION_STEPS, 'steps');
  if (!steps.ok) return steps;
  const prefill = b.prefillFromDocument;
  if (prefill !== undefined && typeof prefill !== 'boolean')
    return fail('invalid_field', 'prefillFromDocument must be true or false.', 'prefillFromDocument');
  // The prefill is what the OCR reads: without the OCR check there is nothing to offer.
  if (prefill && !checks.value?.includes('ocr'))
    return fail('invalid_field', 'prefillFromDocument needs "ocr" in checks: the prefill is what the OCR reads.', 'prefillFromDocument');
  return {
    ok: true,
    value: {
      ...(checks.value && { checks: checks.value }),
      ...(prefill && { prefillFromDocument: true as const }),
      ...(steps.value && { steps: steps.value }),
    },
  };
}
