/** A JPEG's marker segments up to its image data: each marker and the offset of its `FF`. */
function* jpegSegments(bytes: Uint8Array): Generator<{ marker: number; at: number }> {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return;
  let o = 2;
  while (o + 4 <= bytes.length) {
    if (bytes[o] !== 0xff) return;
    const marker = bytes[o + 1]!;
    if (marker === 0xff) {
      o++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      o += 2;
      continue;
    }
    if (marker === 0xda) return;
    yield { marker, at: o };
    o += 2 + ((bytes[o + 2]! << 8) | bytes[o + 3]!);
  }
}

const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Width and height from a JPEG's SOF header, without decoding the image. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  for (const { marker, at } of jpegSegments(bytes)) {
    if (isSof(marker))
      return at + 9 <= bytes.length
        ? { height: (bytes[at + 5]! << 8) | bytes[at + 6]!, width: (bytes[at + 7]! << 8) | bytes[at + 8]! }
        : null;
  }
  return null;
}

/**
 * The EXIF Orientation (1 to 8) of a JPEG from its APP1 segment, 1 when it has none. 5 to 8 turn
 * the picture a quarter: its upright width is the SOF's height.
 */
export function jpegOrientation(bytes: Uint8Array): number {
  for (const { marker, at: o } of jpegSegments(bytes)) {
    if (isSof(marker)) return 1;
    // "Exif\0\0" then a TIFF header.
    if (
      marker === 0xe1 &&
      o + 18 <= bytes.length &&
      bytes[o + 4] === 0x45 &&
      bytes[o + 5] === 0x78 &&
      bytes[o + 6] === 0x69 &&
      bytes[o + 7] === 0x66
    ) {
      const tiff = o + 10;
      const little = bytes[tiff] === 0x49;
      const u16 = (at: number) => (little ? bytes[at]! | (bytes[at + 1]! << 8) : (bytes[at]! << 8) | bytes[at + 1]!);
      const u32 = (at: number) => (little ? u16(at) + u16(at + 2) * 0x10000 : u16(at) * 0x10000 + u16(at + 2));
      const ifd = tiff + u32(tiff + 4);
      if (ifd + 2 > bytes.length) return 1;
      const entries = u16(ifd);
      for (let i = 0; i < entries; i++) {
        const entry = ifd + 2 + i * 12;
        if (entry + 10 > bytes.length) return 1;
        if (u16(entry) === 0x0112) {
          const value = u16(entry + 8);
          return value >= 1 && value <= 8 ? value : 1;
        }
      }
      return 1;
    }
  }
  return 1;
}
