/**
 * Whether an upstream access token can be had, for `GET /v1/ready`: one check at a time, its
 * result reused for a while, so that however often the route is called the upstream's token
 * route sees at most one request per period (a held token costs it nothing at all).
 */
import type { Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

/** `ok`: a token is held or was obtained; `failed`: obtaining one failed; `timeout`: still trying; `unchecked`: the client cannot tell. */
export type UpstreamCheck = 'ok' | 'failed' | 'timeout' | 'unchecked';

export interface UpstreamReadinessOptions {
  upstream: Pick<UpstreamClient, 'accessToken'>;
  /** How long a finished check's result is reused. */
  cacheMs: number;
  /** How long a caller waits for a check under way before hearing `timeout`. */
  waitMs: number;
  logger: Logger;
  now?: () => number;
}

export class UpstreamReadiness {
  #last: { result: 'ok' | 'failed'; at: number } | undefined;
  #running: Promise<'ok' | 'failed'> | undefined;
  readonly #now: () => number;

  constructor(private readonly options: UpstreamReadinessOptions) {
    this.#now = options.now ?? Date.now;
  }

  async check(): Promise<UpstreamCheck> {
    const { upstream, cacheMs, waitMs } = this.options;
    if (!upstream.accessToken) return 'unchecked';
    if (this.#last && this.#now() - this.#last.at < cacheMs) return this.#last.result;
    this.#running ??= this.#run(upstream.accessToken.bind(upstream));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), waitMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([this.#running, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(accessToken: () => Promise<string>): Promise<'ok' | 'failed'> {
    let result: 'ok' | 'failed';
    try {
      await accessToken();
      result = 'ok';
    } catch (error) {
      this.options.logger.warn('ready: no upstream access token could be obtained', { error });
      result = 'failed';
    }
    this.#last = { result, at: this.#now() };
    this.#running = undefined;
    return result;
  }
}
