/**
 * The liveness challenge's rules (docs/page-api.md#liveness-challenge), pure: which prompts, when a
 * baseline is set, when a prompt is met, which frames are kept as keyframes, and the report. The
 * page feeds it the worker's analysis of each frame (FaceAnalysis) with the frame's time.
 *
 * Directions are the person's own: `turn-left` is a turn to the person's left. The landmarks are
 * in camera space (unmirrored), where the person's left is the frame's right, so a turn to the
 * left moves the nose towards the frame's right and raises the yaw (face-pose.ts). The mirrored
 * preview changes what the person sees, not what is measured.
 */
import type { LivenessPrompt, LivenessReport } from '@onboarding-kit/contract';
import type { FaceAnalysis } from './liveness-protocol.js';

export const CHALLENGE_RULES = {
  /** Frames with exactly one face whose median is the baseline. */
  baselineFrames: 3,
  /** How far the yaw must move from the baseline's in the asked direction (a turn of roughly 15 degrees; a flat picture swung round keeps its ratio, so never reaches it). */
  turnYaw: 0.15,
  /** How much wider than at the baseline the face must grow for `come-closer`. */
  closerGrowth: 1.25,
  /** Consecutive analysed frames a prompt must hold: one odd frame never meets it. */
  holdFrames: 2,
  /** How long each prompt is given from when it is shown, ms. */
  promptMs: 8_000,
  /**
   * Frames analysed on a prompt before its time can run out: a slow device (a frame every few
   * seconds) is given up to `promptMaxMs`, since a prompt is met only over `holdFrames` frames
   * after the person has moved, and the slowness is the device's, not the person's.
   */
  promptLooks: 6,
  promptMaxMs: 16_000,
  /**
   * How long the automatic photo waits for a person to start on a prompt, ms: once they move a
   * third of the way, it waits for the prompt's end; a face that never moves (a picture) is taken.
   */
  responseMs: 3_000,
  /**
   * Frames analysed on a prompt before a face that has not moved is taken to be a picture: a slow
   * device is waited for until it has looked this often (within the prompt's time), since a person
   * who moved at once shows it only in the frames analysed after.
   */
  responseLooks: 4,
  startedProgress: 1 / 3,
  /** How long the automatic photo waits for the baseline once the model is ready, ms, however few frames were analysed. */
  baselineMs: 6_000,
  /**
   * Frames analysed without a baseline after which no face is taken to be there: a slow device
   * (a frame a second) is waited for until it has looked this often, up to `baselineMaxMs`.
   */
  baselineLooks: 8,
  baselineMaxMs: 15_000,
  /** How long the automatic photo waits after the last prompt for the face to come back to rest (frontal, its usual size), ms. */
  restMs: 2_500,
} as const;

/** One analysed frame: what the worker found, and when the frame was taken (ms, any monotonic clock). */
export type ChallengeFrame = FaceAnalysis & { at: number };

export interface ChallengeState {
  /** The two prompts drawn, in the order they are shown. */
  readonly prompts: readonly LivenessPrompt[];
  /** The samples the baseline is made of, until it is set. */
  readonly samples: readonly { yaw: number; width: number }[];
  /** Frames analysed since `shownAt`, whatever they showed: before the baseline, since the challenge started; then since the open prompt was shown. */
  readonly looked: number;
  readonly baseline: { yaw: number; width: number } | null;
  /** Whether each prompt shown so far was met (the last one may still be open). */
  readonly met: readonly boolean[];
  /** The last prompt shown is still on screen. */
  readonly open: boolean;
  /** When the open prompt was shown; before the baseline, when the challenge started. */
  readonly shownAt: number;
  /** Consecutive frames the open prompt has held. */
  readonly streak: number;
  /** The open prompt's best progress so far (1 meets it). */
  readonly peak: number;
}

/** A slot for a keyframe: the baseline, or a prompt's peak (its index). */
export type KeyframeSlot = 'baseline' | number;

/**
 * Two prompts in random order: one turn, its side at random, and `come-closer`. Never both turns:
 * every challenge then asks for one movement a flat picture cannot make (a turn) and one of depth,
 * and a person is never asked to turn one way and straight back the other. `randomBits` gives
 * uniformly random unsigned integers (crypto.getRandomValues by default).
 */
export function drawPrompts(randomBits: () => number = () => crypto.getRandomValues(new Uint32Array(1))[0]!): LivenessPrompt[] {
  const bits = randomBits();
  const turn: LivenessPrompt = bits & 1 ? 'turn-left' : 'turn-right';
  return bits & 2 ? [turn, 'come-closer'] : ['come-closer', turn];
}

