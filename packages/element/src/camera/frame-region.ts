/**
 * The part of a camera frame to keep, carried on the frame's pixels: the capture hands over the
 * whole frame (a VideoFrame, no copy on the page) and the image worker cuts the region out. Not
 * the VideoFrame's own `visibleRect`: WebKit draws a VideoFrame's whole coded picture whatever its
 * visibleRect.
 *
 * The mark is a property under a registered symbol, not an entry in a module's own WeakMap: in the
 * script-tag builds the capture (onboarding-flow.photo-steps.js) and the pipeline
 * (onboarding-flow.pipeline.js) are separate files, each with its own copy of this module, and
 * only `Symbol.for` is the same in both.
 */

export interface FrameRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The registry key both builds share (size.test.ts checks it is in each). */
export const FRAME_REGION_KEY = 'onboarding-kit.frame-region';
const REGION = Symbol.for(FRAME_REGION_KEY);

/** Marks `frame` as standing for its `region` only (the pipeline cuts it out, in its worker where it has one). */
export function setFrameRegion(frame: object, region: FrameRegion): void {
  Object.defineProperty(frame, REGION, { value: { ...region }, configurable: true });
}

/** The region `frame` stands for, if only a part of it. */
export function frameRegionOf(frame: object): FrameRegion | undefined {
  return (frame as { [REGION]?: FrameRegion })[REGION];
}
