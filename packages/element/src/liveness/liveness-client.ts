/**
 * The page's side of the liveness worker (liveness-worker.ts): one worker per script URL, started
 * ahead during the document steps and kept for the selfie. It judges the selfie's face (the face
 * check) and analyses the challenge's frames. Neither is ever a dead end: a worker that cannot
 * start or fails rejects every call, and a model that cannot load rejects the frames only (the
 * face check goes on); the callers then go on without.
 */
import type { SelfieJudgement } from '../face/face-detector.js';
import { classifyFileFailure } from '../lazy/report-load-failure.js';
import type { FaceAnalysis, LivenessRequest, LivenessResponse } from './liveness-protocol.js';
import { defaultLivenessWorkerURL } from './liveness-url.js';

/** The longest one answer is waited for: the model's first load on a slow phone stays well within it. */
const ANSWER_TIMEOUT_MS = 20_000;

/** Rejected where the model cannot load: the challenge cannot run, the face check still can. */
export class FaceModelUnavailableError extends Error {
  override name = 'FaceModelUnavailableError';
}

type Answer = LivenessResponse & { ok: true };
type Request = LivenessRequest extends infer R ? (R extends LivenessRequest ? Omit<R, 'id'> : never) : never;

export interface LivenessWorker {
  /** Resolves once the model is loaded (at once if it was); rejects with FaceModelUnavailableError where it cannot. */
  loadModel(backend?: string): Promise<void>;
  /** One frame (transferred, so closed here) analysed by the model. */
  analyse(frame: ImageBitmap): Promise<{ analysis: FaceAnalysis; ms: number }>;
  /** A selfie judged as the face check judges it. */
  judge(source: ImageBitmap | Blob): Promise<SelfieJudgement>;
}

class WorkerClient implements LivenessWorker {
  readonly #worker: Worker | null = null;
  readonly #pending = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  #nextId = 1;
  /** Why the worker cannot answer, once it cannot. */
  broken: string | null = null;

  constructor(url: string) {
    try {
      this.#worker = new Worker(url, { type: 'module' });
    } catch (error) {
      this.broken = `${url} could not start: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    this.#worker.addEventListener('message', (event: MessageEvent<LivenessResponse>) => {
      const answer = event.data;
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if (answer.ok) pending?.resolve(answer);
      else pending?.reject(answer.model ? new FaceModelUnavailableError(answer.error) : new Error(answer.error));
    });
    // The script did not load or evaluate (404, refused by the page's policy, no module workers).
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (!event.message) void classifyFileFailure('liveness-worker', url);
      this.#fail(`${url} could not start${event.message ? `: ${event.message}` : ''}`);
    });
    this.#worker.addEventListener('messageerror', () => this.#fail(`${url} sent a message that could not be read`));
  }

  async loadModel(backend?: string): Promise<void> {
    try {
      await this.#ask({ kind: 'load', ...(backend && { backend }) });
    } catch (error) {
      throw error instanceof FaceModelUnavailableError ? error : new FaceModelUnavailableError(String(error), { cause: error });
    }
  }

  async analyse(frame: ImageBitmap): Promise<{ analysis: FaceAnalysis; ms: number }> {
    const answer = await this.#ask({ kind: 'analyse', frame }, [frame]);
    if (answer.kind !== 'analyse') throw new Error('the liveness worker answered out of turn');
    return { analysis: answer.analysis, ms: answer.ms };
  }

  async judge(source: ImageBitmap | Blob): Promise<SelfieJudgement> {
    const answer = await this.#ask({ kind: 'judge', source }, source instanceof Blob ? [] : [source]);
    if (answer.kind !== 'judge') throw new Error('the liveness worker answered out of turn');
    return answer.judgement;
  }

  #ask(request: Request, transfer: Transferable[] = []): Promise<Answer> {
    const worker = this.#worker;
    if (this.broken || !worker) {
      for (const item of transfer) if (item instanceof ImageBitmap) item.close();
      return Promise.reject(new Error(this.broken ?? 'no liveness worker'));
    }
    const id = this.#nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error('the liveness worker took too long'));
      }, ANSWER_TIMEOUT_MS);
      this.#pending.set(id, {
        resolve: (answer) => (clearTimeout(timer), resolve(answer)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      worker.postMessage({ ...request, id } as LivenessRequest, transfer);
    });
  }

  #fail(reason: string): void {
    this.broken = reason;
    this.#worker?.terminate();
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
  }
}

const clients = new Map<string, WorkerClient>();

/** The liveness worker of `url` (default: the worker beside this module), started on the first call. */
export function livenessWorker(url = defaultLivenessWorkerURL()): LivenessWorker {
  let client = clients.get(url);
  if (!client) {
    client = new WorkerClient(url);
    clients.set(url, client);
  }
  return client;
}
