/**
 * The part of a camera frame to keep, carried beside the frame's pixels: the capture hands over
 * the whole frame (a VideoFrame, no copy on the page) and the image worker cuts the region out
 * with drawImage's source rectangle. Not the VideoFrame's own `visibleRect`: WebKit draws a
 * VideoFrame's whole coded picture whatever its visibleRect.
 */

export interface FrameRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

const regions = new WeakMap<object, FrameRegion>();

/** Marks `frame` as standing for its `region` only (the pipeline cuts it out, in its worker where it has one). */
export function setFrameRegion(frame: object, region: FrameRegion): void {
  regions.set(frame, { ...region });
}

/** The region `frame` stands for, if only a part of it. */
export function frameRegionOf(frame: object): FrameRegion | undefined {
  return regions.get(frame);
}
