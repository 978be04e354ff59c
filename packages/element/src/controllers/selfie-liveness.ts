/**
 * The capture controller's liveness challenge on the selfie step: a run (liveness/challenge-run.ts)
 * on the preview's video while it is live, its prompt for the view, and at the shutter its report
 * and keyframes for the selfie's record. Never a gate: without a worker or a model the selfie is a
 * plain one, reported `unavailable`; a picked file is reported `unavailable` for being a file.
 */
import type { KeptCheck, LivenessPrompt } from '@onboarding-kit/contract';
import type { ProcessedImage } from '../image/pipeline.js';
import { faceWorker } from '../face/load-face.js';
import { ChallengeRun, type ChallengeOutcome } from '../liveness/challenge-run.js';
import type { CapturedPhoto } from './captured-photos.js';

export type { ChallengeOutcome } from '../liveness/challenge-run.js';

const MODEL_UNAVAILABLE: ChallengeOutcome = {
  liveness: { result: 'unavailable', reason: 'model-unavailable', prompts: [] },
  keyframes: [],
};

/** A selfie picked from a file: no challenge was asked. */
export const FILE_SELFIE: ChallengeOutcome = { liveness: { result: 'unavailable', reason: 'file', prompts: [] }, keyframes: [] };

export class SelfieLiveness {
  readonly #onChange: () => void;
  #run: ChallengeRun | null = null;
  #video: HTMLVideoElement | null = null;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** The prompt the view shows now. */
  get prompt(): LivenessPrompt | null {
    return this.#run?.prompt ?? null;
  }

  /** The automatic photo waits for the challenge (challenge-rules.ts, awaitsPerson); the shutter never does. */
  get holdsAutoCapture(): boolean {
    return !!this.#run?.holdsAutoCapture;
  }

  /** The selfie's live video (null: it stopped): a new video starts a new challenge, with new prompts. */
  watch(video: HTMLVideoElement | null): void {
    if (video === this.#video) return;
    this.#run?.stop();
    this.#video = video;
    if (!video) return;
    const worker = faceWorker();
    this.#run = worker ? new ChallengeRun(video, worker, this.#onChange) : null;
    this.#onChange();
  }

  /** The shutter: the challenge ends where it is, whatever it reached, and its report and keyframes go with the selfie. */
  take(): Promise<ChallengeOutcome> {
    const run = this.#run;
    this.#run = null;
    this.#video = null;
    return run ? run.finish() : Promise.resolve(MODEL_UNAVAILABLE);
  }
}

/** An accepted photo's record: kept anyway over `keptCheck`, and a selfie's challenge with its report and keyframes. */
export function acceptedPhoto(
  image: ProcessedImage,
  keptCheck: KeptCheck | undefined,
  outcome: ChallengeOutcome | undefined,
): CapturedPhoto {
  if (!keptCheck && !outcome) return image;
  return {
    ...image,
    ...(keptCheck && { keptAnyway: true, keptCheck }),
    ...(outcome && { liveness: outcome.liveness, keyframes: outcome.keyframes }),
  };
}
