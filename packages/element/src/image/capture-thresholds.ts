/**
 * Every bar a photo is held to, for the live hints over the preview and for the checks after the
 * shot alike: one set of numbers and the pure functions that apply them, so that what a hint
 * calls good is what the checks accept. The live side asks the same questions with `live: true`,
 * which adds a small safety margin (LIVE_MARGIN) where a measure drifts between the frame
 * analysed and the frame taken (exposure, focus); it never asks a different question.
 *
 * Imported by the frame analysis (capture view), the pixel work (image worker or page) and the
 * face detector: all lazy, never in the element's first load.
 */
import type { CaptureRole } from './pipeline.js';

/**
 * Exposure, the mean luma (0..255) of the 256 px grey copy. Calibrated on the test card at
 * 1280x720 (quality.test.ts logs the values): picture 130; brightness(0.3) 39, (0.5) 65,
 * (1.7) 177, (2.2) 198, (3) 231. Below 50 nothing can be read; above 220 most of it is blown out.
 */
export const EXPOSURE = { dark: 50, bright: 220 } as const;

/**
 * Focus, the Laplacian variance of the 256 px grey copy. The card: sharp 1536, blur(1px) 1099,
 * (2px) 731, (3px) 482, (5px) 277, (8px) 79; the camera capture of it ~1600. 150 sits between
 * blur(5px) and blur(8px), with room for real photos' softer edges (a sharp picture at 30 %
 * brightness still measures ~146). A face has far fewer edges than a card full of text: the
 * astronaut selfie measures 60 to 300 from a 30 % to a 100 % wide face, so 40.
 */
export const FOCUS: Readonly<Record<CaptureRole, number>> = { documentFront: 150, documentBack: 150, selfie: 40 };

/**
 * What the live checks add to the bars above, so that a frame that passes live is not refused
 * from the slightly different frame taken a moment later (auto-exposure drifts, a hand
 * trembles): 10 luma inside each exposure bar, and 1.25x the focus bar (frame-analysis.test.ts
 * checks that every blurred card passing live measures above 1.2x the bar on the saved crop).
 */
export const LIVE_MARGIN = { exposure: 10, focus: 1.25 } as const;

/**
 * Glare, live only (a mean over the frame hides a small reflection; the person can move away
 * from it, a photo already taken cannot): a pixel at luma 250 or more is clipped, more than 3 %
 * of the guide clipped is a reflection (the test card's own white measures 226).
 */
export const GLARE = { luma: 250, fraction: 0.03 } as const;

/**
 * The document in the guide, by the card check (guidance/frame-analysis.ts cardFit) on the guide
 * plus its margin: its sides found within `near` of the guide's (a tenth of its size) is a card
 * that fills it; a card-shaped box at least `minSize` of the guide across but further in is one
 * too far away. Applied live and to a camera frame after the shot (never to a file, which has
 * no guide).
 */
export const DOCUMENT_FILL = { near: 0.1, minSize: 0.15 } as const;

/**
 * The selfie's face, on a grey copy of the part of the frame the saved selfie keeps (the oval's
 * box plus its margin), live and after the shot alike, or of the whole file:
 * - `longEdge`: the copy the face is looked for on (the same copy on both sides, so the smallest
 *   face found, the detector's 45 px window, is the same). Where it shows none, the middle
 *   `closerArea` of the picture (each axis; a face centred enough lies there) is looked at
 *   `closerLook` times larger, for smaller faces only: on a 720x1280 portrait frame that finds
 *   a head down to about 15 % of the frame's width, so a small face is told to come closer
 *   rather than that there is none.
 * - `minWidth`: the face box (the detector's, about eyebrows to mouth: 55 % of a head's width)
 *   as a share of the copy's short side. On a 720x1280 portrait frame (the saved part 625x833),
 *   an arm's length selfie (the head 30 % of the frame's width) measures 0.145, at 26 % 0.12, at
 *   22 % 0.10 and at 18 % 0.085: 0.11 is the geometric mean of 30 % and 18 %, a margin of 1.3
 *   either way. A landscape 1280x720 frame's saved part is narrower: a head there is accepted
 *   from 12 % of the frame's width.
 * - `maxCentreOffset`: how far the face's centre may stray from the picture's, as a share of its
 *   half-axes (inside the ellipse this much smaller than the oval).
 */
