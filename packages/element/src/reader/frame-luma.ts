/**
 * A camera frame's grey levels for the reader, straight from its luma plane: no RGB conversion and
 * no bitmap. WebKit's worker made a bitmap of a live frame only with its page's help (the page held
 * for tens of milliseconds a read); the luma plane is a copy the worker makes on its own.
 */
import { hasLumaPlane, lumaRange } from '../guidance/luma-reader.js';
import type { LumaFrame } from './reader-protocol.js';

/** The frame's grey levels at its full size; null for a format without a luma plane. The frame is not closed here. */
export async function frameLuma(frame: VideoFrame): Promise<LumaFrame | null> {
  if (!hasLumaPlane(frame) || !frame.visibleRect) return null;
  const { width, height } = frame.visibleRect;
  const data = new Uint8Array(frame.allocationSize());
  const [plane] = await frame.copyTo(data);
  const { offset, stride } = plane!;
  const { gain, black } = lumaRange(frame);
  const levels = Uint8Array.from({ length: 256 }, (_, v) => Math.min(255, Math.max(0, Math.round((v - black) * gain))));
  const luma = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = offset + y * stride;
    for (let x = 0; x < width; x++) luma[y * width + x] = levels[data[row + x]!]!;
  }
  return { luma, width, height };
}
