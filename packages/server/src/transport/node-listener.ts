/**
 * The Node side of the transport, wrapped around the app's fetch handler by `listen()` (serve.ts):
 * each request's Node request is noted, so headers are read from Node's own list
 * (./request-header.ts), and a route may answer directly (./direct-answer.ts).
 */
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { IncomingMessage, ServerResponse } from 'node:http';
import { acceptDirectAnswer, takeDirectAnswer } from './direct-answer.js';
import { noteNodeRequest } from './request-header.js';

export type FetchHandler = (req: Request, env: unknown) => Response | Promise<Response>;

/**
 * node-server leaves a response alone when the handler answers RESPONSE_ALREADY_SENT, but only a
 * web-standard one: made after node-server replaced the global Response with its lightweight one,
 * it would be written again. Direct answers are then not offered (the web body path stays).
 */
const ALREADY_SENT_HONOURED = !Object.getOwnPropertySymbols(RESPONSE_ALREADY_SENT).some((s) => s.description === 'cache');

/** Headers of a web Response as Node's writeHead takes them. */
function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) if (name !== 'set-cookie') out[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** What Node's response keeps of its header block once the block is on the wire (see letGoOfHeads). */
const HEAD_SENT = 'HTTP/1.1 200\r\n\r\n';
const NO_RAW_HEADERS = Object.freeze([]) as unknown as string[];

/**
 * A direct answer (an event stream) stays open for minutes, and for all that time Node keeps both
 * header blocks: the request's as received (each name and value a string of its own, the raw list
 * and the parsed object: about 1 KB from a script's `fetch`, more from a browser with its cookies,
 * client hints and user agent) and the answer's as sent (about 640 bytes for the twenty or so
 * headers an event stream has). The route read what it needed from the request before it offered
 * the answer, and Node asks nothing of a sent block but whether there is one (`headersSent`), so
 * both are let go here: about 1.5 KB of every open stream.
 */
function letGoOfHeads(incoming: IncomingMessage | undefined, outgoing: ServerResponse): void {
  const sent = outgoing as unknown as { _header?: unknown; _headerSent?: unknown };
  if (typeof sent._header === 'string') {
    if (sent._headerSent === true) sent._header = HEAD_SENT;
    // Not out yet (the answer writes later): as Node built it, a rope of ~4 pieces per header (about
    // 3 KB); reading one character flattens it into one string until it goes.
    else sent._header.charCodeAt(0);
  }
  if (incoming) {
    incoming.rawHeaders = NO_RAW_HEADERS;
    incoming.headers = {};
  }
}

/**
 * `fetchHandler`, with direct answers (./direct-answer.ts): when a route offered one, the final
 * response's status and headers (middlewares' included) are written to Node's response, the
 * route's answer writes the body itself, and node-server is told the answer is already sent.
 */
export function withNodeAdapter(fetchHandler: FetchHandler): FetchHandler {
  if (!ALREADY_SENT_HONOURED) return fetchHandler;
  const answer = (res: Response, incoming: IncomingMessage | undefined, outgoing: ServerResponse): Response => {
    const direct = takeDirectAnswer(outgoing);
    if (!direct || res.status !== 200 || outgoing.headersSent || outgoing.destroyed) return res;
    outgoing.writeHead(res.status, nodeHeaders(res.headers));
    direct.writeTo(outgoing);
    letGoOfHeads(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  };
  return (req, env) => {
    const { incoming, outgoing } = (env ?? {}) as { incoming?: unknown; outgoing?: unknown };
    if (!(outgoing instanceof ServerResponse)) return fetchHandler(req, env);
    const request = incoming instanceof IncomingMessage ? incoming : undefined;
    if (request) noteNodeRequest(req, request);
    acceptDirectAnswer(outgoing);
    const res = fetchHandler(req, env);
    if (!(res instanceof Promise)) return answer(res, request, outgoing);
    return res.then(
      (r) => answer(r, request, outgoing),
      (error: unknown) => {
        takeDirectAnswer(outgoing);
        throw error;
      },
    );
  };
}
