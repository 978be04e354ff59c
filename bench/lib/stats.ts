/** Small statistics and formatting helpers shared by every section. */

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0..100) of a non-empty sample; NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function ms(value: number, digits?: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const size = Math.abs(value);
  const d = digits ?? (size < 0.1 ? 3 : size < 10 ? 2 : size < 100 ? 1 : 0);
  return `${value.toFixed(d)} ms`;
}

export function kb(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a';
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function mb(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a';
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `value / baseline` as `1.23x`; n/a when either side is not a positive number. */
export function ratio(value: number, baseline: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline <= 0) return 'n/a';
  return `${(value / baseline).toFixed(2)}x`;
}

export function perSecond(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)}/s` : 'n/a';
}

export const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The message of anything thrown, on one line. */
export function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 300);
}
