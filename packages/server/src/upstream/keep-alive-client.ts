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

/** A header name (RFC 9110 token) and a value without CR, LF or NUL: nothing can be smuggled into the head. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\r\n\0]/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;
const CRLF2 = Buffer.from('\r\n\r\n');

/** The error of a call past its time limit (`name` TimeoutError, as `AbortSignal.timeout` gives). */
export function timeoutError(ms: number): Error {
  const e = new Error(`The call took longer than ${ms} ms.`);
  e.name = 'TimeoutError';
  return e;
}

function protocolError(message: string): Error {
  const e = new Error(`The upstream's answer is not valid HTTP/1.1: ${message}`);
  (e as Error & { code?: string }).code = 'ERR_UPSTREAM_PROTOCOL';
  return e;
}

interface Idle {
  socket: Socket;
  /** Not to be reused after this (the client's clock). */
  until: number;
}

/** The head of a request: request line, host, the given headers, the body's length. */
function requestHead(req: KeepAliveRequest, length: number | undefined): string {
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

const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const DONE = 7;

/**
 * Reads one answer from the bytes of a connection, in whatever pieces they come: `push` each
 * piece; `done` says when the answer is complete, `extra` whether bytes came after it.
 */
export class AnswerReader {
  state = HEAD;
  status = 0;
  rawHeaders: string[] = [];
  /** Whether the connection may carry another exchange once this answer is complete. */
  reusable = true;
  /** Bytes came after the end of the answer (the connection cannot be trusted with another). */
  extra = false;
  /** How long the server said it keeps the connection open when idle (`Keep-Alive: timeout=N`), in ms. */
  keepAliveMs: number | undefined;
  #pending: Buffer | null = null;
  #body: Buffer[] = [];
  #remaining = 0;
  #line = '';
  readonly #noBody: boolean;
  readonly #maxHead: number;

  constructor(method: string, maxHeadBytes: number) {
    this.#noBody = method === 'HEAD';
    this.#maxHead = maxHeadBytes;
  }

  get done(): boolean {
    return this.state === DONE;
  }

  /** The body read so far (all of it once `done`), `null` for an answer without content (HEAD, 204, 205, 304). */
  body(): Buffer | null {
    if (this.#noBody || this.status === 204 || this.status === 205 || this.status === 304) return null;
    return this.#body.length === 1 ? this.#body[0]! : Buffer.concat(this.#body);
  }

  /** The connection closed: completes an answer framed by the close, else says what was cut. */
  closed(): Error | undefined {
    if (this.state === UNTIL_CLOSE) {
      this.state = DONE;
      return undefined;
    }
    if (this.state === DONE) return undefined;
    return new Error('The upstream closed the connection before its answer was complete.');
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      switch (this.state) {
        case HEAD: {
          const bytes = at === 0 ? chunk : chunk.subarray(at);
          const all = this.#pending ? Buffer.concat([this.#pending, bytes]) : bytes;
          const end = all.indexOf(CRLF2);
          if (end < 0) {
            if (all.length > this.#maxHead) throw protocolError('its head is too long.');
            this.#pending = all;
            return;
          }
          if (end > this.#maxHead) throw protocolError('its head is too long.');
          this.#pending = null;
          this.#head(all.toString('latin1', 0, end));
          // What follows the head, in `all`: continue there.
          chunk = all;
          at = end + 4;
          break;
        }
        case LENGTH:
        case CHUNK_DATA: {
          const n = Math.min(this.#remaining, chunk.length - at);
          this.#body.push(chunk.subarray(at, at + n));
          at += n;
          this.#remaining -= n;
          if (this.#remaining === 0) this.state = this.state === LENGTH ? DONE : CHUNK_END;
          break;
        }
        case CHUNK_SIZE:
        case CHUNK_END:
        case TRAILERS: {
          const nl = chunk.indexOf(10, at);
          const part = chunk.toString('latin1', at, nl < 0 ? chunk.length : nl + 1);
          at = nl < 0 ? chunk.length : nl + 1;
          this.#line += part;
          if (this.#line.length > 4096) throw protocolError('a chunk line is too long.');
          if (nl >= 0) {
            const line = this.#line;
            this.#line = '';
            this.#chunkLine(line.endsWith('\r\n') ? line.slice(0, -2) : line.slice(0, -1));
          }
          break;
        }
        case UNTIL_CLOSE:
          this.#body.push(at === 0 ? chunk : chunk.subarray(at));
          return;
        case DONE:
          this.extra = true;
          return;
      }
    }
  }

  #head(text: string): void {
    const lines = text.split('\r\n');
    const m = STATUS_LINE.exec(lines[0]!);
    if (!m) throw protocolError('its status line is not understood.');
    const status = Number(m[2]);
    const raw: string[] = [];
    let length: number | undefined;
    let chunked = false;
    let transferCoded = false;
    let close = m[1] === '0';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) throw protocolError('a header line is not understood.');
      const value = line.slice(colon + 1).trim();
      raw.push(name, value);
      switch (name.length === 14 || name.length === 17 || name.length === 10 ? name.toLowerCase() : '') {
        case 'keep-alive': {
          const t = /(?:^|,)\s*timeout\s*=\s*(\d{1,6})\s*(?:,|$)/i.exec(value);
          if (t) this.keepAliveMs = Number(t[1]) * 1000;
          break;
        }
        case 'content-length': {
          if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== Number(value)))
            throw protocolError('its Content-Length is not a single number.');
          length = Number(value);
          break;
        }
        case 'transfer-encoding': {
          transferCoded = true;
          chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
          break;
        }
        case 'connection': {
          const tokens = value.toLowerCase();
          if (/(?:^|,)\s*close\s*(?:,|$)/.test(tokens)) close = true;
          else if (m[1] === '0' && /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(tokens)) close = false;
          break;
        }
      }
    }
    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
    if (status >= 100 && status < 200) {
      if (status === 101) throw protocolError('it switches protocols, which was never asked for.');
      return;
    }
    this.status = status;
    this.rawHeaders = raw;
    this.reusable = !close;
    if (this.#noBody || status === 204 || status === 304) this.state = DONE;
    else if (chunked) this.state = CHUNK_SIZE;
    else if (transferCoded) {
      // A coding other than chunked last: the body ends with the connection (RFC 9112, 6.3).
      this.state = UNTIL_CLOSE;
      this.reusable = false;
    } else if (length !== undefined) {
      this.#remaining = length;
      this.state = length === 0 ? DONE : LENGTH;
    } else {
      this.state = UNTIL_CLOSE;
      this.reusable = false;
    }
  }

  #chunkLine(line: string): void {
    if (this.state === CHUNK_END) {
      if (line !== '') throw protocolError('a chunk is longer than it said.');
      this.state = CHUNK_SIZE;
      return;
    }
    if (this.state === TRAILERS) {
      if (line === '') this.state = DONE;
      return;
    }
    const size = line.split(';', 1)[0]!.trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw protocolError('a chunk size is not understood.');
    this.#remaining = parseInt(size, 16);
    this.state = this.#remaining === 0 ? TRAILERS : CHUNK_DATA;
  }
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
      let length: number | undefined;
      try {
        if (req.url.protocol !== 'http:' && req.url.protocol !== 'https:') throw new TypeError(`Unsupported protocol ${req.url.protocol}`);
        length = req.body?.reduce((n, p) => n + p.byteLength, 0);
        head = requestHead(req, length ?? (req.method === 'POST' || req.method === 'PUT' ? 0 : undefined));
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
      socket.ref();
      socket.cork();
      socket.write(head, 'latin1');
      for (let i = 0; i < pieces.length; i++) socket.write(pieces[i]!, i === pieces.length - 1 ? onWritten : undefined);
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

const IDLE = Symbol('idle');
function onIdleClose(this: Socket & { [IDLE]?: () => void }): void {
  this[IDLE]?.();
}
function ignore(): void {}
