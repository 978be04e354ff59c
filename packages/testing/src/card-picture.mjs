/**
 * The picture the fake camera shows in browser tests: an ID-1 card (85.60 x 53.98 mm ratio) on
 * a darker table, with a blue header, a photo with a face-like blob, dark text-like stripes and
 * a red stamp. Hard edges everywhere so it is sharp; mean brightness in the middle of the range.
 *
 * Isomorphic (no Node or DOM APIs): the WTR config renders it into the Y4M file the fake camera
 * loops, and tests render it again to compare captured pixels against the known colours.
 */

export const PICTURE_WIDTH = 1280;
export const PICTURE_HEIGHT = 720;

/** The card rectangle, ID-1 aspect ratio. */
export const CARD = Object.freeze({ x: 200, y: 82, width: 880, height: Math.round(880 / (85.6 / 53.98)) });

/** Every colour used, as [r, g, b]. */
export const COLOURS = Object.freeze({
  table: [70, 80, 95],
  card: [225, 228, 215],
  header: [30, 80, 150],
  photo: [170, 185, 200],
  hair: [60, 40, 30],
  skin: [205, 160, 125],
  eye: [40, 30, 30],
  mouth: [150, 60, 60],
  text: [28, 30, 40],
  stamp: [185, 40, 45],
});

const X = CARD.x;
const Y = CARD.y;

/** Text-like stripes: 8 lines of "words" with deterministic lengths. */
function textStripes() {
  const out = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let line = 0; line < 8; line++) {
    const top = Y + 110 + line * 40;
    let x = X + 320;
    const end = X + 840 - line * 30;
    let first = true;
    while (x < end) {
      const len = first ? 60 + Math.floor(next() * 40) : 20 + Math.floor(next() * 90);
      first = false;
      const right = Math.min(end, x + len);
      out.push({ kind: 'rect', x0: x, y0: top, x1: right, y1: top + 16, colour: 'text' });
      x = right + 14;
    }
  }
  return out;
}

/** Shapes painted in order; later shapes cover earlier ones. Coordinates: [x0, x1) x [y0, y1). */
export const SHAPES = Object.freeze([
  { kind: 'rect', x0: X, y0: Y, x1: X + CARD.width, y1: Y + CARD.height, colour: 'card' },
  { kind: 'rect', x0: X, y0: Y, x1: X + CARD.width, y1: Y + 70, colour: 'header' },
  { kind: 'rect', x0: X + 40, y0: Y + 100, x1: X + 290, y1: Y + 420, colour: 'photo' },
  { kind: 'ellipse', cx: X + 165, cy: Y + 180, rx: 85, ry: 55, colour: 'hair' },
  { kind: 'ellipse', cx: X + 165, cy: Y + 265, rx: 80, ry: 105, colour: 'skin' },
  { kind: 'ellipse', cx: X + 135, cy: Y + 255, rx: 9, ry: 9, colour: 'eye' },
  { kind: 'ellipse', cx: X + 195, cy: Y + 255, rx: 9, ry: 9, colour: 'eye' },
  { kind: 'rect', x0: X + 140, y0: Y + 315, x1: X + 190, y1: Y + 325, colour: 'mouth' },
  ...textStripes(),
  { kind: 'rect', x0: X + 740, y0: Y + 445, x1: X + 820, y1: Y + 525, colour: 'stamp' },
]);

/**
 * Points in the middle of uniform areas (at least 8 px from any edge), with the colour expected
 * there: captured frames are compared at these points, where chroma subsampling and scaling
 * cannot blur neighbouring colours in.
 */
export const PROBES = Object.freeze([
  { name: 'table', x: 100, y: 360, colour: 'table' },
  { name: 'table-right', x: 1180, y: 650, colour: 'table' },
  { name: 'card', x: X + 450, y: Y + 480, colour: 'card' },
  { name: 'header', x: X + 440, y: Y + 35, colour: 'header' },
  { name: 'photo', x: X + 70, y: Y + 395, colour: 'photo' },
  { name: 'hair', x: X + 165, y: Y + 145, colour: 'hair' },
  { name: 'skin', x: X + 165, y: Y + 290, colour: 'skin' },
  { name: 'text', x: X + 345, y: Y + 118, colour: 'text' },
  { name: 'stamp', x: X + 780, y: Y + 485, colour: 'stamp' },
]);

function inside(shape, x, y) {
  if (shape.kind === 'rect') return x >= shape.x0 && x < shape.x1 && y >= shape.y0 && y < shape.y1;
  const dx = (x + 0.5 - shape.cx) / shape.rx;
  const dy = (y + 0.5 - shape.cy) / shape.ry;
  return dx * dx + dy * dy <= 1;
}

/** Colour name at a pixel of the 1280x720 picture. */
export function colourNameAt(x, y) {
  let name = 'table';
  for (const shape of SHAPES) if (inside(shape, x, y)) name = shape.colour;
  return name;
}

/** Renders the picture as packed RGB (3 bytes per pixel, row-major). */
export function renderCardPicture() {
  const width = PICTURE_WIDTH;
  const height = PICTURE_HEIGHT;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 3) rgb.set(COLOURS.table, i);
  for (const shape of SHAPES) {
    const colour = COLOURS[shape.colour];
    const bx0 = shape.kind === 'rect' ? shape.x0 : Math.floor(shape.cx - shape.rx);
    const bx1 = shape.kind === 'rect' ? shape.x1 : Math.ceil(shape.cx + shape.rx);
    const by0 = shape.kind === 'rect' ? shape.y0 : Math.floor(shape.cy - shape.ry);
    const by1 = shape.kind === 'rect' ? shape.y1 : Math.ceil(shape.cy + shape.ry);
    for (let y = Math.max(0, by0); y < Math.min(height, by1); y++) {
      for (let x = Math.max(0, bx0); x < Math.min(width, bx1); x++) {
        if (inside(shape, x, y)) rgb.set(colour, (y * width + x) * 3);
      }
    }
  }
  return { width, height, rgb };
}

/** Same picture as RGBA (for `new ImageData(...)` in browser tests). */
export function renderCardPictureRgba() {
  return rgbToRgba(renderCardPicture());
}

/** Packed RGB to RGBA, opaque. */
export function rgbToRgba({ width, height, rgb }) {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
    rgba[q] = rgb[p];
    rgba[q + 1] = rgb[p + 1];
    rgba[q + 2] = rgb[p + 2];
    rgba[q + 3] = 255;
  }
  return { width, height, rgba };
}