/** A challenge that starts looking for the baseline at `at`. */
export function startChallenge(prompts: readonly LivenessPrompt[], at = 0): ChallengeState {
  return { prompts, samples: [], looked: 0, baseline: null, met: [], open: false, shownAt: at, streak: 0, peak: 0 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** How far a frame goes towards meeting `prompt` from the baseline: 1 meets it. */
function progress(prompt: LivenessPrompt, baseline: { yaw: number; width: number }, yaw: number, width: number): number {
  switch (prompt) {
    case 'turn-left':
      return (yaw - baseline.yaw) / CHALLENGE_RULES.turnYaw;
    case 'turn-right':
      return (baseline.yaw - yaw) / CHALLENGE_RULES.turnYaw;
    case 'come-closer':
      return (width / baseline.width - 1) / (CHALLENGE_RULES.closerGrowth - 1);
  }
}

/** The prompt on screen, or null before the baseline is set and after the last prompt. */
export function openPrompt(state: ChallengeState): LivenessPrompt | null {
  return state.open ? state.prompts[state.met.length - 1]! : null;
}

/** Whether every prompt has been met or timed out: the challenge has nothing more to ask. */
export function challengeDone(state: ChallengeState): boolean {
  return state.baseline !== null && !state.open;
}

/** The next prompt shown at `at`, or the state unchanged after the last. */
function nextPrompt(state: ChallengeState, met: boolean[], at: number): ChallengeState {
  const more = met.length < state.prompts.length;
  return { ...state, met: more ? [...met, false] : met, open: more, shownAt: more ? at : state.shownAt, streak: 0, peak: 0, looked: 0 };
}

/**
 * Whether a wait of `ms` from `shownAt` still runs at `now`: longer (up to `maxMs`) on a device
 * that has analysed fewer than `looks` frames meanwhile. Every wait of the challenge is one of these.
 */
function young(state: ChallengeState, now: number, ms: number, looks: number, maxMs: number): boolean {
  const waited = now - state.shownAt;
  return waited < ms || (state.looked < looks && waited < maxMs);
}

/**
 * One analysed frame in: the next state, and the keyframe slot this frame is now the best of
 * (the frame that set the baseline, or a prompt's new peak), if any.
 */
export function stepChallenge(state: ChallengeState, frame: ChallengeFrame): { state: ChallengeState; keyframe: KeyframeSlot | null } {
  const oneFace = frame.faces === 1 && frame.box !== undefined && frame.yaw !== undefined;
  if (!state.baseline) {
    const looked = state.looked + 1;
    if (!oneFace) return { state: { ...state, looked }, keyframe: null };
    const samples = [...state.samples, { yaw: frame.yaw!, width: frame.box!.width }];
    if (samples.length < CHALLENGE_RULES.baselineFrames) return { state: { ...state, samples, looked }, keyframe: null };
    const baseline = { yaw: median(samples.map((s) => s.yaw)), width: median(samples.map((s) => s.width)) };
    return { state: nextPrompt({ ...state, samples: [], baseline }, [], frame.at), keyframe: 'baseline' };
  }
  const prompt = openPrompt(state);
  if (!prompt) return { state, keyframe: null };
  const index = state.met.length - 1;
  const { promptMs, promptLooks, promptMaxMs } = CHALLENGE_RULES;
  if (!young(state, frame.at, promptMs, promptLooks, promptMaxMs))
    return { state: nextPrompt(state, [...state.met], frame.at), keyframe: null };
  const looked = state.looked + 1;
  if (!oneFace) return { state: { ...state, streak: 0, looked }, keyframe: null };
  const reached = progress(prompt, state.baseline, frame.yaw!, frame.box!.width);
  const streak = reached >= 1 ? state.streak + 1 : 0;
  const keyframe = reached > state.peak && reached > 0 ? index : null;
  const peak = Math.max(state.peak, reached);
  if (streak < CHALLENGE_RULES.holdFrames) return { state: { ...state, streak, peak, looked }, keyframe };
  const met = [...state.met];
  met[index] = true;
  return { state: nextPrompt({ ...state, peak }, met, frame.at), keyframe };
}

/**
 * Whether a frame shows the face back at rest after the prompts: within half a turn of the
 * baseline's yaw and half the growth of its width, so that the selfie taken next is frontal.
 */
export function atRest(state: ChallengeState, frame: FaceAnalysis): boolean {
  if (!state.baseline || frame.faces !== 1 || frame.yaw === undefined || !frame.box) return false;
  return (
    Math.abs(frame.yaw - state.baseline.yaw) < CHALLENGE_RULES.turnYaw / 2 &&
    frame.box.width < state.baseline.width * (1 + (CHALLENGE_RULES.closerGrowth - 1) / 2)
  );
}

/**
 * Whether the automatic photo should wait for the person at `now`: while a baseline may still
 * come (a face the model does not find never holds it for long), and while the open prompt is
 * young (in time, and in frames analysed since it was shown) or the person has started on it.
 */
export function awaitsPerson(state: ChallengeState, now: number): boolean {
  const { baselineMs, baselineLooks, baselineMaxMs, responseMs, responseLooks, promptMs, startedProgress } = CHALLENGE_RULES;
  if (!state.baseline) return young(state, now, baselineMs, baselineLooks, baselineMaxMs);
  return state.open && (young(state, now, responseMs, responseLooks, promptMs) || state.peak >= startedProgress);
}

/**
 * The report of a challenge stopped now (the shutter may be pressed at any moment): every prompt
 * drawn, those not met (or never reached) as not met. Stopped before a face was held for the
 * baseline, nothing was asked: that is no failure, and the report says so.
 */
export function challengeReport(state: ChallengeState): LivenessReport {
  if (!state.baseline) return { result: 'unavailable', reason: 'not-asked', prompts: [] };
  const prompts = state.prompts.map((prompt, i) => ({ prompt, met: state.met[i] === true }));
  return { result: prompts.every((p) => p.met) ? 'passed' : 'failed', prompts };
}
