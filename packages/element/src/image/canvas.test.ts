/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { context2d, giveCanvas, keptCanvasCount, releaseKeptCanvases, takeCanvas } from './canvas.js';

describe('kept canvases (takeCanvas / giveCanvas)', () => {
  afterEach(() => releaseKeptCanvases());

  it('a canvas given back is the next one taken of its size, wiped of the photo it held', () => {
    const first = takeCanvas(64, 48);
    const ctx = context2d(first);
    ctx.fillStyle = 'rgb(200, 100, 50)';
    ctx.fillRect(0, 0, 64, 48);
    giveCanvas(first);
    const again = takeCanvas(64, 48);
    expect(again).to.equal(first);
    const pixels = context2d(again).getImageData(0, 0, 64, 48).data;
    expect(
      pixels.some((v) => v !== 0),
      'no pixel of the earlier photo is left',
    ).to.equal(false);
    giveCanvas(again);
  });

  it('another size gets a new canvas; at most two are kept, and the ones let go give their memory back', () => {
    const a = takeCanvas(64, 48);
    const b = takeCanvas(32, 24);
    const c = takeCanvas(16, 12);
    expect(new Set([a, b, c]).size).to.equal(3);
    giveCanvas(a);
    giveCanvas(b);
    giveCanvas(c);
    expect(keptCanvasCount()).to.equal(2);
    // The oldest went: its pixels released at once.
    expect([a.width, a.height]).to.deep.equal([0, 0]);
    expect(takeCanvas(64, 48)).to.not.equal(a);
    expect(takeCanvas(16, 12)).to.equal(c);
    releaseKeptCanvases();
    expect(keptCanvasCount()).to.equal(0);
    expect([b.width, b.height]).to.deep.equal([0, 0]);
  });

  it('kept canvases are let go a while after the last photo, memory and all', async () => {
    const canvas = takeCanvas(64, 48);
    giveCanvas(canvas, 20);
    expect(keptCanvasCount()).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(keptCanvasCount()).to.equal(0);
    expect([canvas.width, canvas.height]).to.deep.equal([0, 0]);
  });
});
