/**
 * Answers a route writes straight to Node's response instead of returning a web `Response` with a
 * body for the adapter to pump: for long-lived event streams, where the web stream, the adapter's
 * reader and their promises would cost more per open stream than the stream's own state.
 *
 * The route hands its answer over with `offerDirectAnswer(c.env, answer)` and returns an empty
 * `Response` carrying the status and headers (middlewares then add theirs as for any answer). The
 * server (`listen()` in serve.ts) writes that final response's status and headers to Node's
 * response, then calls `answer.writeTo(res)`. Where no server accepts (another adapter, another
 * runtime, `app.request()`), the offer is refused and the route answers with a web body instead.
 */
import type { ServerResponse } from 'node:http';

export interface DirectAnswer {
  /** Writes the body to `res`, whose status and headers are already written. */
  writeTo(res: ServerResponse): void;
}

/** The Node responses of requests whose server accepts direct answers, with the answer a route offered. */
const offers = new WeakMap<object, DirectAnswer | null>();

/** Called by the server before the app runs: `outgoing` may be answered directly. */
export function acceptDirectAnswer(outgoing: ServerResponse): void {
  offers.set(outgoing, null);
}

/** From a route: hands `answer` to the server. False when the server cannot take it (answer with a web body then). */
export function offerDirectAnswer(env: unknown, answer: DirectAnswer): boolean {
  const outgoing = (env as { outgoing?: unknown } | undefined)?.outgoing;
  if (typeof outgoing !== 'object' || outgoing === null || !offers.has(outgoing)) return false;
  offers.set(outgoing, answer);
  return true;
}

/** Called by the server once the app has answered: the answer a route offered, if any (forgotten here either way). */
export function takeDirectAnswer(outgoing: ServerResponse): DirectAnswer | undefined {
  const answer = offers.get(outgoing) ?? undefined;
  offers.delete(outgoing);
  return answer;
}
