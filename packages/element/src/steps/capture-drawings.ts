/**
 * Line drawings of what a capture step photographs: each side of the documents a person is most
 * likely to hold (CNH of the 2022 model, RG, CIN), a passport's photo page, any other card, and
 * the selfie's framing. Stroked in `currentColor`, so the step's colours (and an integrator's
 * theme) apply; the styles (photo-steps.styles.ts) set the stroke and the `m` (muted), `f`
 * (filled), `s` (filled with the background) and `mrz` classes. Every drawing is 176 x 116 units, a card of ID-1 proportions in it.
 *
 * Built on call, never at module load: in the script-tag build `svg` is the element's, handed in
 * after this file has loaded (lazy-kit.ts).
 */
import { svg, type SVGTemplateResult } from 'lit';
import type { CaptureRole } from '../image/pipeline.js';

export const DRAWING_VIEWBOX = '0 0 176 116';

/** Which drawing a step shows: `CNH-front`, `RG-back`, `selfie`, `card-front`... */
export type DrawingKey = `${'CNH' | 'RG' | 'CIN' | 'card'}-${'front' | 'back'}` | 'PASSPORT-front' | 'selfie';

export function drawingKey(role: CaptureRole, documentType: string | null): DrawingKey {
  if (role === 'selfie') return 'selfie';
  const side = role === 'documentFront' ? 'front' : 'back';
  if (documentType === 'PASSPORT') return 'PASSPORT-front';
  const known = documentType === 'CNH' || documentType === 'RG' || documentType === 'CIN';
  return `${known ? documentType : 'card'}-${side}`;
}

const card = () => svg`<rect x="8" y="8" width="160" height="100" rx="7"/>`;

/** A portrait box with a head and shoulders inside. */
function photo(x: number, y: number, w: number, h: number): SVGTemplateResult {
  const cx = x + w / 2;
  const r = w * 0.2;
  const head = y + h * 0.4;
  const shoulders = `M${x + w * 0.16} ${y + h}c0-${h * 0.22} ${w * 0.15}-${h * 0.32} ${w * 0.34}-${h * 0.32}s${w * 0.34} ${h * 0.1} ${w * 0.34} ${h * 0.32}`;
  return svg`<g class="photo"><rect x=${x} y=${y} width=${w} height=${h} rx="2"/><circle cx=${cx} cy=${head} r=${r}/><path d=${shoulders}/></g>`;
}

/** Lines of printed text: `[x, y, length]` each, muted. */
function text(lines: readonly (readonly [number, number, number])[]): SVGTemplateResult {
  return svg`<path class="m" d=${lines.map(([x, y, w]) => `M${x} ${y}h${w}`).join('')}/>`;
}

/** A handwritten signature from `(x, y)`, about 40 units wide. */
const signature = (x: number, y: number) => svg`<path class="m" d=${`M${x} ${y}c3-7 6-7 6-2s2 5 5-1 5-5 5 0 3 4 6-1 4-3 5 1 4 2 13-1`}/>`;

/** QR modules, on a grid of 4-unit cells (11 x 11), outside the three finder patterns. */
const QR_MODULES = [
  [4, 0],
  [6, 0],
  [5, 1],
  [4, 2],
  [6, 2],
  [0, 4],
  [2, 4],
  [5, 4],
  [7, 4],
  [9, 4],
  [10, 5],
  [1, 6],
  [4, 6],
  [6, 6],
  [8, 6],
  [3, 7],
  [10, 7],
  [5, 8],
  [9, 8],
  [4, 9],
  [7, 9],
  [10, 9],
  [6, 10],
  [9, 10],
] as const;

/** A QR code 44 units wide: three finder patterns and its modules. */
function qr(x: number, y: number): SVGTemplateResult {
  const finder = (fx: number, fy: number) =>
    svg`<rect x=${fx + 1} y=${fy + 1} width="10" height="10" rx="1"/><rect class="f" x=${fx + 4} y=${fy + 4} width="4" height="4"/>`;
  const modules = QR_MODULES.map(([cx, cy]) => `M${x + cx * 4} ${y + cy * 4}h3.4v3.4h-3.4z`).join('');
  return svg`<g class="qr">${finder(x, y)}${finder(x + 32, y)}${finder(x, y + 32)}<path class="f" d=${modules}/></g>`;
}

/** The machine-readable lines of a travel document, from `y`, 8 units apart. */
function mrz(y: number, count: number): SVGTemplateResult {
  const d = Array.from({ length: count }, (_, i) => `M17 ${y + i * 8}h142`).join('');
  return svg`<path class="mrz" d=${d}/>`;
}

/** A title band: an emblem and two lines of heading, ruled off from the rest of the card. */
const titleBand = (rule: number) =>
  svg`<circle cx="22" cy=${rule / 2 + 4} r="6"/><path d=${`M34 ${rule / 2}h78`}/>${text([[34, rule / 2 + 7, 54]])}<path class="m" d=${`M8 ${rule}h160`}/>`;

