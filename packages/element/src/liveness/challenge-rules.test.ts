/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import type { LivenessPrompt } from '@onboarding-kit/contract';
import {
  atRest,
  awaitsPerson,
  CHALLENGE_RULES,
  challengeDone,
  challengeReport,
  drawPrompts,
  openPrompt,
  startChallenge,
  stepChallenge,
  type ChallengeFrame,
  type ChallengeState,
  type KeyframeSlot,
} from './challenge-rules.js';
import { outlineOf, yawOf, type Point } from './face-pose.js';

const face = (at: number, yaw: number, width = 0.3): ChallengeFrame => ({
  at,
  faces: 1,
  yaw,
  box: { x: 0.35, y: 0.2, width, height: width },
});

/** Runs `frames` through the rules from the start; the slots each frame was kept for. */
function run(prompts: LivenessPrompt[], frames: ChallengeFrame[]): { state: ChallengeState; kept: [number, KeyframeSlot][] } {
  let state = startChallenge(prompts);
  const kept: [number, KeyframeSlot][] = [];
  frames.forEach((frame, i) => {
    const step = stepChallenge(state, frame);
    state = step.state;
    if (step.keyframe !== null) kept.push([i, step.keyframe]);
  });
  return { state, kept };
}

const still = (from: number, count: number, yaw = 0.02, width = 0.3) =>
  Array.from({ length: count }, (_, i) => face(from + i * 200, yaw, width));

