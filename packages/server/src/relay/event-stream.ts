/**
 * An onboarding's event stream, lean enough for tens of thousands open on one instance: one
 * ReadableStream per page (no TransformStream, no async loop parked per stream), the state in
 * one small object whose methods live on its prototype, and the keep-alive comments written by
 * one shared tick for all streams instead of a timer each.
 *
 * What goes on the wire: `retry: <ms>`, then a `status` event with the onboarding's state each
 * time it changes (never the same state twice), until a terminal status; on shutdown a last
 * `retry:` hint (the page reconnects to an instance still running); `: keep-alive` comments
 * in between.
 */
import { isTerminalStatus } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import type { OnboardingRecord } from '../store/store.js';
import type { StreamRegistry } from './stream-registry.js';

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** Writes a keep-alive comment to every open stream every `everyMs` (one timer, started with the first stream, stopped with the last). */
export class KeepAliveTick {
  private readonly streams = new Set<{ keepAlive(): void }>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly everyMs: number) {}

  add(stream: { keepAlive(): void }): void {
    this.streams.add(stream);
    if (!this.timer) {
      this.timer = setInterval(() => {
        for (const s of this.streams) s.keepAlive();
      }, this.everyMs);
      this.timer.unref?.();
    }
  }

  delete(stream: { keepAlive(): void }): void {
    this.streams.delete(stream);
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  get size(): number {
    return this.streams.size;
  }
}

export interface EventStreamDeps {
  /** The record now (`null`: gone, which ends the stream). */
  read(token: string): Promise<OnboardingRecord | null>;
  /** Calls `listener` on every change of the onboarding; returns the unsubscribe. */
  subscribe(token: string, listener: () => void): () => void;
  /** The state a page sees, as JSON-able data. */
  state(record: OnboardingRecord): unknown;
  streams: StreamRegistry;
  tick: KeepAliveTick;
  retryMs: number;
  log: Logger;
}

/** The body of `GET /v1/onboardings/{token}/events`. */
export function onboardingEventStream(token: string, deps: EventStreamDeps): ReadableStream<Uint8Array> {
  const events = new OnboardingEvents(token, deps);
  return new ReadableStream<Uint8Array>({
    start: (controller) => events.start(controller),
    cancel: () => events.finish(),
  });
}

class OnboardingEvents {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private unsubscribe: (() => void) | undefined;
  private unregister: (() => void) | undefined;
  /** The last state sent, as its JSON. */
  private last = '';
  private changed = true;
  private busy = false;
  private terminal = false;
  private stopping = false;
  private ended = false;
  private reconnectIn: number | undefined;

  constructor(
    private readonly token: string,
    private readonly deps: EventStreamDeps,
  ) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
    this.write(`retry: ${this.deps.retryMs}\n\n`);
    // Subscribe before the first read, so a change between the two cannot be missed.
    this.unsubscribe = this.deps.subscribe(this.token, () => this.poke());
    this.deps.tick.add(this);
    // On shutdown: end with a fresh `retry:` hint, so the page reconnects (to an instance still running).
    this.unregister = this.deps.streams.add((retryMs) => this.stop(retryMs));
    void this.pump();
  }

  keepAlive(): void {
    this.write(KEEP_ALIVE);
  }

  /** Ends the stream and lets go of everything it holds (also when the page went away). */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe?.();
    this.unregister?.();
    this.deps.tick.delete(this);
    try {
      this.controller?.close();
    } catch {
      // Already closed or cancelled by the page going away.
    }
    this.controller = undefined;
  }

  private poke(): void {
    this.changed = true;
    void this.pump();
  }

  private stop(retryMs: number): void {
    this.reconnectIn = retryMs;
    this.stopping = true;
    void this.pump();
  }

  private write(chunk: string | Uint8Array): void {
    if (this.ended) return;
    try {
      this.controller?.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    } catch {
      this.finish();
    }
  }

  /** Sends the state after each change, one read at a time, until a terminal status, a shutdown or the page leaving. */
  private async pump(): Promise<void> {
    if (this.busy || this.ended) return;
    this.busy = true;
    try {
      while (this.changed && !this.terminal && !this.ended) {
        this.changed = false;
        const record = await this.deps.read(this.token);
        if (!record) {
          this.terminal = true;
          break;
        }
        const data = JSON.stringify(this.deps.state(record));
        if (data !== this.last) {
          this.last = data;
          this.write(`event: status\ndata: ${data}\n\n`);
        }
        this.terminal = isTerminalStatus(record.status);
        if (this.stopping) break;
      }
    } catch (error) {
      // Usually the store failing under us; the page reconnects and reads again.
      this.deps.log.debug('event stream ended with an error', { error });
      this.terminal = true;
    } finally {
      this.busy = false;
    }
    if (this.terminal) this.finish();
    else if (this.stopping) {
      if (this.reconnectIn !== undefined) this.write(`retry: ${this.reconnectIn}\n\n`);
      this.finish();
    }
  }
}
