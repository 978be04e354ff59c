/**
 * Hears a client go away before its answer is complete. On Node (the request's `outgoing` in the
 * bindings) through the response's own `close`, as @hono/node-server itself decides that a request
 * was aborted: an `AbortController` and its signal, made for every waiting creation only to be
 * listened to, cost more than the wait they watch. Elsewhere through the web Request's signal.
 */
import type { Context } from 'hono';
import { nodeIncoming, nodeOutgoing } from './node-bindings.js';

/** Calls `gone` once if the client goes away; returns what stops listening. */
export type ClientGone = (gone: () => void) => () => void;

const NOTHING = () => {};

export function clientGone(c: Context): ClientGone {
  return (gone) => {
    const outgoing = nodeOutgoing(c);
    if (outgoing) {
      // Closed before its answer was written out: the client's doing (a finished answer closes too).
      const onClose = () => {
        if (!outgoing.writableFinished) gone();
      };
      if (outgoing.closed) {
        onClose();
        return NOTHING;
      }
      outgoing.once('close', onClose);
      return () => outgoing.off('close', onClose);
    }
    const signal = c.req.raw.signal;
    if (signal.aborted) {
      gone();
      return NOTHING;
    }
    signal.addEventListener('abort', gone, { once: true });
    return () => signal.removeEventListener('abort', gone);
  };
}

/**
 * The request's client closed the connection before its answer was complete. On Node it is read
 * from the connection itself (node-server aborts the request's signal on the same condition):
 * asking for the signal would make node-server build an AbortController for every request, about
 * 0.5 KB held for as long as the request lives (an event stream: as long as the page watches).
 */
export function isClientAbort(c: Context): boolean {
  const incoming = nodeIncoming(c);
  const outgoing = nodeOutgoing(c);
  if (incoming && outgoing) return incoming.errored != null || (outgoing.destroyed && !outgoing.writableFinished);
  return c.req.raw.signal?.aborted === true;
}
