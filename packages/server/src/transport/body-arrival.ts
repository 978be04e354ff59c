/**
 * A creation joins the line for a turn only once its body is arriving (docs/page-api.md#limits-and-configuration):
 * its first window's worth of bytes (./body-pace.ts), or all of a smaller body, has reached this
 * process within one window of the request. Node's parser buffers a body nobody reads yet up to
 * the request's high-water mark (16 KiB) before it stops reading the socket, so the bytes are
 * seen without being read. An upload that stalls or trickles after its headers is refused there
 * with 408 and never holds a turn, nor a place in the line, that a genuine creation waits for.
 */
import type { Context } from 'hono';
import { httpError } from '../http/companion-error.js';
import { windowQuota, type BodyPace } from './body-pace.js';
import { nodeIncoming, nodeOutgoing } from './node-bindings.js';
import { requestHeader } from './request-header.js';

/** How often a body not arrived yet is looked at: a few per window, little beside a genuine upload's own time. */
const LOOK_EVERY_MS = 20;

/**
 * Resolves once the body is arriving; rejects with 408 `upload_too_slow` when it has not within
 * `pace.graceMs`, or with 499 when the client goes first. Off Node (no parser buffering to see)
 * it resolves at once and the pace is judged while the body is read.
 */
export function bodyArriving(c: Context, pace: BodyPace, what: string): Promise<void> {
  const incoming = nodeIncoming(c);
  if (!incoming) return Promise.resolve();
  const declared = Number(requestHeader(c, 'content-length') ?? NaN);
  const enough = Number.isFinite(declared) ? Math.min(declared, windowQuota(pace)) : windowQuota(pace);
  const arrived = () => incoming.complete || incoming.readableLength >= enough;
  if (arrived()) return Promise.resolve();
  const since = Date.now();
  return new Promise((resolve, reject) => {
    const look = setInterval(() => {
      if (arrived()) {
        clearInterval(look);
        return resolve();
      }
      if (incoming.destroyed) {
        clearInterval(look);
        return reject(httpError('client_closed_request'));
      }
      if (Date.now() - since < pace.graceMs) return;
      clearInterval(look);
      // The rest of the body is never read: the connection ends with the answer.
      const outgoing = nodeOutgoing(c);
      if (outgoing) outgoing.shouldKeepAlive = false;
      reject(httpError('upload_too_slow', `${what} did not start arriving at ${pace.minBytesPerS} bytes per second.`));
    }, LOOK_EVERY_MS);
  });
}
