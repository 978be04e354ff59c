/**
 * The page's side of the document reader: one worker (reader-worker.ts) per script URL, started
 * ahead while the person fills in the data steps and kept for every photo. A reading is a help,
 * never a gate: a worker that cannot start, fails or takes too long gives no reading, and the
 * flow goes on as it would without one.
 */
import type { SideReading } from '@onboarding-kit/contract';
import { classifyFileFailure } from '../lazy/report-load-failure.js';
import type { ReadRequest, ReadResponse } from './reader-protocol.js';
import { defaultReaderWorkerURL } from './reader-url.js';

/** The longest a reading is waited for: a photo's thorough pass on a slow phone stays well within it. */
const READ_TIMEOUT_MS = 15_000;

export interface DocumentReader {
  /** What `source` carries; rejects where the worker could not read it (the caller goes on without). */
  read(source: ReadRequest['source'], thorough: boolean): Promise<SideReading>;
}

interface Pending {
  resolve(reading: SideReading): void;
  reject(error: Error): void;
}

class WorkerReader implements DocumentReader {
  readonly #worker: Worker | null = null;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Why the worker cannot read, once it cannot. */
  broken: string | null = null;

  constructor(url: string) {
    let worker: Worker;
    try {
      worker = new Worker(url, { type: 'module' });
    } catch (error) {
      // An engine that refuses the URL at once (a page's policy, a bad URL).
      this.broken = `${url} could not start: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    this.#worker = worker;
    worker.addEventListener('message', (event: MessageEvent<ReadResponse>) => {
      const answer = event.data;
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if (answer.ok) pending?.resolve(answer.reading);
      else pending?.reject(new Error(answer.error));
    });
    // The script did not load or evaluate (404, refused by the page's policy, no module workers).
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (!event.message) void classifyFileFailure('reader-worker', url);
      this.#fail(`${url} could not start${event.message ? `: ${event.message}` : ''}`);
    });
    worker.addEventListener('messageerror', () => this.#fail(`${url} sent a message that could not be read`));
  }

  read(source: ReadRequest['source'], thorough: boolean): Promise<SideReading> {
    const worker = this.#worker;
    if (this.broken || !worker) {
      if ('close' in source) source.close();
      return Promise.reject(new Error(this.broken ?? 'no reader'));
    }
    const id = this.#nextId++;
    return new Promise<SideReading>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error('the reading took too long'));
      }, READ_TIMEOUT_MS);
      const done = (then: () => void) => {
        clearTimeout(timer);
        then();
      };
      this.#pending.set(id, { resolve: (r) => done(() => resolve(r)), reject: (e) => done(() => reject(e)) });
      const request: ReadRequest = { id, source, thorough };
      worker.postMessage(request, 'close' in source ? [source] : []);
    });
  }

  #fail(reason: string): void {
    this.broken = reason;
    this.#worker?.terminate();
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
  }
}

const readers = new Map<string, WorkerReader>();

/** The reader of `url` (default: the worker beside this module), started on the first call. */
export function documentReader(url = defaultReaderWorkerURL()): DocumentReader {
  let reader = readers.get(url);
  if (!reader) {
    reader = new WorkerReader(url);
    readers.set(url, reader);
  }
  return reader;
}