describe('the liveness challenge’s rules', () => {
  it('draw one turn and come-closer, in either order, from the random bits', () => {
    expect(drawPrompts(() => 0)).to.deep.equal(['come-closer', 'turn-right']);
    expect(drawPrompts(() => 1)).to.deep.equal(['come-closer', 'turn-left']);
    expect(drawPrompts(() => 2)).to.deep.equal(['turn-right', 'come-closer']);
    expect(drawPrompts(() => 3)).to.deep.equal(['turn-left', 'come-closer']);
    const seen = new Set(Array.from({ length: 64 }, () => drawPrompts().join()));
    expect(seen.size).to.be.above(1);
  });

  it('set the baseline from the first frames with one face, then show the first prompt', () => {
    const { state, kept } = run(
      ['turn-left', 'come-closer'],
      [{ at: 0, faces: 0 }, { at: 100, faces: 2, yaw: 0, box: { x: 0, y: 0, width: 0.2, height: 0.2 } }, ...still(200, 3)],
    );
    expect(state.baseline).to.deep.equal({ yaw: 0.02, width: 0.3 });
    expect(openPrompt(state)).to.equal('turn-left');
    expect(kept).to.deep.equal([[4, 'baseline']]);
  });

  it('meet a turn to the person’s left when the yaw rises past the threshold for the frames it must hold', () => {
    const turn = 0.02 + CHALLENGE_RULES.turnYaw + 0.05;
    const frames = [...still(0, 3), face(800, turn), face(1000, 0.02), face(1200, turn), face(1400, turn + 0.05)];
    const { state, kept } = run(['turn-left', 'come-closer'], frames);
    expect(state.met).to.deep.equal([true, false]);
    expect(openPrompt(state)).to.equal('come-closer');
    expect(kept.map(([, slot]) => slot)).to.deep.equal(['baseline', 0, 0]);
    expect(kept.at(-1)![0]).to.equal(6);
  });

  it('never meet a turn with the other side’s movement, and mind that the nose moves to the frame’s right on a left turn', () => {
    const right = 0.02 - CHALLENGE_RULES.turnYaw - 0.1;
    const { state } = run(['turn-left', 'come-closer'], [...still(0, 3), ...still(800, 6, right)]);
    expect(state.met).to.deep.equal([false]);
    const { state: asked } = run(['turn-right', 'come-closer'], [...still(0, 3), ...still(800, 6, right)]);
    expect(asked.met).to.deep.equal([true, false]);
  });

  it('meet come-closer when the face grows wide enough, and pass once both prompts are met', () => {
    const closer = 0.3 * CHALLENGE_RULES.closerGrowth + 0.02;
    const frames = [...still(0, 3), ...still(800, 2, 0.02, closer), ...still(1400, 2, 0.3)];
    const { state } = run(['come-closer', 'turn-right'], [...frames, ...still(1800, 2, -0.3)]);
    expect(challengeDone(state)).to.equal(true);
    expect(challengeReport(state)).to.deep.equal({
      result: 'passed',
      prompts: [
        { prompt: 'come-closer', met: true },
        { prompt: 'turn-right', met: true },
      ],
    });
  });

  it('a still picture meets no turn: it fails when the time runs out, and each prompt gets its own time', () => {
    const frames = still(0, 3 + Math.ceil((2 * CHALLENGE_RULES.promptMs) / 200) + 2);
    const { state } = run(['turn-left', 'come-closer'], frames);
    expect(challengeDone(state)).to.equal(true);
    expect(challengeReport(state)).to.deep.equal({
      result: 'failed',
      prompts: [
        { prompt: 'turn-left', met: false },
        { prompt: 'come-closer', met: false },
      ],
    });
  });

  it('a frame without one face breaks a prompt’s streak', () => {
    const turn = 0.3;
    const { state } = run(['turn-left', 'come-closer'], [...still(0, 3), face(800, turn), { at: 1000, faces: 0 }, face(1200, turn)]);
    expect(state.met).to.deep.equal([false]);
    expect(state.streak).to.equal(1);
  });

  it('the shutter pressed before the end reports every prompt drawn, those not met as failed; before the baseline, nothing was asked', () => {
    expect(challengeReport(startChallenge(['turn-left', 'come-closer']))).to.deep.equal({
      result: 'unavailable',
      reason: 'not-asked',
      prompts: [],
    });
    const { state } = run(['turn-left', 'come-closer'], still(0, 4));
    expect(challengeReport(state)).to.deep.equal({
      result: 'failed',
      prompts: [
        { prompt: 'turn-left', met: false },
        { prompt: 'come-closer', met: false },
      ],
    });
  });

  it('know the face back at rest after the prompts: near the baseline’s yaw and size, one face', () => {
    const { state } = run(['turn-left', 'come-closer'], still(0, 3));
    const frame = (yaw: number, width: number, faces = 1) => ({ faces, yaw, box: { x: 0.35, y: 0.2, width, height: width } });
    const { yaw, width } = state.baseline!;
    expect(atRest(state, frame(yaw + CHALLENGE_RULES.turnYaw / 3, width))).to.equal(true);
    expect(atRest(state, frame(yaw + CHALLENGE_RULES.turnYaw * 0.6, width)), 'still turned').to.equal(false);
    expect(atRest(state, frame(yaw, width * CHALLENGE_RULES.closerGrowth)), 'still close').to.equal(false);
    expect(atRest(state, frame(yaw, width, 2)), 'two faces').to.equal(false);
    expect(atRest(startChallenge(['turn-left', 'come-closer']), frame(0, 0.3)), 'no baseline').to.equal(false);
  });

  it('read the yaw from the 68 landmarks along the eyes’ line, whatever the roll', () => {
    const points: Point[] = Array.from({ length: 68 }, () => ({ x: 0, y: 0 }));
    const place = (indexes: number[], x: number, y: number) => indexes.forEach((i) => (points[i] = { x, y }));
    place([36, 37, 38, 39, 40, 41], 40, 50);
    place([42, 43, 44, 45, 46, 47], 80, 50);
    place([30], 70, 80);
    expect(yawOf(points)).to.be.closeTo(0.25, 1e-9);
    // The same face rolled 90 degrees: eyes one above the other, the nose offset along them.
    const rolled = points.map(({ x, y }) => ({ x: 100 - y, y: x }));
    expect(Math.abs(yawOf(rolled)!)).to.be.closeTo(0.25, 1e-9);
    expect(yawOf(points.slice(0, 10))).to.equal(null);
    expect(outlineOf(points), 'the outline: the box around every point').to.deep.equal({ x: 0, y: 0, width: 80, height: 80 });
  });

  it('hold the automatic photo for the baseline and a person who starts on a prompt, never for a face that does not move', () => {
    const fresh = startChallenge(['turn-left', 'come-closer'], 1000);
    expect(awaitsPerson(fresh, 1000 + CHALLENGE_RULES.baselineMs - 1)).to.equal(true);
    // A slow device that has looked at few frames yet is waited for, up to a bound.
    expect(awaitsPerson(fresh, 1000 + CHALLENGE_RULES.baselineMs)).to.equal(true);
    expect(awaitsPerson(fresh, 1000 + CHALLENGE_RULES.baselineMaxMs)).to.equal(false);
    // A face the model never finds, looked for often enough, holds the automatic photo no longer.
    let looked = fresh;
    for (let i = 0; i < CHALLENGE_RULES.baselineLooks; i++) looked = stepChallenge(looked, { at: 1000 + i * 100, faces: 0 }).state;
    expect(awaitsPerson(looked, 1000 + CHALLENGE_RULES.baselineMs - 1)).to.equal(true);
    expect(awaitsPerson(looked, 1000 + CHALLENGE_RULES.baselineMs)).to.equal(false);
    const { state: shown } = run(['turn-left', 'come-closer'], still(0, 3));
    const shownAt = shown.shownAt;
    expect(awaitsPerson(shown, shownAt + CHALLENGE_RULES.responseMs - 1)).to.equal(true);
    // A slow device that has looked at few frames since the prompt showed is waited for, within the prompt's time.
    let slow = shown;
    for (let i = 1; i < CHALLENGE_RULES.responseLooks; i++) slow = stepChallenge(slow, face(shownAt + i * 1000, 0.02)).state;
    expect(awaitsPerson(slow, shownAt + CHALLENGE_RULES.responseMs + 500), 'too few frames looked at').to.equal(true);
    expect(awaitsPerson(slow, shownAt + CHALLENGE_RULES.promptMs), 'the prompt’s time is over').to.equal(false);
    const lookedEnough = stepChallenge(slow, face(shownAt + CHALLENGE_RULES.responseLooks * 1000, 0.02)).state;
    expect(
      awaitsPerson(lookedEnough, shownAt + CHALLENGE_RULES.responseMs + 500),
      'looked often enough at a face that did not move',
    ).to.equal(false);
    const started = stepChallenge(shown, face(shownAt + 100, 0.02 + CHALLENGE_RULES.turnYaw / 2)).state;
    expect(awaitsPerson(started, shownAt + CHALLENGE_RULES.responseMs + 1000)).to.equal(true);
    let lookedOften = started;
    for (let i = 1; i < CHALLENGE_RULES.promptLooks; i++)
      lookedOften = stepChallenge(lookedOften, face(shownAt + 100 + i * 100, 0.02)).state;
    const timedOut = stepChallenge(lookedOften, face(shownAt + CHALLENGE_RULES.promptMs + 1, 0.02)).state;
    expect(openPrompt(timedOut)).to.equal('come-closer');
    expect(awaitsPerson(timedOut, timedOut.shownAt + 10)).to.equal(true);
  });

  it('give a prompt more time on a device that analysed too few frames on it, up to its longest', () => {
    const { state: shown } = run(['come-closer', 'turn-left'], still(0, 3));
    const { shownAt, baseline } = shown;
    const closer = baseline!.width * CHALLENGE_RULES.closerGrowth + 0.02;
    // A frame every 3 s (a slow phone, or a browser under load): the face is close on the second
    // frame, and the prompt is met on the third, past its usual time.
    let slow = shown;
    for (const [i, width] of [0.3, closer, closer].entries())
      slow = stepChallenge(slow, face(shownAt + (i + 1) * 3_000, 0.02, width)).state;
    expect(3 * 3_000, 'the third frame comes past the usual time').to.be.above(CHALLENGE_RULES.promptMs);
    expect(slow.met, 'met past the usual time: the device looked too rarely').to.deep.equal([true, false]);
    expect(openPrompt(slow)).to.equal('turn-left');
    // Never past its longest, however few frames were analysed.
    let never = slow;
    never = stepChallenge(never, face(slow.shownAt + CHALLENGE_RULES.promptMaxMs - 1, 0.02)).state;
    expect(openPrompt(never), 'still open at its longest').to.equal('turn-left');
    never = stepChallenge(never, face(slow.shownAt + CHALLENGE_RULES.promptMaxMs + 1, 0.02)).state;
    expect(openPrompt(never)).to.equal(null);
    expect(challengeReport(never)).to.deep.equal({
      result: 'failed',
      prompts: [
        { prompt: 'come-closer', met: true },
        { prompt: 'turn-left', met: false },
      ],
    });
  });
});
