/** ISO 8601 times as the stores index them (ms since the epoch). */
export function msOf(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new TypeError(`Not an ISO 8601 time: ${iso}`);
  return ms;
}
