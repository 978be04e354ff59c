/** What `createUpstreamClient` takes: where the upstream is, its credentials, and how calls are timed and retried. */
import type { Logger } from '../logger.js';
import type { AliasMap } from '@onboarding-kit/contract';

export interface UpstreamClientOptions {
  /** `{base_url}` of the environment, without trailing slash (a trailing one is tolerated). */
  baseUrl: string;
  client: string;
  secret: string;
  /** Per-product call aliases (e.g. `{ SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' }`). */
  aliases?: AliasMap;
  /** Time limit of each JSON call, answer body included (default 15 s). */
  timeoutMs?: number;
  /** Time limit of a whole PDF download (default 60 s). */
  pdfTimeoutMs?: number;
  /** Extra attempts for calls that are safe to repeat (default 2). */
  retries?: number;
  /** First backoff delay; doubles per attempt (default 250 ms). */
  retryDelayMs?: number;
  /** Renew the access token this long before it expires (default 30 s, at most a tenth of its life). */
  renewEarlyMs?: number;
  /** The clock the token lifetime is counted on (default `Date.now`; tests move it). */
  now?: () => number;
  /** Calls go through this `fetch` when given; by default through node:http(s) with keep-alive sockets. */
  fetch?: typeof fetch;
  logger?: Logger;
}
