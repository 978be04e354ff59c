/**
 * The page's side of the document reader: one worker (reader-worker.ts) per script URL, started
 * ahead while the person fills in the data steps and kept for every photo. A reading is a help,
 * never a gate: a worker that cannot start, fails or takes too long gives no reading, and the
 * flow goes on as it would without one.
 */
import type { SideReading } from '@onboarding-kit/contract';
import { WorkerCalls, onePerUrl } from '../lazy/worker-calls.js';
import type { ReadRequest, ReadResponse } from './reader-protocol.js';
import { defaultReaderWorkerURL } from './reader-url.js';

/** The longest a reading is waited for: a photo's thorough pass on a slow phone stays well within it. */
const READ_TIMEOUT_MS = 15_000;

export interface DocumentReader {
  /** What `source` carries; rejects where the worker could not read it (the caller goes on without). */
  read(source: ReadRequest['source'], thorough: boolean): Promise<SideReading>;
}

class WorkerReader implements DocumentReader {
  readonly #calls: WorkerCalls<ReadRequest, ReadResponse>;

  constructor(url: string) {
    this.#calls = new WorkerCalls<ReadRequest, ReadResponse>(url, 'reader-worker', (answer) =>
      answer.ok ? null : new Error(answer.error),
    );
  }

  async read(source: ReadRequest['source'], thorough: boolean): Promise<SideReading> {
    const answer = await this.#calls.ask(
      { source, thorough },
      'close' in source ? [source] : [],
      READ_TIMEOUT_MS,
      'the reading took too long',
    );
    if (!answer.ok) throw new Error(answer.error);
    return answer.reading;
  }
}

const readerOf = onePerUrl((url) => new WorkerReader(url));

/** The reader of `url` (default: the worker beside this module), started on the first call. */
export function documentReader(url = defaultReaderWorkerURL()): DocumentReader {
  return readerOf(url);
}
