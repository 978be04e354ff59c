/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { cardCanvas } from '@onboarding-kit/testing/pixels';
import { DEFAULT_THRESHOLDS } from './pipeline.js';
import { CHECK_LONG_EDGE, checkCanvasCount, greyCopy, laplacianVariance, meanBrightness, releaseCheckCanvases } from './quality.js';
import { canvasFiltersWork } from './test-helpers.js';

/** The calibration is against CSS filters; where the canvas ignores them (WebKit) it is skipped, not passed. */
const calibrationIt = canvasFiltersWork()
  ? it
  : (title: string, body: () => void) =>
      (it as typeof it & { skip: typeof it }).skip(`${title} (skipped: this engine's canvas ignores ctx.filter)`, body);

function measure(filter: string, width = 1280, height = 720) {
  const grey = greyCopy(cardCanvas(width, height, filter));
  return { filter, width, height, sharpness: laplacianVariance(grey), brightness: meanBrightness(grey), grey };
}

describe('quality measures on the card picture (threshold calibration)', () => {
  calibrationIt('sharpness falls as blur grows, and the defaults separate sharp from blur(8px)', () => {
    const rows = ['none', 'blur(1px)', 'blur(2px)', 'blur(3px)', 'blur(5px)', 'blur(8px)'].map((f) => measure(f));
    console.log(`sharpness: ${rows.map((r) => `${r.filter}=${r.sharpness.toFixed(0)}`).join(' ')}`);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.sharpness).to.be.below(rows[i - 1]!.sharpness);
    expect(rows[0]!.sharpness).to.be.above(DEFAULT_THRESHOLDS.blur.documentFront * 5);
    // blur(5px) still reads as a document; blur(8px) does not.
    expect(rows[4]!.sharpness).to.be.above(DEFAULT_THRESHOLDS.blur.documentFront);
    expect(rows[5]!.sharpness).to.be.below(DEFAULT_THRESHOLDS.blur.documentFront);
    expect(rows[0]!.grey.width).to.equal(CHECK_LONG_EDGE);
  });

  it('sharpness hardly depends on the input resolution (the grey copy has a fixed size)', () => {
    const small = measure('none', 1280, 720);
    const large = measure('none', 3840, 2160);
    console.log(`sharpness 1280=${small.sharpness.toFixed(0)} 3840=${large.sharpness.toFixed(0)}`);
    expect(large.sharpness / small.sharpness).to.be.within(0.6, 1.6);
  });

  calibrationIt('brightness: the picture is mid-range, darkened/brightened versions cross the defaults', () => {
    const filters = ['brightness(0.3)', 'brightness(0.5)', 'none', 'brightness(1.7)', 'brightness(2.2)', 'brightness(3)'];
    const rows = filters.map((f) => measure(f));
    console.log(`brightness: ${rows.map((r) => `${r.filter}=${r.brightness.toFixed(0)}`).join(' ')}`);
    const [dark, dim, normal, lit, washed, blown] = rows.map((r) => r.brightness) as number[];
    expect(dark).to.be.below(DEFAULT_THRESHOLDS.dark);
    expect(dim).to.be.above(DEFAULT_THRESHOLDS.dark);
    expect(normal).to.be.within(100, 180);
    expect(lit).to.be.below(DEFAULT_THRESHOLDS.bright);
    expect(washed).to.be.below(DEFAULT_THRESHOLDS.bright);
    expect(blown).to.be.above(DEFAULT_THRESHOLDS.bright);
  });

  it('the canvases kept between calls carry nothing over: each copy reads its own picture only', () => {
    const card = () => greyCopy(cardCanvas(1280, 720));
    const first = card();
    // Another size in between (its own canvases), then a transparent picture the card's size:
    // it must read as empty, not as the card left on a kept canvas.
    const other = greyCopy(cardCanvas(1920, 1080));
    expect(other.width).to.equal(CHECK_LONG_EDGE);
    const empty = greyCopy(new OffscreenCanvas(1280, 720));
    expect(meanBrightness(empty)).to.equal(0);
    expect(laplacianVariance(empty)).to.equal(0);
    const again = card();
    expect([again.width, again.height]).to.deep.equal([first.width, first.height]);
    expect(Array.from(again.grey)).to.deep.equal(Array.from(first.grey));
  });

  it('the check canvases are let go a while after the last check, with the downscale they held', async () => {
    releaseCheckCanvases();
    greyCopy(cardCanvas(1280, 720), CHECK_LONG_EDGE, 300);
    expect(checkCanvasCount()).to.be.above(0);
    // Another check before the time is up keeps them for another while: past the first deadline, still there.
    await new Promise((resolve) => setTimeout(resolve, 200));
    greyCopy(cardCanvas(1280, 720), CHECK_LONG_EDGE, 300);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(checkCanvasCount()).to.be.above(0);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(checkCanvasCount()).to.equal(0);
  });

  it('a flat grey image has zero sharpness and its grey level as brightness', () => {
    const canvas = new OffscreenCanvas(800, 600);
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = 'rgb(128,128,128)';
    ctx.fillRect(0, 0, 800, 600);
    const grey = greyCopy(canvas);
    expect(laplacianVariance(grey)).to.be.below(0.01);
    expect(meanBrightness(grey)).to.be.closeTo(128, 0.5);
  });
});
