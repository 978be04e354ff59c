/**
 * The live guidance's grey copy straight from a camera frame's luma plane, in the image worker:
 * a VideoFrame in a YUV format (I420, NV12...) carries the grey copy's values already, so the
 * guide's region is copied out (`copyTo`) and averaged down, with no conversion to RGB and no
 * canvas. On Chromium's camera frames that is a few milliseconds against 25-30 for the canvas
 * read (region-reader.ts), which stays the way for bitmaps and RGB frames.
 *
 * The copy means what the canvas copy means: limited-range luma is stretched to 0..255 (what
 * the RGB conversion and the 0.299/0.587/0.114 luma of region-reader.ts give for BT.601), and
 * each copy pixel is the mean of the frame pixels under it (the canvas's halvings average in
 * 2x2 steps). Outside the frame the copy is mid grey, as there.
 */
import type { GreyImage } from '../image/quality.js';
import { copyGeometry, type PixelRect } from './region-reader.js';

/** Formats whose first plane is the luma (Y) at full resolution. */
const LUMA_FIRST = new Set(['I420', 'I420A', 'I422', 'I422A', 'I444', 'I444A', 'NV12']);

/** Whether this frame's luma can be read directly. */
export function hasLumaPlane(frame: VideoFrame): boolean {
  return frame.format !== null && LUMA_FIRST.has(frame.format);
}

/** How the frame's luma maps to 0..255: limited range (16..235) is stretched, as the RGB conversion would. */
export function lumaRange(frame: VideoFrame): { gain: number; black: number } {
  return frame.colorSpace?.fullRange === true ? { gain: 1, black: 0 } : { gain: 255 / 219, black: 16 };
}

/** For each copy column (or row), the first and last+1 source index it averages, in the source's coordinates. */
function spans(start: number, length: number, count: number): Int32Array {
  const out = new Int32Array(count * 2);
  const step = length / count;
  for (let i = 0; i < count; i++) {
    const a = Math.floor(start + i * step);
    out[i * 2] = a;
    out[i * 2 + 1] = Math.max(a + 1, Math.floor(start + (i + 1) * step));
  }
  return out;
}

/**
 * The grey copy of `region` grown by `margin`, long edge `longEdge`, from the frame's luma plane.
 * The caller checks hasLumaPlane first; the frame is not closed here.
 */
export async function readLuma(frame: VideoFrame, region: PixelRect, margin: number, longEdge: number): Promise<GreyImage> {
  const { crop, width, height } = copyGeometry(region, margin, longEdge);
  const fw = frame.displayWidth;
  const fh = frame.displayHeight;
  // The part of the crop inside the frame, on even pixels (chroma planes are subsampled 2x).
  const x0 = Math.max(0, Math.floor(crop.x / 2) * 2);
  const y0 = Math.max(0, Math.floor(crop.y / 2) * 2);
  const x1 = Math.min(fw, Math.ceil((crop.x + crop.width) / 2) * 2);
  const y1 = Math.min(fh, Math.ceil((crop.y + crop.height) / 2) * 2);
  const grey = new Float32Array(width * height).fill(128);
  if (x1 <= x0 || y1 <= y0) return { width, height, grey };
  const rect = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  const data = new Uint8Array(frame.allocationSize({ rect }));
  const [luma] = await frame.copyTo(data, { rect });
  const { offset, stride } = luma!;
  const { gain, black } = lumaRange(frame);
  const cols = spans(crop.x, crop.width, width);
  const rows = spans(crop.y, crop.height, height);
  for (let oy = 0; oy < height; oy++) {
    const ya = Math.max(y0, rows[oy * 2]!);
    const yb = Math.min(y1, rows[oy * 2 + 1]!);
    if (yb <= ya) continue;
    for (let ox = 0; ox < width; ox++) {
      const xa = Math.max(x0, cols[ox * 2]!);
      const xb = Math.min(x1, cols[ox * 2 + 1]!);
      if (xb <= xa) continue;
      let sum = 0;
      for (let y = ya; y < yb; y++) {
        const row = offset + (y - y0) * stride - x0;
        for (let x = xa; x < xb; x++) sum += data[row + x]!;
      }
      const mean = sum / ((yb - ya) * (xb - xa));
      grey[oy * width + ox] = Math.min(255, Math.max(0, (mean - black) * gain));
    }
  }
  return { width, height, grey };
}
