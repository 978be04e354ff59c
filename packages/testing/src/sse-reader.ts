/**
 * Reads a `text/event-stream` body in tests. Every read has a deadline (default 30 s, far beyond
 * any slowness): a stream that keeps sending keep-alives but never what the test waits for fails
 * the test with what it did receive, instead of reading forever, and is cancelled.
 */
import { DEADLINE_MS, withDeadline } from './deadline.mjs';

export interface SseReader {
  /** Everything read so far. */
  readonly text: string;
  /** Whether the stream has ended. */
  readonly ended: boolean;
  /** Reads until the text read so far matches `pattern`; rejects at the deadline or when the stream ends first. */
  until(pattern: RegExp, ms?: number): Promise<string>;
  /** Reads until the stream ends; rejects at the deadline. */
  toEnd(ms?: number): Promise<string>;
  /** The `data` of every `event: <name>` block read so far, parsed as JSON. */
  events<T = unknown>(name?: string): T[];
  /** Stops reading (the server sees the client go away). */
  cancel(): Promise<void>;
}

export function sseReader(body: ReadableStream<Uint8Array<ArrayBuffer>>): SseReader {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let ended = false;
  let pending: Promise<void> | undefined;

  /** One read at a time, shared by whoever waits, so a read cut off by a deadline is never lost. */
  const readOnce = (): Promise<void> =>
    (pending ??= reader.read().then(({ done, value }) => {
      pending = undefined;
      if (done) ended = true;
      else text += value;
    }));

  const readWhile = async (more: () => boolean, what: string, ms: number): Promise<string> => {
    const loop = (async () => {
      while (more() && !ended) await readOnce();
      return text;
    })();
    try {
      return await withDeadline(loop, what, ms);
    } catch (error) {
      // Hang up, so the server ends the stream and nothing keeps the test process alive.
      await reader.cancel().catch(() => {});
      throw new Error(`${(error as Error).message}; received so far: ${JSON.stringify(text.slice(-600))}`, { cause: error });
    }
  };

  return {
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    async until(pattern, ms = DEADLINE_MS) {
      await readWhile(() => !pattern.test(text), `event stream: waiting for ${pattern}`, ms);
      if (!pattern.test(text)) throw new Error(`event stream ended before ${pattern}; received: ${JSON.stringify(text.slice(-600))}`);
      return text;
    },
    toEnd(ms = DEADLINE_MS) {
      return readWhile(() => true, 'event stream: waiting for its end', ms);
    },
    events<T>(name = 'status'): T[] {
      const blocks = text.split('\n\n');
      if (!ended) blocks.pop();
      return blocks.flatMap((block) => {
        if (!new RegExp(`^event: ${name}$`, 'm').test(block)) return [];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        return data === undefined ? [] : [JSON.parse(data) as T];
      });
    },
    async cancel() {
      await reader.cancel().catch(() => {});
    },
  };
}
