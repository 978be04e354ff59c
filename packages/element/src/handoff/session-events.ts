/**
 * The session's live events (`GET /v1/session/events`, docs/page-api.md#hand-off), read with
 * fetch (EventSource cannot send the Authorization header). A dropped stream is opened again
 * with `Last-Event-ID`, after a wait that grows with each failure; the stream's own end (after
 * `session.completed`, `session.expired` or `session.cancelled`, and for a device after `handoff.reclaimed`) and an
 * answer that will not change (401, 403, 404, 409, 410) stop it. Part of the lazily loaded
 * hand-off file.
 */
import type { SessionEvent } from '@onboarding-kit/contract';
import { openSessionEvents } from '../api/companion-client.js';
import { CompanionError } from '../api/errors.js';
import { SseParser } from '../api/sse.js';

export interface SessionEventHandlers {
  event(event: SessionEvent): void;
  /** false after two failed attempts in a row (the page says it is offline), true once a stream opens. */
  reachable(reachable: boolean): void;
  /** The stream ended for good; `code` is the companion's error code when it refused to open one. */
  ended(code: string | null): void;
}

/** How long a burst of events (a replay on connection) is gathered before the page reacts to where it ends. */
export const SETTLE_MS = 200;

/** Waits between attempts: 1 s, 2 s, 4 s, ... up to 15 s. */
const retryDelay = (failures: number): number => Math.min(15_000, 1000 * 2 ** Math.max(0, failures - 1));

/** Events after which the companion ends the stream (for a device also `handoff.reclaimed`). */
const FINAL: readonly string[] = ['session.completed', 'session.expired', 'session.cancelled'];

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function isSessionEvent(value: unknown): value is SessionEvent {
  return !!value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string';
}

/**
 * Follows the session's events until `signal` aborts or the stream ends for good. `secret` is
 * read for each connection and travels in the Authorization header only.
 */
export async function followSessionEvents(
  base: string,
  secret: () => string,
  handlers: SessionEventHandlers,
  signal: AbortSignal,
  device = false,
): Promise<void> {
  let lastId: string | null = null;
  let failures = 0;
  while (!signal.aborted) {
    let finished = false;
    try {
      const res = await openSessionEvents(base, secret(), lastId, signal);
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { code?: unknown } } | null;
        const code = typeof body?.error?.code === 'string' ? body.error.code : `http_${res.status}`;
        if (res.status < 500 && res.status !== 429) {
          handlers.ended(code);
          return;
        }
        throw new CompanionError({ code: 'http_error', message: 'The session events could not be opened.', status: res.status });
      }
      if (!res.body)
        throw new CompanionError({ code: 'invalid_response', message: 'The session events have no body.', status: res.status });
      failures = 0;
      handlers.reachable(true);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const message of parser.push(value)) {
            if (message.id) lastId = message.id;
            let data: unknown;
            try {
              data = JSON.parse(message.data);
            } catch {
              continue;
            }
            if (!isSessionEvent(data) || data.type !== message.event) continue;
            if (FINAL.includes(data.type) || (device && data.type === 'handoff.reclaimed')) finished = true;
            handlers.event(data);
          }
        }
      } finally {
        reader.releaseLock();
      }
      // Ended by the companion: for good after a final event, else (a restart) open it again soon.
      if (finished) {
        handlers.ended(null);
        return;
      }
      await wait(1000, signal);
    } catch {
      if (signal.aborted) return;
      failures += 1;
      if (failures >= 2) handlers.reachable(false);
      await wait(retryDelay(failures), signal);
    }
  }
}
