/**
 * The one way the companion writes an event stream (`text/event-stream`), lean enough for tens of
 * thousands open on one instance: on Node (`listen()`, serve.ts) the events are written straight
 * to the ServerResponse (./direct-answer.ts), with no web stream, promise or adapter pump per
 * page; elsewhere (other runtimes, `app.request()`) one ReadableStream per page carries the same
 * bytes. A stream is one small object whose methods live on its prototype (no async loop parked
 * per stream), and the keep-alive comments are written by one shared tick for all streams instead
 * of a timer each.
 *
 * What goes on the wire: `retry: <ms>`, then the events of the stream's source as it finds them,
 * until the source says it is over; on shutdown a last `retry:` hint (the page reconnects to an
 * instance still running); `: keep-alive` comments in between.
 */
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { Logger } from '../logger.js';
import type { ClosableStream, StreamRegistry } from '../relay/stream-registry.js';
import { offerDirectAnswer, type DirectAnswer } from './direct-answer.js';

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** Streams written per turn of the event loop by a keep-alive pass (about a millisecond's work). */
export const KEEP_ALIVE_SLICE = 256;

type KeepAlive = { keepAlive(): void };

/**
 * Writes a keep-alive comment to every open stream every `everyMs` (one timer, started with the
 * first stream, stopped with the last). A pass writes KEEP_ALIVE_SLICE streams per turn of the
 * event loop: with ten thousand streams open, a webhook or a status event arriving during a pass
 * waits for one slice, not for all of them.
 */
export class KeepAliveTick {
  private readonly streams = new Set<KeepAlive>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The pass under way (a Set's iterator follows additions and deletions made meanwhile). */
  private pass: Iterator<KeepAlive> | undefined;

  constructor(private readonly everyMs: number) {}

  add(stream: KeepAlive): void {
    this.streams.add(stream);
    if (!this.timer) {
      this.timer = setInterval(() => this.beat(), this.everyMs);
      this.timer.unref?.();
    }
  }

  delete(stream: KeepAlive): void {
    this.streams.delete(stream);
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private beat(): void {
    // A pass still under way (an instance too loaded to finish one in `everyMs`) goes on; no second one.
    if (this.pass) return;
    this.pass = this.streams.values();
    this.slice();
  }

  private slice(): void {
    const pass = this.pass;
    if (!pass) return;
    for (let i = 0; i < KEEP_ALIVE_SLICE; i++) {
      const next = pass.next();
      if (next.done) {
        this.pass = undefined;
        return;
      }
      next.value.keepAlive();
    }
    setImmediate(() => this.slice()).unref();
  }

  get size(): number {
    return this.streams.size;
  }
}

/** What every stream of a route shares: one object for all of them, so an open stream holds only its own state. */
export interface EventStreamDeps {
  streams: StreamRegistry;
  tick: KeepAliveTick;
  retryMs: number;
  /** The app's logger: a stream keeps its request's id, not the request's logger (a few KB per open stream). */
  log: Logger;
}

/**
 * Bytes a page may leave unread before its stream is ended (it reconnects and reads afresh).
 * Keep-alive comments are not written while anything is unread, so only events count against
 * it: a page that stops reading costs at most this much, never more.
 */
export const MAX_UNREAD_BYTES = 16 * 1024;

const byteLength = (chunk: Uint8Array) => chunk.byteLength;

/**
 * One page's event stream, written either to a web stream (`webStream()`) or straight to Node's
 * response (`writeTo(res)`, once its headers are written): the same bytes either way. A source
 * (a subclass) says what to listen to (`open`, `release`) and writes what changed (`send`);
 * the stream calls `send` again after each `poke()`, one call at a time.
 */
export abstract class EventStream<D extends EventStreamDeps = EventStreamDeps> implements DirectAnswer, ClosableStream {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private res: ServerResponse | undefined;
  private changed = true;
  private busy = false;
  private over = false;
  private stopping = false;
  private ended = false;
  private reconnectIn: number | undefined;

  constructor(
    protected readonly deps: D,
    /** The id of the request that opened the stream, in its log lines. */
    private readonly requestId: string,
  ) {}

  /** Starts listening for changes (calling `poke()` on each); the first `send` comes right after. */
  protected abstract open(): void;
  /** Stops listening: the stream has ended. */
  protected abstract release(): void;
  /** Writes what is new since the last call; true once there will be nothing more (the stream then ends). */
  protected abstract send(): Promise<boolean>;
  /** The debug line logged when `send` fails. */
  protected abstract get failureMessage(): string;

  webStream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          this.start();
        },
        cancel: () => this.finish(),
      },
      { highWaterMark: MAX_UNREAD_BYTES, size: byteLength },
    );
  }

  /** Writes the stream to `res`, whose status and headers are already written; ends with it. */
  writeTo(res: ServerResponse): void {
    if (res.destroyed) return;
    this.res = res;
    this.start();
  }

  keepAlive(): void {
    this.write(KEEP_ALIVE, true);
  }

  /** Ends the stream and lets go of everything it holds (also when the page went away). */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
    this.deps.streams.untrack(this);
    this.deps.tick.delete(this);
    const { controller, res } = this;
    this.controller = undefined;
    this.res = undefined;
    if (res) {
      if (!res.writableEnded && !res.destroyed) res.end();
      return;
    }
    try {
      controller?.close();
    } catch {
      // Already closed or cancelled by the page going away.
    }
  }

  /** On shutdown (StreamRegistry): ends the stream with `retry: <retryMs>`. */
  closeStream(retryMs: number): void {
    this.reconnectIn = retryMs;
    this.stopping = true;
    void this.pump();
  }

  /** Something changed: `send` runs again. */
  protected poke(): void {
    this.changed = true;
    void this.pump();
  }

  /** Writes `chunk`; a keep-alive only when nothing is unread; a page that left more than MAX_UNREAD_BYTES unread is let go. */
  protected write(chunk: string | Uint8Array, keepAlive = false): void {
    if (this.ended) return;
    const res = this.res;
    if (res) {
      if (res.destroyed || res.writableEnded) return this.finish();
      const unread = res.writableLength;
      if (keepAlive && unread > 0) return;
      if (unread > MAX_UNREAD_BYTES) return this.tooSlow(unread);
      res.write(chunk);
      return;
    }
    const controller = this.controller;
    if (!controller) return;
    const room = controller.desiredSize ?? 0;
    if (keepAlive && room < MAX_UNREAD_BYTES) return;
    if (room < 0) return this.tooSlow(MAX_UNREAD_BYTES - room);
    try {
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    } catch {
      this.finish();
    }
  }

  private start(): void {
    // The page going away (or the connection cut) ends the stream and lets go of everything it
    // holds. (`on`, not `once`: a response closes once, and once's wrapper costs more than the listener.)
    this.res?.on('close', () => this.finish());
    this.write(`retry: ${this.deps.retryMs}\n\n`);
    // Listen before the first read, so a change between the two cannot be missed.
    this.open();
    this.deps.tick.add(this);
    // On shutdown: end with a fresh `retry:` hint, so the page reconnects (to an instance still running).
    this.deps.streams.track(this);
    void this.pump();
  }

  private logger(): Logger {
    return this.deps.log.child({ requestId: this.requestId });
  }

  private tooSlow(unread: number): void {
    this.logger().info('event stream ended: the page left too much unread', { unreadBytes: unread });
    // Cut at once on Node (what is queued goes with the socket); a web stream is closed after what is queued.
    this.res?.destroy();
    this.finish();
  }

  /** Sends after each change, one `send` at a time, until the source is done, a shutdown or the page leaving. */
  private async pump(): Promise<void> {
    if (this.busy || this.ended) return;
    this.busy = true;
    try {
      while (this.changed && !this.over && !this.ended) {
        this.changed = false;
        this.over = await this.send();
        if (this.stopping) break;
      }
    } catch (error) {
      // Usually the store failing under us; the page reconnects and reads again.
      this.logger().debug(this.failureMessage, { error });
      this.over = true;
    } finally {
      this.busy = false;
    }
    if (this.over) this.finish();
    else if (this.stopping) {
      if (this.reconnectIn !== undefined) this.write(`retry: ${this.reconnectIn}\n\n`);
      this.finish();
    }
  }
}

/**
 * Answers a request with `stream`: on Node straight to the socket once the headers are out
 * (middlewares' included), elsewhere as a web body.
 */
export function sendEventStream(c: Context, stream: EventStream<EventStreamDeps>): Response {
  // Proxies such as nginx must pass events on as they come, not buffer them.
  c.header('X-Accel-Buffering', 'no');
  c.header('Transfer-Encoding', 'chunked');
  c.header('Content-Type', 'text/event-stream');
  c.header('Cache-Control', 'no-cache');
  c.header('Connection', 'keep-alive');
  if (offerDirectAnswer(c.env, stream)) return c.body(null, 200);
  return c.body(stream.webStream());
}
