/**
 * The astronaut portrait (packages/element/test/fixtures/faces, see its README) decoded in Node,
 * as RGBA, by a pure-JS JPEG decoder: the same pixels on every machine, no native code.
 */
import { readFileSync } from 'node:fs';
import jpeg from 'jpeg-js';

const PORTRAIT = new URL('../../element/test/fixtures/faces/astronaut.jpg', import.meta.url);

/** `{ width, height, rgba }`, 4 bytes a pixel. */
export function astronautPortrait() {
  const { width, height, data } = jpeg.decode(readFileSync(PORTRAIT), { useTArray: true, formatAsRGBA: true });
  return { width, height, rgba: data };
}
