/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { TRACK, countsWhole, keptInSquare, nextTrack, trackSquare, type FaceTrack } from './face-track.js';

/** A 240x320 frame (the analysed selfie), the face's outline about a quarter of its width, in the middle. */
const W = 240;
const H = 320;
const face = { x: 90, y: 130, width: 60, height: 64 };
const followed: FaceTrack = { video: 1, box: face, squareFrames: 0 };

describe('following a face across the frames of one video', () => {
  it('looks in a square around the last outline, TRACK.squareScale its larger side, centred on it', () => {
    const square = trackSquare(followed, 1, W, H)!;
    const side = Math.round(64 * TRACK.squareScale);
    expect(square).to.deep.equal({ x: Math.round(120 - side / 2), y: Math.round(162 - side / 2), width: side, height: side });
  });

  it('keeps the square inside the frame, and never larger than it', () => {
    expect(trackSquare({ ...followed, box: { x: 0, y: 0, width: 40, height: 40 } }, 1, W, H)).to.include({ x: 0, y: 0 });
    const corner = trackSquare({ ...followed, box: { x: 210, y: 290, width: 30, height: 30 } }, 1, W, H)!;
    expect(corner.x + corner.width).to.equal(W);
    expect(corner.y + corner.height).to.equal(H);
    // A face come close: the square is the frame's short side.
    expect(trackSquare({ ...followed, box: { x: 10, y: 40, width: 220, height: 240 } }, 1, W, H)).to.include({ width: W, height: W });
  });

  it('looks at the whole frame for another video, a frame without one, and no face followed', () => {
    expect(trackSquare(followed, 2, W, H), 'another video').to.equal(null);
    expect(trackSquare(followed, undefined, W, H), 'no video').to.equal(null);
    expect(trackSquare(null, 1, W, H), 'nothing followed').to.equal(null);
  });

  it('counts the whole frame’s faces every TRACK.wholeEvery frames followed, and starts counting again after', () => {
    let track: FaceTrack | null = nextTrack(null, 1, { faces: 1, box: face, inSquare: false });
    const looks: string[] = [];
    for (let i = 0; i < 2 * TRACK.wholeEvery; i++) {
      const counted = countsWhole(track!);
      looks.push(counted ? 'count' : 'square');
      track = nextTrack(track, 1, { faces: 1, box: face, inSquare: true, counted });
    }
    const cycle = [...Array(TRACK.wholeEvery - 1).fill('square'), 'count'];
    expect(looks).to.deep.equal([...cycle, ...cycle]);
  });

  it('forgets the face when a frame shows none or several, or no video is named', () => {
    expect(nextTrack(followed, 1, { faces: 0, inSquare: true })).to.equal(null);
    expect(nextTrack(followed, 1, { faces: 2, box: face, inSquare: false })).to.equal(null);
    expect(nextTrack(followed, undefined, { faces: 1, box: face, inSquare: false })).to.equal(null);
    expect(nextTrack(followed, 2, { faces: 1, box: face, inSquare: true }), 'a new video starts its count').to.deep.equal({
      video: 2,
      box: face,
      squareFrames: 0,
    });
  });

  it('keeps a face found inside the square, not one at an edge of it unless that edge is the frame’s', () => {
    const square = { x: 50, y: 80, width: 140, height: 140 };
    expect(keptInSquare({ x: 90, y: 120, width: 60, height: 60 }, square, W, H)).to.equal(true);
    expect(keptInSquare({ x: 51, y: 120, width: 60, height: 60 }, square, W, H), 'at the left edge').to.equal(false);
    expect(keptInSquare({ x: 90, y: 159, width: 60, height: 60 }, square, W, H), 'at the bottom edge').to.equal(false);
    const atFrameEdge = { x: 0, y: 80, width: 140, height: 140 };
    expect(keptInSquare({ x: 0, y: 120, width: 60, height: 60 }, atFrameEdge, W, H), 'the frame’s own edge').to.equal(true);
  });
});
