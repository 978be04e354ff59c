/**
 * The companion base URL as integrators write it (`https://api.example.com`, `.../v1`, `.../v1/`,
 * or a same-origin path such as `/kyc`) normalised to one form ending in `/v1` without a slash.
 */
export function normalizeEndpoint(endpoint: string): string {
  const trimmed = endpoint.trim().replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}
