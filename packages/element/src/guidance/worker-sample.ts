/**
 * A live-guidance sample as the image worker takes it: the guide's region of a preview frame read
 * as a small grey copy and analysed there, so that neither the frame's conversion (the costly
 * part in Chromium, where the first read of a new video frame pays for it) nor the checks hold
 * the page's main thread. A camera frame in a YUV format is read from its luma plane
 * (luma-reader.ts); anything else with the page's canvas reader. The checks are the page's.
 */
import type { FramePixels } from '../image/prepare.js';
import type { GuidanceRequest, GuidanceSample } from '../image/worker-protocol.js';
import { analyzeFrame, ANALYSIS_LONG_EDGE } from './frame-analysis.js';
import { hasLumaPlane, readLuma } from './luma-reader.js';
import { RegionReader } from './region-reader.js';

/** Kept from sample to sample: its canvases are sized once per guide. */
let reader: RegionReader | null = null;

function frameSize(frame: FramePixels): { width: number; height: number } {
  return 'displayWidth' in frame
    ? { width: frame.displayWidth, height: frame.displayHeight }
    : { width: frame.width, height: frame.height };
}

/** Reads and analyses the guide's region of the request's frame, and closes the frame. */
export async function sampleInWorker(request: GuidanceRequest): Promise<GuidanceSample> {
  const { frame, guide, margin, role } = request;
  const start = performance.now();
  try {
    const { width: w, height: h } = frameSize(frame);
    const region = { x: guide.x * w, y: guide.y * h, width: guide.width * w, height: guide.height * h };
    let grey;
    if ('displayWidth' in frame && hasLumaPlane(frame)) grey = await readLuma(frame, region, margin, ANALYSIS_LONG_EDGE);
    else {
      reader ??= new RegionReader();
      grey = reader.read(frame, w, h, region, margin);
    }
    const analysis = analyzeFrame(grey, { role, margin });
    return { grey, analysis, ms: performance.now() - start };
  } finally {
    frame.close();
  }
}
