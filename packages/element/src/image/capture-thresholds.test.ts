/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * The one set of bars the live hints and the checks after the shot share: the live side never
 * calls good what the checks refuse, asks the same questions in the same order, and every module
 * that judges a photo reads its numbers from here.
 */
import { expect } from '@open-wc/testing';
import { FACE_LONG_EDGE, MAX_CENTRE_OFFSET, MIN_FACE_WIDTH } from '../face/face-detector.js';
import { LIVE_THRESHOLDS } from '../guidance/frame-analysis.js';
import {
  EXPOSURE,
  FACE,
  FOCUS,
  exposureProblem,
  faceProblem,
  focusBar,
  frameProblem,
  hasGlare,
  LIVE_MARGIN,
  sharpEnough,
} from './capture-thresholds.js';
import { DEFAULT_THRESHOLDS } from './prepare.js';
import type { CaptureRole } from './pipeline.js';

const ROLES: CaptureRole[] = ['documentFront', 'documentBack', 'selfie'];

describe('capture thresholds (one module for the hints and the checks)', () => {
  it('whatever the live hint calls good, the check after the shot accepts (exposure and focus, every role)', () => {
    for (const role of ROLES) {
      for (let brightness = 0; brightness <= 255; brightness += 0.5) {
        for (const sharpness of [0, 10, 39.9, 40, 49.9, 50, 149.9, 150, 187.4, 187.5, 190, 500, 2000]) {
          const measures = { brightness, sharpness, fit: role === 'selfie' ? null : ('fits' as const) };
          if (frameProblem(measures, role, true) === null) {
            expect(frameProblem(measures, role), `${role} ${brightness} ${sharpness}`).to.equal(null);
          }
        }
      }
    }
  });

  it('whatever the check refuses, the live hint names the same problem (or, within its margin, the one before it)', () => {
    const order = ['too-dark', 'too-bright', 'no-document', 'document-too-far', 'blurry'];
    for (const role of ROLES) {
      for (let brightness = 0; brightness <= 255; brightness += 5) {
        for (const sharpness of [0, 30, 100, 160, 1000]) {
          for (const fit of role === 'selfie' ? [null] : (['fits', 'too-far', 'none'] as const)) {
            const after = frameProblem({ brightness, sharpness, fit }, role);
            if (!after) continue;
            const live = frameProblem({ brightness, sharpness, fit }, role, true);
            const why = `${role} ${brightness} ${sharpness} ${fit}`;
            expect(live, why).to.not.equal(null);
            const inMargin = exposureProblem(brightness, true) !== null && exposureProblem(brightness) === null;
            if (inMargin) expect(order.indexOf(live!), why).to.be.below(order.indexOf(after));
            else expect(live, why).to.equal(after);
          }
        }
      }
    }
  });

  it('the live margin is a small one: 10 luma and 1.25x focus, never the other way round', () => {
    expect(exposureProblem(EXPOSURE.dark + 5)).to.equal(null);
    expect(exposureProblem(EXPOSURE.dark + 5, true)).to.equal('too-dark');
    expect(exposureProblem(EXPOSURE.dark - 1)).to.equal('too-dark');
    expect(exposureProblem(EXPOSURE.bright - 5, true)).to.equal('too-bright');
    expect(exposureProblem(EXPOSURE.bright + 1)).to.equal('too-bright');
    expect(LIVE_MARGIN).to.deep.equal({ exposure: 10, focus: 1.25 });
    for (const role of ROLES) {
      expect(focusBar(role, true)).to.equal(FOCUS[role] * 1.25);
      expect(sharpEnough(FOCUS[role], role)).to.equal(true);
      expect(sharpEnough(FOCUS[role], role, true)).to.equal(false);
    }
    // An integrator's own bar replaces the default; the rule stays.
    expect(exposureProblem(100, false, { dark: 200 })).to.equal('too-dark');
    expect(sharpEnough(100, 'documentFront', false, { blur: 1 })).to.equal(true);
  });

  it('an empty frame on a document step is "no document" before it is "blurry", live and after the shot', () => {
    // Firefox's fake camera: a flat green frame (luma 150, no edges at all).
    const empty = { brightness: 150, sharpness: 0, fit: 'none' as const };
    expect(frameProblem(empty, 'documentFront', true)).to.equal('no-document');
    expect(frameProblem(empty, 'documentFront')).to.equal('no-document');
    // A file has no guide: the card check is not asked (fit null) and focus decides.
    expect(frameProblem({ ...empty, fit: null }, 'documentFront')).to.equal('blurry');
    expect(frameProblem({ brightness: 150, sharpness: 1000, fit: 'too-far' }, 'documentBack')).to.equal('document-too-far');
    // Light first: a dark empty frame is told to find light.
    expect(frameProblem({ ...empty, brightness: 20 }, 'documentFront', true)).to.equal('too-dark');
    // Glare is a live question only, and never the selfie's.
    expect(frameProblem({ brightness: 150, sharpness: 1000, fit: 'fits', glare: 0.05 }, 'documentFront', true)).to.equal('too-bright');
    expect(frameProblem({ brightness: 150, sharpness: 1000, fit: null, glare: 0.05 }, 'selfie', true)).to.equal(null);
    expect(hasGlare(0.03)).to.equal(false);
    expect(hasGlare(0.031)).to.equal(true);
  });

  it('a face at arm’s length passes and a smaller one is too small (the measured face boxes of the portrait)', () => {
    // Face boxes the detector gives on the saved part (625x833) of a 720x1280 portrait frame:
    // her head 30 % of the frame's width measures 0.145 of the short side, at 18 % 0.085.
    const box = (share: number, cx = 0.5, cy = 0.5) => {
      const width = share * 625;
      return [{ x: cx * 625 - width / 2, y: cy * 833 - width / 2, width, height: width }];
    };
    expect(faceProblem(box(0.145), 625, 833)).to.equal(null);
    expect(faceProblem(box(0.085), 625, 833)).to.equal('face-too-small');
    expect(FACE.minWidth).to.be.within(0.085 * 1.2, 0.145 / 1.2);
    expect(faceProblem([], 625, 833)).to.equal('no-face');
    expect(faceProblem([...box(0.2), ...box(0.2, 0.2)], 625, 833)).to.equal('several-faces');
    expect(faceProblem(box(0.2, 0.5, 0.5 + 0.5 * 0.31), 625, 833)).to.equal('face-off-center');
    expect(faceProblem(box(0.2, 0.5, 0.5 + 0.5 * 0.29), 625, 833)).to.equal(null);
  });

  it('the frame analysis, the pipeline and the face detector read their bars from this module', () => {
    expect(DEFAULT_THRESHOLDS).to.deep.equal({ blur: FOCUS, dark: EXPOSURE.dark, bright: EXPOSURE.bright });
    expect(LIVE_THRESHOLDS.dark).to.equal(EXPOSURE.dark + LIVE_MARGIN.exposure);
    expect(LIVE_THRESHOLDS.bright).to.equal(EXPOSURE.bright - LIVE_MARGIN.exposure);
    for (const role of ROLES) expect(LIVE_THRESHOLDS.blur[role]).to.equal(focusBar(role, true));
    expect(FACE_LONG_EDGE).to.equal(FACE.longEdge);
    expect(MIN_FACE_WIDTH).to.equal(FACE.minWidth);
    expect(MAX_CENTRE_OFFSET).to.equal(FACE.maxCentreOffset);
  });
});
