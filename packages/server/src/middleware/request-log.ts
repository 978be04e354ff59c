/**
 * One structured line per request: method, path, status, duration, request id, and what its route
 * adds (a creation's onboarding, masked tax id and session: `addToRequestLine`). The hosted pages'
 * paths carry a secret (a session's capture token, a hand-off link's token): those segments are
 * logged as `:token`, never as they came. A request
 * whose client went away before its answer was complete is an info line marked `clientAbort`,
 * whatever the status: the client's doing, not a server error.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { LogFields, Logger } from '../logger.js';
import type { CompanionEnv } from '../http/env.js';
import { isClientAbort } from '../transport/index.js';

export function requestLog(logger: Logger): MiddlewareHandler<CompanionEnv> {
  return async (c, next) => {
    const started = Date.now();
    const log = logger.child({ requestId: c.get('requestId') });
    c.set('log', log);
    await next();
    logRequest(c, log, started);
  };
}

/** The request's line, once its answer is made (`started`: its `Date.now()` on arrival). */
export function logRequest(c: Context<CompanionEnv>, log: Logger, started: number): void {
  const status = c.res.status;
  const line = { method: c.req.method, path: redactPath(c.req.path), status, ms: Date.now() - started, ...c.get('requestLine') };
  if (isClientAbort(c)) log.info('request aborted by the client', { ...line, clientAbort: true });
  else if (status >= 500) log.error('request', line);
  else if (status >= 400) log.warn('request', line);
  else log.info('request', line);
}

/** Adds `fields` to the request's one log line, written once its answer is made. */
export function addToRequestLine(c: Context<CompanionEnv>, fields: LogFields): void {
  const line = c.get('requestLine');
  c.set('requestLine', line ? { ...line, ...fields } : fields);
}

/** `/capture/<token>` and `/h/<token>` (wherever the companion is mounted) as `/capture/:token` and `/h/:token`. */
export function redactPath(path: string): string {
  if (!path.includes('/capture/') && !path.includes('/h/')) return path;
  return path.replace(/\/capture\/(?!(?:assets|element)\/)[^/]+/g, '/capture/:token').replace(/\/h\/[^/]+/g, '/h/:token');
}
