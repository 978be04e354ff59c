/**
 * Live checks on one small grey copy of the preview (the guide plus its margin): exposure, glare,
 * focus and, for documents, whether a card fills the guide. Pure functions on a GreyImage, so
 * they run the same in tests, on the page and (should it ever move there) in a worker.
 *
 * Every distance is a fraction of the guide's size and every count a fraction of the lines
 * looked at, so the card check reads the same at any copy size; the focus and exposure bars are
 * those of the pipeline at its own copy size (ANALYSIS_LONG_EDGE), see LIVE_THRESHOLDS.
 */
import type { CaptureRole } from '../image/pipeline.js';
import { EXPOSURE, FOCUS, frameProblem, GLARE, LIVE_MARGIN } from '../image/capture-thresholds.js';
import { cardFit, guideBox, type CardFit, type GuideMargin } from './card-fit.js';
import { CHECK_LONG_EDGE, laplacianVariance, meanBrightness, type GreyImage } from '../image/quality.js';

export type GuidanceHint = 'too-dark' | 'glare' | 'blurry' | 'move-closer' | 'no-document' | 'hold-still' | null;

export { cardFit, type CardFit, type GuideMargin } from './card-fit.js';

export interface FrameAnalysis {
  /** Mean luma of the whole copy, 0..255 (the pipeline's brightness measure). */
  brightness: number;
  /** Fraction of the guide's pixels that are near white (blown-out highlights). */
  glare: number;
  /** Laplacian variance of the whole copy (the pipeline's focus measure, at the copy's size). */
  sharpness: number;
  /** Whether a card-like quadrilateral fills the guide; null for the selfie. */
  card: CardFit | null;
  /** The first thing to fix, or null when the frame passes. Never 'hold-still' (steadiness is not known here). */
  hint: GuidanceHint;
  passes: boolean;
}

export interface AnalyzeOptions {
  role: CaptureRole;
  /** The margin around the guide in the copy, as a fraction of the guide's size on each side. */
  margin: GuideMargin;
}

/**
 * The long edge of the copy the sampler analyses: the pipeline's own check size, so the live
 * focus measure is the pipeline's measure on (nearly) the same pixels. A smaller copy would be
 * cheaper but the Laplacian's variance does not scale with it by one factor: on the card picture
 * a 192 px copy read 1.3x the 256 px value when sharp and 2.8x when blurred, so no single live bar
 * would both pass sharp frames and keep blurred ones out of the pipeline's refusal.
 */
export const ANALYSIS_LONG_EDGE = CHECK_LONG_EDGE;

/**
 * The bars the live checks apply, as the shared module makes them (image/capture-thresholds.ts):
 * the pipeline's own, with the live margin. For tests and readers; analyzeFrame asks the module.
 */
export const LIVE_THRESHOLDS = {
  dark: EXPOSURE.dark + LIVE_MARGIN.exposure,
  bright: EXPOSURE.bright - LIVE_MARGIN.exposure,
  blur: {
    documentFront: FOCUS.documentFront * LIVE_MARGIN.focus,
    documentBack: FOCUS.documentBack * LIVE_MARGIN.focus,
    selfie: FOCUS.selfie * LIVE_MARGIN.focus,
  } satisfies Record<CaptureRole, number>,
  glareLuma: GLARE.luma,
  glareFraction: GLARE.fraction,
} as const;

/** Fraction of the guide's pixels at or above the glare luma. */
function glareFraction(image: GreyImage, box: ReturnType<typeof guideBox>): number {
  const { width, grey } = image;
  const x0 = Math.max(0, Math.round(box.x0));
  const x1 = Math.min(width, Math.round(box.x1));
  const y0 = Math.max(0, Math.round(box.y0));
  const y1 = Math.min(image.height, Math.round(box.y1));
  let clipped = 0;
  for (let y = y0; y < y1; y++) {
    for (let i = y * width + x0, end = y * width + x1; i < end; i++) if (grey[i]! >= GLARE.luma) clipped++;
  }
  const n = (x1 - x0) * (y1 - y0);
  return n > 0 ? clipped / n : 0;
}

/** The hint for each of the shared module's problems: a mean too bright is the glare hint's advice too. */
const LIVE_HINT = {
  'too-dark': 'too-dark',
  'too-bright': 'glare',
  'no-document': 'no-document',
  'document-too-far': 'move-closer',
  blurry: 'blurry',
  none: null,
} as const satisfies Record<NonNullable<ReturnType<typeof frameProblem>> | 'none', GuidanceHint>;

/** The checks in the order a person should fix them: light first (it spoils everything else), then framing, then focus. */
export function analyzeFrame(image: GreyImage, options: AnalyzeOptions): FrameAnalysis {
  const { role, margin } = options;
  const brightness = meanBrightness(image);
  const sharpness = laplacianVariance(image);
  const document = role !== 'selfie';
  const glare = glareFraction(image, guideBox(image, margin));
  const card = document ? cardFit(image, margin) : null;
  const hint = LIVE_HINT[frameProblem({ brightness, sharpness, fit: card, glare }, role, true) ?? 'none'];
  return { brightness, glare, sharpness, card, hint, passes: hint === null };
}
