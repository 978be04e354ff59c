/**
 * One request header, read without copying the others. On Node, `c.req.header(name)` for a header
 * Node itself keeps only once (`authorization`, `content-type`, `user-agent` and a few more) goes
 * to @hono/node-server's lookup of the raw list, which first copies the whole list; an event
 * stream would then hold every header of its request as long as it stays open, even after Node's
 * own copy is let go (serve.ts). Here the raw list is read where it lies, with the Fetch API's
 * answer: every occurrence, trimmed and joined by ", ".
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { nodeIncoming } from './node-bindings.js';

const EDGE_SPACE = /^[\t ]+|[\t ]+$/g;

/**
 * The Node request behind each web Request that `listen()` (serve.ts) hands to the app. Only an
 * exact match counts: a host that wraps the companion and passes on a Request of its own (other
 * headers, a rewritten Authorization) is read through that Request, never through Node's list.
 */
const nodeRequests = new WeakMap<Request, IncomingMessage>();

/** Called by the server: `req` is node-server's Request for `incoming`, unchanged. */
export function noteNodeRequest(req: Request, incoming: IncomingMessage): void {
  nodeRequests.set(req, incoming);
}

/** Whether `c` is a request `listen()` handed over, its own Node request in the bindings. */
export function isNodeRequest(c: Context): boolean {
  const incoming = nodeRequests.get(c.req.raw);
  return incoming !== undefined && incoming === nodeIncoming(c);
}

/** The value of the request header `lowerName` (lower case), or undefined when it was not sent. */
export function requestHeader(c: Context, lowerName: string): string | undefined {
  const incoming = nodeRequests.get(c.req.raw);
  if (!incoming) return c.req.header(lowerName);
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    const v = raw[i + 1]!.replace(EDGE_SPACE, '');
    value = value === undefined ? v : `${value}, ${v}`;
  }
  return value;
}