export const FACE = { longEdge: 320, closerLook: 2.5, closerArea: 0.5, minWidth: 0.11, maxCentreOffset: 0.3 } as const;

export type ExposureProblem = 'too-dark' | 'too-bright';
export type FaceProblem = 'no-face' | 'several-faces' | 'face-too-small' | 'face-off-center';
export type DocumentFit = 'fits' | 'too-far' | 'none';
export type FrameProblem = ExposureProblem | 'no-document' | 'document-too-far' | 'blurry';

/**
 * Bars an integrator set on the pipeline in place of the defaults above (PipelineOptions'
 * darkThreshold, brightThreshold, blurThreshold): they replace the bar, the rules stay.
 */
export interface BarOverrides {
  dark?: number;
  bright?: number;
  blur?: number;
}

/** Whether `brightness` is too dark, too bright or fine (null). */
export function exposureProblem(brightness: number, live = false, bars: BarOverrides = {}): ExposureProblem | null {
  const margin = live ? LIVE_MARGIN.exposure : 0;
  if (brightness < (bars.dark ?? EXPOSURE.dark) + margin) return 'too-dark';
  if (brightness > (bars.bright ?? EXPOSURE.bright) - margin) return 'too-bright';
  return null;
}

/** The least sharpness a photo of `role` must measure. */
export function focusBar(role: CaptureRole, live = false, bars: BarOverrides = {}): number {
  return (bars.blur ?? FOCUS[role]) * (live ? LIVE_MARGIN.focus : 1);
}

/** Whether `sharpness` is enough for `role`. */
export function sharpEnough(sharpness: number, role: CaptureRole, live = false, bars: BarOverrides = {}): boolean {
  return sharpness >= focusBar(role, live, bars);
}

/** Whether the clipped share of the guide is a reflection to move away from. */
export function hasGlare(clippedFraction: number): boolean {
  return clippedFraction > GLARE.fraction;
}

/** A face found, in pixels of the `width` x `height` copy it was found on. */
export interface FaceRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Exactly one face, large enough, centred; null when the selfie passes. */
export function faceProblem(faces: readonly FaceRect[], width: number, height: number): FaceProblem | null {
  if (faces.length === 0) return 'no-face';
  if (faces.length > 1) return 'several-faces';
  const face = faces[0]!;
  // The short side, so that a landscape file is not held to a wider face than a portrait selfie.
  if (face.width < FACE.minWidth * Math.min(width, height)) return 'face-too-small';
  const dx = (face.x + face.width / 2 - width / 2) / (width / 2);
  const dy = (face.y + face.height / 2 - height / 2) / (height / 2);
  return Math.hypot(dx, dy) > FACE.maxCentreOffset ? 'face-off-center' : null;
}

/**
 * The first thing wrong with a frame, in the order a person should fix it, for the hint and the
 * refusal alike: light first (it spoils everything else), then where the document is, then focus
 * (an empty frame is "no document", not "blurry"). `fit` is null where there is no guide to
 * fill (the selfie, a file); `glare` only live.
 */
export function frameProblem(
  measures: { brightness: number; sharpness: number; fit: DocumentFit | null; glare?: number },
  role: CaptureRole,
  live = false,
  bars: BarOverrides = {},
): FrameProblem | null {
  const exposure = exposureProblem(measures.brightness, live, bars);
  if (exposure === 'too-dark') return exposure;
  if (exposure || (role !== 'selfie' && measures.glare !== undefined && hasGlare(measures.glare))) return 'too-bright';
  if (measures.fit === 'none') return 'no-document';
  if (measures.fit === 'too-far') return 'document-too-far';
  if (!sharpEnough(measures.sharpness, role, live, bars)) return 'blurry';
  return null;
}
