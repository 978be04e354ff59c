import { expect } from '@open-wc/testing';
import { LIVE_READ_REST, nextLiveRead } from './live-pace.js';

describe('the live reading pace', () => {
  it('rests twice as long as the last read took, so the reader keeps a third of a core at most', () => {
    expect(LIVE_READ_REST).to.equal(2);
    expect(nextLiveRead(1_000, 1_100)).to.equal(1_300);
    const read = 1_100 - 1_000;
    expect(read / (nextLiveRead(1_000, 1_100) - 1_000)).to.be.closeTo(1 / 3, 1e-9);
  });

  it('reads the next frame at once after a read that took no time, and never before the last ended', () => {
    expect(nextLiveRead(500, 500)).to.equal(500);
    expect(nextLiveRead(600, 500)).to.equal(500);
  });
});
