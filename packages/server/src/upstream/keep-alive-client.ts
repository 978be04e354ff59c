/**
 * The HTTP/1.1 exchange for upstream calls whose answer is read whole (all of them but the PDF):
 * keep-alive sockets per origin, the request's head and body written in one go, the answer
 * parsed here. node:http's ClientRequest, Agent and IncomingMessage took about a fifth of the
 * companion's CPU per small creation (bench, creations with 4x4 PNGs); this makes the same
 * exchange without them.
 *
 * Handled: answers framed by Content-Length, by chunked transfer coding (trailers skipped) or by
 * the connection's close; 1xx interim answers; `Connection: close` and HTTP/1.0; HEAD, 204 and 304
 * without a body; TLS through node:tls with its session kept for the next connection. Not
 * handled, because the upstream client never asks for them: pipelining, upgrades, proxies,
 * compressed answers.
 *
 * A socket goes back to its origin's idle list only after a complete answer with nothing after
 * it; one idle for longer than `idleMs`, or than a second less than the server's own
 * `Keep-Alive: timeout=N`, is closed rather than reused (a server closes idle connections after a
 * few seconds, and a request written just as it does so would be lost).
 * Idle sockets do not keep the process alive.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { realTimers, type Timers } from '../relay/timers.js';
import { AnswerReader, TOKEN } from './answer-reader.js';

export { AnswerReader } from './answer-reader.js';

export interface KeepAliveRequest {
  method: string;
  url: URL;
  /** Names in lower case; `host` and `content-length` are set here. */
  headers: Readonly<Record<string, string>>;
  /** The body in pieces, written in order with the head (no copy into one buffer). */
  body?: readonly Uint8Array[];
  /** Time limit of the whole exchange: then the call fails with a `TimeoutError`. */
  timeoutMs: number;
  /** Called once the body is no longer read: written out to the socket, or the call failed. */
  onBodyDone?: () => void;
}

export interface KeepAliveAnswer {
  status: number;
  /** As node's `rawHeaders`: name, value, name, value... */
  rawHeaders: string[];
  /** `null` when the answer has no content (HEAD, 204, 205, 304). */
  body: Buffer | null;
}

export interface KeepAliveClientOptions {
  /** Idle sockets kept per origin (default 256). */
  maxIdle?: number;
  /** An idle socket older than this is closed instead of reused (default 4 s). */
  idleMs?: number;
  /** Extra TLS options for https origins (a private CA, a client certificate). */
  tls?: ConnectionOptions;
  /** Longest answer head accepted (default 64 KiB). */
  maxHeadBytes?: number;
  /** Clock of idle sockets and timers of call limits (default the real ones). */
  timers?: Timers;
}

/** A header value without CR, LF or NUL (and a name that is a token): nothing can be smuggled into the head. */
const BAD_VALUE = /[\r\n\0]/;

/** The error of a call past its time limit (`name` TimeoutError, as `AbortSignal.timeout` gives). */
export function timeoutError(ms: number): Error {
  const e = new Error(`The call took longer than ${ms} ms.`);
  e.name = 'TimeoutError';
  return e;
}

interface Idle {
  socket: Socket;
  /** Not to be reused after this (the client's clock). */
  until: number;
}

/** The head of a request: request line, host, the given headers, the body's length (zero for a POST or PUT without one). */
function requestHead(req: KeepAliveRequest): string {
  if (req.url.protocol !== 'http:' && req.url.protocol !== 'https:') throw new TypeError(`Unsupported protocol ${req.url.protocol}`);
  const length = req.body?.reduce((n, p) => n + p.byteLength, 0) ?? (req.method === 'POST' || req.method === 'PUT' ? 0 : undefined);
  if (!TOKEN.test(req.method)) throw new TypeError(`Invalid method ${JSON.stringify(req.method)}.`);
  let head = `${req.method} ${req.url.pathname}${req.url.search} HTTP/1.1\r\nhost: ${req.url.host}\r\n`;
  for (const name in req.headers) {
    const value = req.headers[name]!;
    if (!TOKEN.test(name) || BAD_VALUE.test(value)) throw new TypeError(`Invalid header ${JSON.stringify(name)}.`);
    if (name === 'host' || name === 'content-length') continue;
    head += `${name}: ${value}\r\n`;
  }
  if (length !== undefined) head += `content-length: ${length}\r\n`;
  return `${head}\r\n`;
}
export class KeepAliveClient {
  readonly #idle = new Map<string, Idle[]>();
  readonly #sessions = new Map<string, Buffer>();
  readonly #maxIdle: number;
  readonly #idleMs: number;
  readonly #tls: ConnectionOptions;
  readonly #maxHead: number;
  readonly #timers: Timers;

  constructor(options: KeepAliveClientOptions = {}) {
    this.#maxIdle = options.maxIdle ?? 256;
    this.#idleMs = options.idleMs ?? 4_000;
    this.#tls = options.tls ?? {};
    this.#maxHead = options.maxHeadBytes ?? 64 * 1024;
    this.#timers = options.timers ?? realTimers;
  }

