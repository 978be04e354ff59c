/**
 * The Node request and response behind a Hono context, as @hono/node-server binds them
 * (`c.env.incoming`, `c.env.outgoing`): the one place that reads them. Under another adapter or
 * runtime, or through `app.request()`, there are none, and the callers fall back on the web
 * Request.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

type NodeEnv = { incoming?: unknown; outgoing?: unknown } | undefined;

export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as NodeEnv)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

export function nodeOutgoing(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as NodeEnv)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}

/** The socket's remote address under @hono/node-server, else `unknown`. Proxies' headers are not trusted. */
export function socketAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
