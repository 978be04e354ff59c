/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { DEFAULT_THRESHOLDS } from '../image/prepare.js';
import { greyCopy, laplacianVariance } from '../image/quality.js';
import { analyzeFrame, ANALYSIS_LONG_EDGE, LIVE_THRESHOLDS, type FrameAnalysis } from './frame-analysis.js';
import { DEFAULT_MARGIN } from './frame-sampler.js';
import { RegionReader } from './region-reader.js';
import { blankScene, blurred, cardScene, darkened, guideFor, withGlare } from './test-helpers.js';

const MARGIN = DEFAULT_MARGIN.document;

/** The live analysis of a scene, read the way the sampler reads the video. */
function analyse(scene: OffscreenCanvas, role: 'documentFront' | 'selfie' = 'documentFront'): FrameAnalysis {
  const margin = DEFAULT_MARGIN[role === 'selfie' ? 'selfie' : 'document'];
  const grey = new RegionReader().read(scene, scene.width, scene.height, guideFor(role, scene.width, scene.height), margin);
  return analyzeFrame(grey, { role, margin });
}

/** The pipeline's focus measure on the photo that would be saved (the guide plus its margin, 256 px copy). */
function pipelineSharpness(scene: OffscreenCanvas): number {
  const g = guideFor('documentFront', scene.width, scene.height);
  const crop = new OffscreenCanvas(Math.round(g.width * (1 + 2 * MARGIN)), Math.round(g.height * (1 + 2 * MARGIN)));
  crop
    .getContext('2d')!
    .drawImage(scene, g.x - g.width * MARGIN, g.y - g.height * MARGIN, crop.width, crop.height, 0, 0, crop.width, crop.height);
  return laplacianVariance(greyCopy(crop));
}

const summary = (a: FrameAnalysis) =>
  `card=${a.card} hint=${a.hint} brightness=${a.brightness.toFixed(0)} sharpness=${a.sharpness.toFixed(0)} glare=${(a.glare * 100).toFixed(1)}%`;

describe('analyzeFrame on the card picture', () => {
  it('the card as the fake camera shows it fills the document guide and passes', () => {
    const a = analyse(cardScene());
    console.log(`fits: ${summary(a)}`);
    expect(a.card).to.equal('fits');
    expect(a.hint).to.equal(null);
    expect(a.passes).to.equal(true);
  });

  it('the same at other resolutions and copy sizes (the card check is in fractions of the guide)', () => {
    for (const [w, h] of [
      [1920, 1080],
      [640, 360],
    ] as const) {
      expect(analyse(cardScene(w, h)).card, `${w}x${h}`).to.equal('fits');
    }
    const scene = cardScene();
    for (const longEdge of [128, 192]) {
      const grey = new RegionReader(longEdge).read(
        scene,
        scene.width,
        scene.height,
        guideFor('documentFront', scene.width, scene.height),
        MARGIN,
      );
      expect(analyzeFrame(grey, { role: 'documentFront', margin: MARGIN }).card, `copy ${longEdge} px`).to.equal('fits');
    }
  });

  it('a card turned a few degrees still fits', () => {
    for (const degrees of [-3, 3]) {
      const a = analyse(cardScene(1280, 720, 0.97, degrees));
      expect(a.card, `${degrees}°: ${summary(a)}`).to.equal('fits');
    }
  });

  it('the card at half size is too far: move closer', () => {
    const a = analyse(cardScene(1280, 720, 0.5));
    console.log(`half size: ${summary(a)}`);
    expect(a.card).to.equal('too-far');
    expect(a.hint).to.equal('move-closer');
    expect(a.passes).to.equal(false);
  });

  it('the card at 70 % and 40 % of the guide, straight or turned 6°, is too far as well', () => {
    for (const scale of [0.7, 0.4]) {
      for (const degrees of [0, 6])
        expect(analyse(cardScene(1280, 720, scale, degrees)).card, `scale ${scale}, ${degrees}°`).to.equal('too-far');
    }
  });

  it('a card too close (its edges outside the frame) is not told to come closer', () => {
    for (const scale of [1.2, 1.4, 1.8]) {
      const a = analyse(cardScene(1280, 720, scale));
      expect(a.card, `scale ${scale}`).to.equal('none');
      expect(a.hint).to.equal('no-document');
    }
  });

  it('the bare table shows no document', () => {
    const a = analyse(blankScene());
    expect(a.card).to.equal('none');
    expect(a.hint).to.equal('no-document');
  });

  it('a darkened frame is too dark (before anything else)', () => {
    const a = analyse(darkened(cardScene(), 0.3));
    console.log(`dark: ${summary(a)}`);
    expect(a.hint).to.equal('too-dark');
    expect(a.brightness).to.be.below(LIVE_THRESHOLDS.dark);
    // Dimmed but still usable light passes.
    expect(analyse(darkened(cardScene(), 0.6)).hint).to.equal(null);
  });

  it('a white reflection over the card is glare', () => {
    const a = analyse(withGlare(cardScene(), 0.1));
    console.log(`glare: ${summary(a)}`);
    expect(a.hint).to.equal('glare');
    expect(a.glare).to.be.above(LIVE_THRESHOLDS.glareFraction);
    expect(analyse(cardScene()).glare).to.equal(0);
  });

  it('a blurred card is blurry', () => {
    const a = analyse(blurred(cardScene(), 16));
    console.log(`blurry: ${summary(a)}`);
    expect(a.hint).to.equal('blurry');
    expect(a.sharpness).to.be.below(LIVE_THRESHOLDS.blur.documentFront);
  });

  it('whatever passes live also passes the pipeline focus check (calibration)', () => {
    const rows = [1, 2, 3, 4, 6, 8, 10, 12, 16].map((divisor) => {
      const scene = divisor === 1 ? cardScene() : blurred(cardScene(), divisor);
      return { divisor, live: analyse(scene), pipeline: pipelineSharpness(scene) };
    });
    console.log(
      `sharpness live(${ANALYSIS_LONG_EDGE}px)/pipeline(256px): ` +
        rows.map((r) => `/${r.divisor}=${r.live.sharpness.toFixed(0)}/${r.pipeline.toFixed(0)} ${r.live.hint ?? 'ok'}`).join(', '),
    );
    expect(rows[0]!.live.passes).to.equal(true);
    expect(rows.some((r) => r.live.hint === 'blurry')).to.equal(true);
    for (const r of rows) {
      if (r.live.passes) expect(r.pipeline, `divisor ${r.divisor}`).to.be.above(DEFAULT_THRESHOLDS.blur.documentFront * 1.2);
    }
  });

  it('the selfie has no card check and passes on a sharp, well-lit frame', () => {
    const a = analyse(cardScene(), 'selfie');
    expect(a.card).to.equal(null);
    expect(a.passes).to.equal(true);
    expect(analyse(darkened(cardScene(), 0.3), 'selfie').hint).to.equal('too-dark');
  });
});