const DRAWINGS: Record<DrawingKey, () => SVGTemplateResult> = {
  // Title band, photo with the signature under it, the fields in two columns.
  'CNH-front': () =>
    svg`${card()}${titleBand(30)}${photo(18, 37, 36, 46)}${signature(16, 97)}${text([
      [64, 41, 92],
      [64, 51, 40],
      [114, 51, 42],
      [64, 61, 40],
      [114, 61, 42],
      [64, 71, 40],
      [114, 71, 42],
      [64, 81, 92],
      [64, 91, 60],
      [134, 91, 22],
    ])}`,
  // The QR code beside the table of categories, the remarks under them.
  'CNH-back': () =>
    svg`${card()}${qr(18, 18)}<g class="m"><rect x="74" y="18" width="84" height="44" rx="2"/><path d="M74 29h84M74 40h84M74 51h84M98 18v44M128 18v44"/></g>${text(
      [
        [18, 76, 140],
        [18, 86, 140],
        [18, 96, 96],
      ],
    )}`,
  // "Valid in the whole country", the photo, the signature, the thumbprint.
  'RG-front': () =>
    svg`${card()}<path d="M40 20h96"/>${photo(18, 30, 38, 48)}${signature(68, 66)}${text([[66, 72, 50]])}<g class="m"><rect x="124" y="30" width="34" height="44" rx="3"/><path d="M131 64c0-10 4-19 10-19s10 9 10 19M135 66c0-8 2-14 6-14s6 6 6 14M141 58v9M129 53c2-9 7-14 12-14s10 5 12 14"/></g>${text(
      [
        [18, 90, 68],
        [18, 99, 44],
        [96, 99, 62],
      ],
    )}`,
  // The state's heading with its arms, the general registry number, then the person's data.
  'RG-back': () =>
    svg`${card()}<circle cx="26" cy="24" r="9"/><circle class="m" cx="26" cy="24" r="4"/><path d="M42 18h100"/>${text([
      [42, 25, 82],
      [42, 32, 60],
    ])}<path d="M18 46h54"/>${text([
      [96, 46, 60],
      [18, 57, 138],
      [18, 67, 118],
      [18, 76, 110],
      [18, 86, 64],
      [96, 86, 60],
      [18, 96, 56],
    ])}${signature(112, 99)}`,
  // Title band, photo, the fields and the CPF in bold, the small second portrait.
  'CIN-front': () =>
    svg`${card()}${titleBand(28)}${photo(18, 35, 34, 44)}${signature(15, 96)}${text([
      [62, 40, 94],
      [62, 50, 70],
      [62, 60, 34],
      [104, 60, 52],
      [62, 70, 34],
      [104, 70, 52],
    ])}<path d="M62 84h58"/><g class="m"><rect x="134" y="78" width="22" height="24" rx="2" stroke-dasharray="3 2"/><circle cx="145" cy="87" r="4"/><path d="M138 102c0-5 3-8 7-8s7 3 7 8"/></g>${text([[62, 96, 50]])}`,
  // The fields beside the QR code, the three machine-readable lines under them.
  'CIN-back': () =>
    svg`${card()}${text([
      [18, 20, 84],
      [18, 29, 92],
      [18, 38, 70],
      [18, 47, 88],
      [18, 56, 60],
    ])}${qr(114, 16)}${mrz(76, 3)}`,
  // The photo page: heading, photo, fields, two machine-readable lines.
  'PASSPORT-front': () =>
    svg`${card()}<path d="M18 19h70"/>${photo(18, 26, 34, 44)}${text([
      [62, 30, 94],
      [62, 39, 70],
      [62, 48, 40],
      [110, 48, 46],
      [62, 57, 40],
      [110, 57, 46],
      [62, 66, 60],
    ])}${mrz(86, 2)}`,
  'card-front': () =>
    svg`${card()}${photo(18, 22, 38, 48)}<path d="M66 26h70"/>${text([
      [66, 38, 90],
      [66, 48, 70],
      [66, 58, 84],
      [66, 68, 56],
      [18, 90, 98],
    ])}${signature(116, 94)}`,
  'card-back': () =>
    svg`${card()}<path d="M18 24h90"/>${text([
      [18, 36, 140],
      [18, 46, 120],
      [18, 56, 132],
      [18, 66, 100],
      [18, 76, 124],
      [18, 86, 80],
    ])}${signature(110, 97)}`,
  // The camera's frame, the oval of its view, and a head and shoulders in it (the shoulders in
  // front of the oval, filled with the background).
  selfie: () =>
    svg`<path class="m" d="M30 22V14a6 6 0 0 1 6-6h10M130 8h10a6 6 0 0 1 6 6v8M146 94v8a6 6 0 0 1-6 6h-10M46 108H36a6 6 0 0 1-6-6v-8"/><ellipse class="oval" cx="88" cy="50" rx="31" ry="40" stroke-dasharray="6 5"/><ellipse cx="88" cy="47" rx="16" ry="20"/><path class="s" d="M46 108c0-16 18-27 42-27s42 11 42 27"/>`,
};

export function drawing(key: DrawingKey): SVGTemplateResult {
  return DRAWINGS[key]();
}
