/** Reads a session's event stream (`GET /v1/session/events`, docs/page-api.md#hand-off) in tests. */
import assert from 'node:assert/strict';
import type { SessionEvent } from '@onboarding-kit/contract';

type Received = { id: string; type: string; data: SessionEvent };

/** Reads a session's event stream as it comes; `until()` waits for an event of a type, `ended` says whether the server closed it. */
export async function sessionEvents(fetcher: (headers: Record<string, string>) => Promise<Response>, key: string, lastEventId?: string) {
  const res = await fetcher({ authorization: `Bearer ${key}`, ...(lastEventId && { 'last-event-id': lastEventId }) });
  assert.equal(res.status, 200, res.status === 200 ? '' : await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Received[] = [];
  let raw = '';
  let ended = false;
  let buffer = '';
  const waiters = new Set<() => void>();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += value;
        buffer += value;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const type = /^event: ?(.*)$/m.exec(block)?.[1];
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          const id = /^id: ?(.*)$/m.exec(block)?.[1];
          if (type && data && id) events.push({ id, type, data: JSON.parse(data) as SessionEvent });
        }
        for (const w of [...waiters]) w();
      }
    } catch {
      // cancelled
    }
    ended = true;
    for (const w of [...waiters]) w();
  })();
  const wait = (ok: () => boolean, what: string, ms = 20_000) =>
    new Promise<void>((resolve, reject) => {
      if (ok()) return resolve();
      // A safety net for a hang, not a measure of speed.
      const timer = setTimeout(() => reject(new Error(`${what}: got ${events.map((e) => e.type).join(', ')}`)), ms);
      const check = () => {
        if (!ok()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  return {
    events,
    get raw() {
      return raw;
    },
    get ended() {
      return ended;
    },
    types: () => events.map((e) => e.type),
    until: (type: string) => wait(() => events.some((e) => e.type === type), `no ${type}`),
    untilEnd: () => wait(() => ended, 'stream did not end'),
    close: () => reader.cancel().catch(() => {}),
  };
}
