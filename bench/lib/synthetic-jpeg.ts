/**
 * Stand-ins for the companion section when Chromium (the only JPEG encoder here) is missing: a
 * JPEG-shaped file of a given size (SOI, comment segments of pseudo-random bytes, a frame header,
 * EOI) that every server-side check accepts (magic bytes, marker walk to a frame with
 * dimensions, end-of-image marker). The servers never decode pixels, so for them it costs what
 * a real photo of the same size costs; the bench says when it used these.
 */
export function syntheticJpeg(size: number, seed: number): Buffer {
  const sof = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08, 0x04, 0x65, 0x07, 0xd0, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
  ]);
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  let left = size - 2 - sof.length - 2;
  let s = seed >>> 0 || 1;
  while (left > 4) {
    const payload = Math.min(65_533, left - 4);
    const segment = Buffer.alloc(payload + 4);
    segment[0] = 0xff;
    segment[1] = 0xfe; // COM: length-delimited, any bytes allowed
    segment.writeUInt16BE(payload + 2, 2);
    for (let i = 4; i < segment.length; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      segment[i] = s & 0xff;
    }
    parts.push(segment);
    left -= segment.length;
  }
  parts.push(sof, Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}
