/**
 * The upstream client's own HTTP transport when no `fetch` is given. Calls whose answer is read
 * whole (all but the PDF) go through `KeepAliveClient` (keep-alive sockets, head and body in one
 * write, the answer parsed without node:http's per-request objects); a streamed answer goes
 * through node:http(s), whose IncomingMessage becomes the web stream (a streamed call carries no
body). A body given in pieces is
 * written as it is (a creation's images go as views of the request body that carried them, never
 * copied into one string), and the answer is shaped as a `Response`, so the rest of the client
 * reads it exactly as it reads one from `fetch`.
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { KeepAliveClient, timeoutError } from './keep-alive-client.js';

export interface TransportCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Text, or the bytes of the body in pieces (written in order, one write for all). */
  body?: string | readonly Uint8Array[];
  /** Time limit of the whole call, answer body included: then the call fails with a `TimeoutError`. */
  timeoutMs: number;
  /** Resolve as soon as the answer's headers are in, its body streamed (the time limit still covers it); no request body then. */
  stream?: boolean;
  /**
   * Called once the body's bytes are no longer read: written out to the socket, or the request
   * torn down (an answer can come before the body is all written, so the answer alone does not say).
   */
  onBodyDone?: () => void;
}

export type Transport = (url: string, call: TransportCall) => Promise<Response>;

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

const utf8 = new TextDecoder();

/**
 * A whole answer, read as the client reads one: `status`, `ok`, `headers`, `text()`. The full
 * `Response` (web streams, transferable body) is made only if something asks for more; making one
 * per call cost a tenth of a small creation's CPU.
 */
class BufferedAnswer {
  #full: Response | undefined;
  #headers: Headers | undefined;
  #used = false;
  readonly #rawHeaders: readonly string[];
  readonly #bytes: Buffer | null;
  constructor(
    readonly status: number,
    rawHeaders: readonly string[],
    bytes: Buffer | null,
  ) {
    this.#rawHeaders = rawHeaders;
    this.#bytes = bytes;
  }
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#rawHeaders));
  }
  get bodyUsed(): boolean {
    return this.#used || (this.#full?.bodyUsed ?? false);
  }
  /** As `Response.text()`: UTF-8, a byte order mark dropped, bad bytes replaced; once only. */
  async text(): Promise<string> {
    if (this.#full) return this.#full.text();
    if (this.#used) throw new TypeError('Body is unusable: body has already been read');
    this.#used = true;
    return this.#bytes ? utf8.decode(this.#bytes) : '';
  }
  /** The full Response, for whatever else is asked (its body, json(), arrayBuffer()...). */
  full(): Response {
    if (this.#used && !this.#full) throw new TypeError('Body is unusable: body has already been read');
    return (this.#full ??= new Response(this.#bytes ? new Uint8Array(this.#bytes) : null, { status: this.status, headers: this.headers }));
  }
}
for (const key of [
  'body',
  'json',
  'arrayBuffer',
  'blob',
  'bytes',
  'clone',
  'formData',
  'statusText',
  'type',
  'url',
  'redirected',
] as const) {
  Object.defineProperty(BufferedAnswer.prototype, key, {
    get(this: BufferedAnswer) {
      const full = this.full();
      const value = (full as unknown as Record<string, unknown>)[key];
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(full) : value;
    },
  });
}

function bufferedAnswer(status: number, rawHeaders: readonly string[], bytes: Buffer | null): Response {
  return new BufferedAnswer(status, rawHeaders, bytes) as unknown as Response;
}

/** A transport with its own keep-alive sockets. */
export function nodeTransport(): Transport {
  const whole = new KeepAliveClient();
  const agentOptions = { keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' as const };
  const http = new Agent(agentOptions);
  const https = new HttpsAgent(agentOptions);

  /** A streamed answer (the PDF): the Response's body is node's IncomingMessage as a web stream. */
  function streamed(target: URL, call: TransportCall): Promise<Response> {
    return new Promise((resolve, reject) => {
      const secure = target.protocol === 'https:';
      let settled = false;
      let answer: IncomingMessage | undefined;
      const fail = (error: Error) => {
        clearTimeout(timer);
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const timer = setTimeout(() => {
        const error = timeoutError(call.timeoutMs);
        req.destroy(error);
        answer?.destroy(error);
        fail(error);
      }, call.timeoutMs);
      const req = (secure ? httpsRequest : httpRequest)(
        target,
        { method: call.method, headers: call.headers, agent: secure ? https : http },
        (res) => {
          answer = res;
          settled = true;
          res.once('close', () => clearTimeout(timer));
          const status = res.statusCode ?? 502;
          resolve(
            new Response(NULL_BODY_STATUS.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              headers: headersOf(res.rawHeaders),
            }),
          );
        },
      );
      req.once('error', fail);
      req.end();
    });
  }

  return (url, call) => {
    let target: URL;
    try {
      target = new URL(url);
      if (call.stream && call.body !== undefined) throw new TypeError('A streamed call carries no request body.');
    } catch (error) {
      call.onBodyDone?.();
      return Promise.reject(error as Error);
    }
    if (call.stream) {
      call.onBodyDone?.();
      return streamed(target, call);
    }
    const pieces = typeof call.body === 'string' ? [Buffer.from(call.body, 'utf8')] : call.body;
    return whole
      .request({
        method: call.method,
        url: target,
        headers: call.headers,
        ...(pieces && { body: pieces }),
        timeoutMs: call.timeoutMs,
        ...(call.onBodyDone && { onBodyDone: call.onBodyDone }),
      })
      .then((a) => bufferedAnswer(a.status, a.rawHeaders, a.body));
  };
}
