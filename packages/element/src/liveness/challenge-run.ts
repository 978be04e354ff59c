/**
 * The liveness challenge while the selfie's camera is live: frames of the preview's video (camera
 * space, never mirrored) analysed one at a time in the liveness worker, fed to the rules
 * (challenge-rules.ts), and the keyframes the rules pick kept as small JPEGs. The page only draws
 * a small copy of each frame and hands it over; a model that cannot load ends the run as
 * `unavailable`, and the shutter works at any moment.
 */
import type { LivenessPrompt, LivenessReport } from '@onboarding-kit/contract';
import { cropRect } from '../camera/guide-geometry.js';
import { canvasToJpeg, context2d, createCanvas } from '../image/canvas.js';
import {
  CHALLENGE_RULES,
  atRest,
  awaitsPerson,
  challengeDone,
  challengeReport,
  drawPrompts,
  openPrompt,
  startChallenge,
  stepChallenge,
  type ChallengeState,
  type KeyframeSlot,
} from './challenge-rules.js';
import { FaceModelUnavailableError, type LivenessWorker } from './liveness-client.js';
import type { FaceLook } from './liveness-protocol.js';

export { livenessWorker } from './liveness-client.js';

/** The long edge of the copy analysed and kept as a keyframe (the part the selfie keeps), px: the worker's own analysis size. */
const FRAME_LONG_EDGE = 320;
/** The pause between two analysed frames, ms: the worker is never queued, and the page stays idle between. */
const FRAME_GAP_MS = 60;
/** A keyframe's JPEG quality: small (about 15 KB at 320 px), enough for a reviewer to see the face. */
const KEYFRAME_QUALITY = 0.7;

/** Each run's frames are one video's to the worker, which follows its face (liveness/face-track.ts). */
let runs = 0;

export interface ChallengeOutcome {
  liveness: LivenessReport;
  keyframes: Blob[];
}

export class ChallengeRun {
  readonly #video: HTMLVideoElement;
  readonly #worker: LivenessWorker;
  readonly #videoId = ++runs;
  readonly #onChange: () => void;
  #state: ChallengeState;
  #unavailable = false;
  #loading = true;
  /** What the view was last told of holdsAutoCapture. */
  #held = true;
  #stopped = false;
  /** When the last prompt ended, and whether a frame since showed the face back at rest. */
  #doneAt: number | null = null;
  #rested = false;
  readonly #keyframes = new Map<KeyframeSlot, Promise<Blob | null>>();
  /** The time each frame took in the worker, ms, and where it looked (the bench reads them). */
  readonly frameTimes: { ms: number; look: FaceLook }[] = [];

  constructor(video: HTMLVideoElement, worker: LivenessWorker, onChange: () => void, prompts: LivenessPrompt[] = drawPrompts()) {
    this.#video = video;
    this.#worker = worker;
    this.#onChange = onChange;
    this.#state = startChallenge(prompts);
    void this.#run();
  }

  /** The prompt to show now; null before the face is found, after the last prompt, and without a model. */
  get prompt(): LivenessPrompt | null {
    return this.#unavailable ? null : openPrompt(this.#state);
  }

  /** The automatic photo waits: the model loads, the baseline forms, the person is on a prompt or comes back to rest from the last. */
  get holdsAutoCapture(): boolean {
    if (this.#stopped || this.#unavailable) return false;
    if (this.done) return !this.#rested && this.#doneAt !== null && performance.now() - this.#doneAt < CHALLENGE_RULES.restMs;
    return this.#loading || awaitsPerson(this.#state, performance.now());
  }

  /** Every prompt was met or timed out, or the challenge cannot run. */
  get done(): boolean {
    return this.#unavailable || challengeDone(this.#state);
  }

  stop(): void {
    this.#stopped = true;
  }

  /** Stops the run and gives its report and keyframes (baseline, then each prompt's peak). */
  async finish(): Promise<ChallengeOutcome> {
    this.stop();
    if (this.#unavailable) return { liveness: { result: 'unavailable', reason: 'model-unavailable', prompts: [] }, keyframes: [] };
    const slots: KeyframeSlot[] = ['baseline', 0, 1];
    const keyframes = (await Promise.all(slots.map((slot) => this.#keyframes.get(slot) ?? null))).filter((b): b is Blob => !!b);
    return { liveness: challengeReport(this.#state), keyframes };
  }

  async #run(): Promise<void> {
    try {
      await this.#worker.loadModel();
    } catch {
      this.#unavailable = true;
      this.#onChange();
      return;
    } finally {
      this.#loading = false;
    }
    // The challenge starts once the model is ready: the baseline's wait counts from here.
    this.#state = startChallenge(this.#state.prompts, performance.now());
    const video = this.#video;
    const canvas = createCanvas(1, 1);
    const ctx = context2d(canvas);
    // After the last prompt, frames go on until the face is back at rest (or the wait is over).
    while (!this.#stopped && (!this.done || this.holdsAutoCapture)) {
      if (document.visibilityState === 'visible' && video.readyState >= 2 && video.videoWidth > 0) {
        // The part of the frame the saved selfie keeps: the face is as large there as the face check sees it.
        const { x, y, width, height } = cropRect('selfie', video.videoWidth, video.videoHeight);
        const scale = Math.min(1, FRAME_LONG_EDGE / Math.max(width, height));
        canvas.width = Math.round(width * scale);
        canvas.height = Math.round(height * scale);
        ctx.drawImage(video, x, y, width, height, 0, 0, canvas.width, canvas.height);
        await this.#analyse(canvas);
      }
      await new Promise((resolve) => setTimeout(resolve, FRAME_GAP_MS));
    }
    // The wait for rest may end with time alone: the view hears that the hold is over.
    this.#onChange();
  }

  /** One frame through the worker and the rules; the canvas still holds the frame afterwards, for a keyframe. */
  async #analyse(canvas: OffscreenCanvas | HTMLCanvasElement): Promise<void> {
    const at = performance.now();
    let analysis;
    try {
      ({ analysis } = await this.#worker.analyse(await createImageBitmap(canvas), this.#videoId).then((answer) => {
        this.frameTimes.push({ ms: answer.ms, look: answer.look });
        return answer;
      }));
    } catch (error) {
      if (error instanceof FaceModelUnavailableError || !(error instanceof Error) || /could not start/.test(error.message)) {
        this.#unavailable = true;
        this.#onChange();
      }
      return;
    }
    if (this.#stopped) return;
    if (this.done) {
      this.#rested ||= atRest(this.#state, analysis);
      if (!this.holdsAutoCapture) this.#onChange();
      return;
    }
    const before = this.prompt;
    const step = stepChallenge(this.#state, { ...analysis, at });
    this.#state = step.state;
    if (step.keyframe !== null)
      this.#keyframes.set(
        step.keyframe,
        canvasToJpeg(canvas, KEYFRAME_QUALITY).catch(() => null),
      );
    // The hold also ends with time alone (awaitsPerson), so it is compared with what the view was told.
    if (this.done) this.#doneAt = performance.now();
    const held = this.holdsAutoCapture;
    if (this.prompt !== before || held !== this.#held || this.done) this.#onChange();
    this.#held = held;
  }
}
