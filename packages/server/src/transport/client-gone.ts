/**
 * Hears a client go away before its answer is complete. On Node (the request's `outgoing` in the
 * bindings) through the response's own `close`, as @hono/node-server itself decides that a request
 * was aborted: an `AbortController` and its signal, made for every waiting creation only to be
 * listened to, cost more than the wait they watch. Elsewhere through the web Request's signal.
 */
import { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** Calls `gone` once if the client goes away; returns what stops listening. */
export type ClientGone = (gone: () => void) => () => void;

const NOTHING = () => {};

export function clientGone(c: Context): ClientGone {
  return (gone) => {
    const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    if (outgoing instanceof ServerResponse) {
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
