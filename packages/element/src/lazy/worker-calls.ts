/**
 * Calls to a module worker beside the script, each request answered once by its `id`: the
 * mechanics the document reader and the liveness worker share. A worker that cannot start (a
 * policy refusing it, a 404, a script that does not evaluate) or sends what cannot be read is
 * broken for good: every call then rejects, the pending ones at once, so that its callers go on
 * without it. A call that takes longer than its bound rejects on its own.
 */
import { classifyFileFailure } from './report-load-failure.js';

/** A request as its caller writes it: the id is given here. */
export type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending<A> {
  resolve(answer: A): void;
  reject(error: Error): void;
}

/** What a transfer list may hold that must be closed when it is never sent (a frame, a bitmap). */
const closeUnsent = (transfer: Transferable[]): void => {
  for (const item of transfer) if ('close' in item && typeof item.close === 'function') item.close();
};

export class WorkerCalls<Request extends { id: number }, Answer extends { id: number }> {
  readonly #worker: Worker | null = null;
  readonly #pending = new Map<number, Pending<Answer>>();
  readonly #refusal: (answer: Answer) => Error | null;
  #nextId = 1;
  /** Why the worker cannot answer, once it cannot. */
  broken: string | null = null;

  /**
   * `part` names the worker in load-failure reports; `refusal` is the error an answer carries
   * (null for an answer that resolves its call).
   */
  constructor(url: string, part: string, refusal: (answer: Answer) => Error | null) {
    this.#refusal = refusal;
    let worker: Worker;
    try {
      worker = new Worker(url, { type: 'module' });
    } catch (error) {
      // An engine that refuses the URL at once (a page's policy, a bad URL).
      this.broken = `${url} could not start: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    this.#worker = worker;
    worker.addEventListener('message', (event: MessageEvent<Answer>) => {
      const answer = event.data;
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      const error = this.#refusal(answer);
      if (error) pending?.reject(error);
      else pending?.resolve(answer);
    });
    // The script did not load or evaluate (404, refused by the page's policy, no module workers).
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (!event.message) void classifyFileFailure(part, url);
      this.#fail(`${url} could not start${event.message ? `: ${event.message}` : ''}`);
    });
    worker.addEventListener('messageerror', () => this.#fail(`${url} sent a message that could not be read`));
  }

  /** Sends `request` (its `transfer` list moved, or closed if it cannot be sent) and resolves with its answer. */
  ask(request: WithoutId<Request>, transfer: Transferable[], timeoutMs: number, late: string): Promise<Answer> {
    const worker = this.#worker;
    if (this.broken || !worker) {
      closeUnsent(transfer);
      return Promise.reject(new Error(this.broken ?? 'no worker'));
    }
    const id = this.#nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(late));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (answer) => (clearTimeout(timer), resolve(answer)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  #fail(reason: string): void {
    this.broken = reason;
    this.#worker?.terminate();
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
  }
}

/** One of `make`'s objects per URL, made on the first call for it. */
export function onePerUrl<T>(make: (url: string) => T): (url: string) => T {
  const made = new Map<string, T>();
  return (url) => {
    let one = made.get(url);
    if (!one) {
      one = make(url);
      made.set(url, one);
    }
    return one;
  };
}
