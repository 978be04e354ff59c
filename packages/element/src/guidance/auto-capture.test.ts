/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { AutoCaptureMachine, type AutoCaptureState } from './auto-capture.js';
import type { FrameAnalysis, GuidanceHint } from './frame-analysis.js';

const passing: FrameAnalysis = { brightness: 150, glare: 0, sharpness: 2000, card: 'fits', hint: null, passes: true };
const failing = (hint: Exclude<GuidanceHint, null>): FrameAnalysis => ({
  ...passing,
  hint,
  passes: false,
  card: hint === 'move-closer' ? 'too-far' : 'fits',
});

/**
 * The machine at 5 Hz on a clock that moves only when a frame is fed (the machine takes the time
 * with each frame and keeps no timers, so no real time passes in these tests).
 */
function driver(machine = new AutoCaptureMachine()) {
  let now = 10_000;
  const log: AutoCaptureState[] = [];
  return {
    machine,
    log,
    get now() {
      return now;
    },
    feed(analysis: FrameAnalysis, steady = true, frames = 1, everyMs = 200): AutoCaptureState {
      let last!: AutoCaptureState;
      for (let i = 0; i < frames; i++) {
        now += everyMs;
        last = machine.update({ analysis, steady, now });
        log.push(last);
      }
      return last;
    },
    captures: () => log.filter((s) => s.capture).length,
  };
}

describe('AutoCaptureMachine', () => {
  it('takes the photo once the frame has passed and been steady for a second, not before', () => {
    const d = driver();
    // The first passing frame starts the hold at 0; four more frames at 200 ms reach 800 ms.
    d.feed(passing, true, 5);
    expect(d.captures()).to.equal(0);
    expect(d.log.map((s) => s.progress)).to.deep.equal([0, 0.2, 0.4, 0.6, 0.8]);
    const at1s = d.feed(passing);
    expect(at1s.capture).to.equal(true);
    expect(at1s.progress).to.equal(1);
  });

  it('an unsteady frame breaks the hold: the second starts again', () => {
    const d = driver();
    d.feed(passing, true, 4);
    d.feed(passing, false);
    expect(d.log.at(-1)!.progress).to.equal(0);
    d.feed(passing, true, 5);
    expect(d.captures()).to.equal(0);
    expect(d.feed(passing).capture).to.equal(true);
  });

  it('never fires while the frame is unsteady or failing', () => {
    const d = driver();
    d.feed(passing, false, 30);
    d.feed(failing('blurry'), true, 30);
    expect(d.captures()).to.equal(0);
    expect(Math.max(...d.log.map((s) => s.progress))).to.equal(0);
  });

  it('fires only once, and again only after reset()', () => {
    const d = driver();
    d.feed(passing, true, 30);
    expect(d.captures()).to.equal(1);
    expect(d.machine.captured).to.equal(true);
    expect(d.log.at(-1)!.progress).to.equal(0);
    d.machine.reset();
    d.feed(passing, true, 6);
    expect(d.captures()).to.equal(2);
  });

  it('disabled: hints only, no progress, no photo; enabling starts a fresh hold', () => {
    const d = driver(new AutoCaptureMachine({ enabled: false }));
    d.feed(passing, true, 30);
    expect(d.captures()).to.equal(0);
    expect(d.log.every((s) => s.progress === 0)).to.equal(true);
    expect(d.feed(failing('too-dark'), true, 2).hint).to.equal('too-dark');
    d.machine.setEnabled(true);
    d.feed(passing, true, 5);
    expect(d.captures()).to.equal(0);
    expect(d.feed(passing).capture).to.equal(true);
  });

  it('a hint shows after two frames in a row, and one odd frame shows nothing', () => {
    const d = driver();
    expect(d.feed(failing('glare')).hint).to.equal(null);
    expect(d.feed(failing('glare')).hint).to.equal('glare');
    const other = driver();
    other.feed(failing('blurry'));
    other.feed(failing('move-closer'));
    other.feed(failing('blurry'));
    expect(other.log.map((s) => s.hint)).to.deep.equal([null, null, null]);
  });

  it('a shown hint stays at least a second, then gives way', () => {
    const d = driver();
    d.feed(failing('too-dark'), true, 2);
    expect(d.log.at(-1)!.hint).to.equal('too-dark');
    // The light is fixed at once: the hint stays until a second has gone since it showed.
    const after = [1, 2, 3, 4, 5].map(() => d.feed(passing, false).hint);
    expect(after).to.deep.equal(['too-dark', 'too-dark', 'too-dark', 'too-dark', 'hold-still']);
  });

  it('a passing but moving frame asks to hold still', () => {
    const d = driver();
    expect(d.feed(passing, false, 2).hint).to.equal('hold-still');
  });
});
