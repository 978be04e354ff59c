/**
 * The page's side of the liveness worker (liveness-worker.ts): one worker per script URL, started
 * ahead during the document steps and kept for the selfie. It judges the selfie's face (the face
 * check) and analyses the challenge's frames. Neither is ever a dead end: a worker that cannot
 * start or fails rejects every call, and a model that cannot load rejects the frames only (the
 * face check goes on); the callers then go on without.
 */
import type { SelfieJudgement } from '../face/face-detector.js';
import { WorkerCalls, onePerUrl, type WithoutId } from '../lazy/worker-calls.js';
import type { FaceAnalysis, FaceLook, LivenessRequest, LivenessResponse } from './liveness-protocol.js';
import { defaultLivenessWorkerURL } from './liveness-url.js';

/** The longest one answer is waited for: the model's first load on a slow phone stays well within it. */
const ANSWER_TIMEOUT_MS = 20_000;

/** Rejected where the model cannot load: the challenge cannot run, the face check still can. */
export class FaceModelUnavailableError extends Error {
  override name = 'FaceModelUnavailableError';
}

type Answer = LivenessResponse & { ok: true };

/** One frame's analysis, the worker's time on it, ms, and where it looked. */
export interface AnalysedFrame {
  analysis: FaceAnalysis;
  ms: number;
  look: FaceLook;
}

export interface LivenessWorker {
  /** Resolves once the model is loaded (at once if it was); rejects with FaceModelUnavailableError where it cannot. */
  loadModel(backend?: string): Promise<void>;
  /** One frame (transferred, so closed here) analysed by the model; frames sharing `video` are one video's, its face followed. */
  analyse(frame: ImageBitmap, video?: number): Promise<AnalysedFrame>;
  /** A selfie judged as the face check judges it. */
  judge(source: ImageBitmap | Blob): Promise<SelfieJudgement>;
}

class WorkerClient implements LivenessWorker {
  readonly #calls: WorkerCalls<LivenessRequest, LivenessResponse>;

  constructor(url: string) {
    this.#calls = new WorkerCalls<LivenessRequest, LivenessResponse>(url, 'liveness-worker', (answer) =>
      answer.ok ? null : answer.model ? new FaceModelUnavailableError(answer.error) : new Error(answer.error),
    );
  }

  async loadModel(backend?: string): Promise<void> {
    try {
      await this.#ask({ kind: 'load', ...(backend && { backend }) });
    } catch (error) {
      throw error instanceof FaceModelUnavailableError ? error : new FaceModelUnavailableError(String(error), { cause: error });
    }
  }

  async analyse(frame: ImageBitmap, video?: number): Promise<AnalysedFrame> {
    const answer = await this.#ask({ kind: 'analyse', frame, ...(video !== undefined && { video }) }, [frame]);
    if (answer.kind !== 'analyse') throw new Error('the liveness worker answered out of turn');
    return { analysis: answer.analysis, ms: answer.ms, look: answer.look };
  }

  async judge(source: ImageBitmap | Blob): Promise<SelfieJudgement> {
    const answer = await this.#ask({ kind: 'judge', source }, source instanceof Blob ? [] : [source]);
    if (answer.kind !== 'judge') throw new Error('the liveness worker answered out of turn');
    return answer.judgement;
  }

  async #ask(request: WithoutId<LivenessRequest>, transfer: Transferable[] = []): Promise<Answer> {
    const answer = await this.#calls.ask(request, transfer, ANSWER_TIMEOUT_MS, 'the liveness worker took too long');
    if (!answer.ok) throw new Error(answer.error);
    return answer;
  }
}

const workerOf = onePerUrl((url) => new WorkerClient(url));

/** The liveness worker of `url` (default: the worker beside this module), started on the first call. */
export function livenessWorker(url = defaultLivenessWorkerURL()): LivenessWorker {
  return workerOf(url);
}
