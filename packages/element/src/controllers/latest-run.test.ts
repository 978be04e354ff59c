/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { LatestRun } from './latest-run.js';

describe('LatestRun', () => {
  it('a new run aborts the one before it, which may no longer write', () => {
    const run = new LatestRun();
    expect(run.running).to.equal(false);
    const first = run.begin();
    expect(run.running).to.equal(true);
    expect(run.isCurrent(first)).to.equal(true);
    const second = run.begin();
    expect(first.aborted).to.equal(true);
    expect(run.isCurrent(first)).to.equal(false);
    expect(run.isCurrent(second)).to.equal(true);
    // The replaced run ending does not end the current one.
    expect(run.end(first)).to.equal(false);
    expect(run.running).to.equal(true);
    expect(run.end(second)).to.equal(true);
    expect(run.running).to.equal(false);
    expect(second.aborted).to.equal(false);
  });

  it('cancel aborts the current run and leaves nothing running', () => {
    const run = new LatestRun();
    const signal = run.begin();
    run.cancel();
    expect(signal.aborted).to.equal(true);
    expect(run.isCurrent(signal)).to.equal(false);
    expect(run.running).to.equal(false);
    expect(run.end(signal)).to.equal(false);
    // Harmless with nothing running.
    run.cancel();
    expect(run.running).to.equal(false);
  });

  it('a finished run is no longer current', () => {
    const run = new LatestRun();
    const signal = run.begin();
    run.end(signal);
    expect(run.isCurrent(signal)).to.equal(false);
  });
});
