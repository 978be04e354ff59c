/**
 * The parser of one HTTP/1.1 answer for the keep-alive client: the head, then a body framed by
 * Content-Length, by chunked transfer coding (trailers skipped) or by the connection's close.
 * Fed the connection's bytes in whatever pieces they come, so no copy is made of a body that
 * arrives whole.
 */

/** A header name (RFC 9110 token). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;
const CRLF2 = Buffer.from('\r\n\r\n');

function protocolError(message: string): Error {
  const e = new Error(`The upstream's answer is not valid HTTP/1.1: ${message}`);
  (e as Error & { code?: string }).code = 'ERR_UPSTREAM_PROTOCOL';
  return e;
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
