/**
 * Removes what the upstream says is not part of the contract (docs/upstream-api.md#response-envelope):
 * internal metadata fields and nulls, at any depth. Clients must never rely on them, so they never
 * leave the kit (docs/upstream-api.md, rule 6).
 */

export const NON_CONTRACT_FIELDS: ReadonlySet<string> = new Set([
  'fieldsOutput',
  'required',
  'enabled',
  'valid',
  'callService',
  'nextStep',
  'services',
]);

/** A deep copy of `value` without non-contract fields and without nulls. */
export function stripNonContract<T>(value: T): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(strip);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === null || v === undefined || NON_CONTRACT_FIELDS.has(key)) continue;
      out[key] = strip(v);
    }
    return out;
  }
  return value;
}

/**
 * The onboarding report (docs/upstream-api.md#onboarding-report) with non-contract fields and nulls
 * removed as `stripNonContract` does, except its own top-level `services` member, kept exactly as
 * the upstream sent it: in a service envelope `services` is internal metadata, but the report
 * names it as one of its four members. Its inside is not shown, so nothing in it is read or removed.
 */
export function stripReport<T>(report: T): T {
  const stripped = strip(report);
  if (!report || typeof report !== 'object' || Array.isArray(report) || !stripped || typeof stripped !== 'object') return stripped as T;
  const services = (report as Record<string, unknown>).services;
  return (services === undefined || services === null ? stripped : { ...stripped, services }) as T;
}