  /** Sockets idle now, all origins (for tests and the curious). */
  get idleCount(): number {
    let n = 0;
    for (const list of this.#idle.values()) n += list.length;
    return n;
  }

  /** Closes the idle sockets (calls in flight finish on theirs, which are then closed too). */
  close(): void {
    for (const list of this.#idle.values()) for (const { socket } of list.splice(0)) socket.destroy();
  }

  request(req: KeepAliveRequest): Promise<KeepAliveAnswer> {
    return new Promise((resolve, reject) => {
      let bodyDone = req.onBodyDone;
      const doneWithBody = () => {
        const f = bodyDone;
        bodyDone = undefined;
        f?.();
      };
      let head: string;
      try {
        head = requestHead(req);
      } catch (error) {
        doneWithBody();
        reject(error as Error);
        return;
      }
      const key = `${req.url.protocol}//${req.url.host}`;
      const socket = this.#take(key) ?? this.#connect(req.url, key);
      const reader = new AnswerReader(req.method, this.#maxHead);
      const pieces = req.body ?? [];
      let written = pieces.length === 0;
      let settled = false;
      // The answer can come before the body is all written (a server that answers early): the
      // pieces are then still read until written, so the socket is released (and the body let
      // go) only once they are, or closed at the call's time limit.
      const after = () => {
        this.#timers.clearTimeout(timer);
        if (reader.reusable && !reader.extra && !socket.destroyed) this.#release(key, socket, reader.keepAliveMs);
        else socket.destroy();
      };
      const finish = (error: Error | undefined) => {
        if (settled) return;
        settled = true;
        socket.removeListener('data', onData);
        socket.removeListener('error', onError);
        socket.removeListener('close', onClose);
        if (error) {
          this.#timers.clearTimeout(timer);
          // Closing the socket stops its writes at once: nothing of the body is read after this.
          socket.destroy();
          doneWithBody();
          reject(error);
          return;
        }
        resolve({ status: reader.status, rawHeaders: reader.rawHeaders, body: reader.body() });
        if (written) after();
      };
      const onWritten = (error?: Error | null) => {
        written = true;
        if (error) socket.destroy();
        doneWithBody();
        if (settled) after();
      };
      const onData = (chunk: Buffer) => {
        try {
          reader.push(chunk);
        } catch (error) {
          finish(error as Error);
          return;
        }
        if (reader.done) finish(undefined);
      };
      const onError = (error: Error) => finish(error);
      const onClose = () => finish(reader.closed());
      const timer = this.#timers.setTimeout(() => {
        if (!settled) return finish(timeoutError(req.timeoutMs));
        socket.destroy();
        doneWithBody();
      }, req.timeoutMs);
      socket.on('data', onData);
      socket.on('error', onError);
      socket.on('close', onClose);
      writeCorked(socket, head, pieces, onWritten);
      if (written) doneWithBody();
      socket.uncork();
    });
  }

  #take(key: string): Socket | undefined {
    const list = this.#idle.get(key);
    if (!list) return undefined;
    const now = this.#timers.now();
    for (let idle = list.pop(); idle; idle = list.pop()) {
      if (now < idle.until && !idle.socket.destroyed) {
        idle.socket.removeListener('close', onIdleClose);
        return idle.socket;
      }
      idle.socket.destroy();
    }
    return undefined;
  }

  #release(key: string, socket: Socket, serverKeepsMs: number | undefined): void {
    let list = this.#idle.get(key);
    if (!list) this.#idle.set(key, (list = []));
    if (list.length >= this.#maxIdle) {
      socket.destroy();
      return;
    }
    // A second before the server's own limit where it says one: its close and our write could cross.
    const keep = serverKeepsMs === undefined ? this.#idleMs : Math.min(this.#idleMs, serverKeepsMs - 1_000);
    if (keep <= 0) {
      socket.destroy();
      return;
    }
    const idle: Idle = { socket, until: this.#timers.now() + keep };
    list.push(idle);
    socket.unref();
    // Closed by the server while idle: off the list.
    (socket as Socket & { [IDLE]?: () => void })[IDLE] = () => {
      const at = list.indexOf(idle);
      if (at >= 0) list.splice(at, 1);
    };
    socket.on('close', onIdleClose);
  }

  /**
   * A new connection. Its errors reach the call using it through the call's own listener; the
   * one added here only keeps an error between calls (idle, or a body still being written after
   * the answer) from being thrown: the close that follows takes the socket off the idle list.
   */
  #connect(url: URL, key: string): Socket {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (url.protocol === 'http:') {
      const socket = netConnect({ host, port });
      socket.setNoDelay(true);
      socket.on('error', ignore);
      return socket;
    }
    const session = this.#sessions.get(key);
    const socket: TLSSocket = tlsConnect({
      ...this.#tls,
      host,
      port,
      servername: isIP(host) ? undefined : host,
      ...(session && { session }),
    });
    socket.setNoDelay(true);
    socket.on('error', ignore);
    socket.on('session', (s: Buffer) => this.#sessions.set(key, s));
    return socket;
  }
}

/**
 * Writes the head and the body's pieces into a corked socket, so they leave together; `onWritten`
 * follows the last piece. The caller uncorks, once it has noted a call without a body as written.
 */
function writeCorked(socket: Socket, head: string, pieces: readonly Uint8Array[], onWritten: (error?: Error | null) => void): void {
  socket.ref();
  socket.cork();
  socket.write(head, 'latin1');
  for (let i = 0; i < pieces.length; i++) socket.write(pieces[i]!, i === pieces.length - 1 ? onWritten : undefined);
}

const IDLE = Symbol('idle');
function onIdleClose(this: Socket & { [IDLE]?: () => void }): void {
  this[IDLE]?.();
}
function ignore(): void {}
