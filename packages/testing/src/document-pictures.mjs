/**
 * Document pictures for the reading tests: the backs of a CIN and of a 2022 CNH (a real QR code
 * and a TD1 zone with real check digits), their fronts, a passport data page (TD3), and variants
 * (the zone in a plain monospace, a slight rotation, perspective and scale, blur, low light, a
 * damaged check digit). Each comes with what a reading should give, so tests can count the share
 * of pictures read and compare fields exactly.
 *
 * Isomorphic: `renderDocumentPicture` gives packed RGB in Node (for the fake camera's Y4M, see
 * y4m.mjs) and in browsers; `drawDocumentPicture` and `documentPictureFile` put it on a canvas and
 * into a PNG or JPEG file in any of the three engines.
 */
import { rgbToRgba } from './card-picture.mjs';
import { cinBack, cinFront, cnhBack, cnhFront, passportPage } from './document-layouts.mjs';
import { cpfWithCheckDigits, td1Lines, td3Lines, withWrongDigit } from './mrz-lines.mjs';
import { blur, dim, warpOnto } from './picture-raster.mjs';

export const DOCUMENT_PICTURE_WIDTH = 1280;
export const DOCUMENT_PICTURE_HEIGHT = 800;
const TABLE = [70, 80, 95];

const CIN_CPF = cpfWithCheckDigits('529982247');
const CIN_PERSON = {
  name: 'MARIA CLARA DOS SANTOS',
  mother: 'ANA DOS SANTOS',
  birthPlace: 'CAMPINAS SP',
  cpfFormatted: `${CIN_CPF.slice(0, 3)}.${CIN_CPF.slice(3, 6)}.${CIN_CPF.slice(6, 9)}-${CIN_CPF.slice(9)}`,
  birthDate: '15 03 1985',
  expiry: '21 09 2033',
  sex: 'F',
};
const CIN_FIELDS = {
  documentCode: 'I',
  issuingState: 'BRA',
  documentNumber: CIN_CPF,
  birthDate: '850315',
  sex: 'F',
  expirationDate: '330921',
  nationality: 'BRA',
  lastName: 'DOS SANTOS',
  firstName: 'MARIA CLARA',
};
const CNH_FIELDS = {
  documentCode: 'I',
  issuingState: 'BRA',
  documentNumber: '074512983',
  birthDate: '790628',
  sex: 'M',
  expirationDate: '310114',
  nationality: 'BRA',
  lastName: 'FERREIRA LIMA',
  firstName: 'CARLOS EDUARDO',
};
const PASSPORT_FIELDS = {
  documentCode: 'P',
  issuingState: 'BRA',
  documentNumber: 'GA123456',
  birthDate: '900101',
  sex: 'M',
  expirationDate: '320512',
  nationality: 'BRA',
  lastName: 'OLIVEIRA',
  firstName: 'PEDRO HENRIQUE',
};
const CNH_PERSON = { name: 'CARLOS EDUARDO FERREIRA LIMA', cpfFormatted: '741.852.963-00', birthDate: '28 06 1979', expiry: '14 01 2031' };

/** A long base64-like text, as the CNH's signed data: enough for a dense code. */
function signedDataText(length) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let seed = 2022;
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += alphabet[seed % 64];
  }
  return `${out}==`;
}
const PASSPORT_PERSON = { lastName: 'OLIVEIRA', firstName: 'PEDRO HENRIQUE', birthDate: '01 01 1990', expiry: '12 05 2032' };
const CIN_QR = 'https://verifica.cin.example/v1/BR/7Q2K9XW4M8T3RZ5N';
const CNH_QR = signedDataText(560);

const cinZone = td1Lines(CIN_FIELDS);
const cnhZone = td1Lines(CNH_FIELDS);
const passportZone = td3Lines(PASSPORT_FIELDS);

/** Where the flat document lands: centred, `width` px wide, turned `degrees`, corners nudged by `skew`. */
function placement(doc, { width, degrees = 0, skew = [0, 0, 0, 0], dx = 0, dy = 0 }) {
  const height = (width * doc.height) / doc.width;
  const cx = DOCUMENT_PICTURE_WIDTH / 2 + dx;
  const cy = DOCUMENT_PICTURE_HEIGHT / 2 + dy;
  const t = (degrees * Math.PI) / 180;
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([sx, sy], i) => {
    const x = (sx * width) / 2 + (i < 2 ? skew[i] : 0);
    const y = (sy * height) / 2 + (i >= 2 ? skew[i] : 0);
    return [cx + x * Math.cos(t) - y * Math.sin(t), cy + x * Math.sin(t) + y * Math.cos(t)];
  });
}

const back = (lines, qr) => ({ side: 'documentBack', qr, lines });
/**
 * The pictures. `expected`: the side, the QR text (when there is a code), the zone's lines and
 * fields, the CPF it carries, the kind a reading should claim, and whether every check digit holds.
 */
const SPECS = [
  { id: 'cin-back', draw: () => cinBack({ qrText: CIN_QR, mrzLines: cinZone, font: 'ocrb', person: CIN_PERSON }), place: { width: 920 } },
  {
    id: 'cin-back-mono',
    draw: () => cinBack({ qrText: CIN_QR, mrzLines: cinZone, font: 'dejavuMono', person: CIN_PERSON }),
    place: { width: 920 },
  },
  { id: 'cin-back-rotated', base: 'cin-back', place: { width: 900, degrees: 3 } },
  { id: 'cin-back-blurred', base: 'cin-back', place: { width: 920 }, blur: 1 },
  { id: 'cin-back-low-light', base: 'cin-back', place: { width: 920 }, dim: [0.28, 5] },
  {
    id: 'cin-back-damaged',
    draw: () => cinBack({ qrText: CIN_QR, mrzLines: withWrongDigit(cinZone, 1, 6), font: 'ocrb', person: CIN_PERSON }),
    place: { width: 920 },
  },
  { id: 'cnh-back', draw: () => cnhBack({ qrText: CNH_QR, mrzLines: cnhZone, font: 'ocrb' }), place: { width: 940 } },
  { id: 'cnh-back-rotated', base: 'cnh-back', place: { width: 920, degrees: -2.5 } },
  { id: 'cnh-back-perspective', base: 'cnh-back', place: { width: 760, skew: [50, -30, 20, -40], dx: 60, dy: -30 } },
  { id: 'cnh-back-mono', draw: () => cnhBack({ qrText: CNH_QR, mrzLines: cnhZone, font: 'dejavuMono' }), place: { width: 940 } },
  { id: 'passport', draw: () => passportPage({ mrzLines: passportZone, font: 'ocrb', person: PASSPORT_PERSON }), place: { width: 1120 } },
  {
    id: 'passport-mono',
    draw: () => passportPage({ mrzLines: passportZone, font: 'dejavuMono', person: PASSPORT_PERSON }),
    place: { width: 1120 },
  },
  { id: 'passport-rotated', base: 'passport', place: { width: 1060, degrees: -2 } },
  { id: 'cin-front', draw: () => cinFront({ person: CIN_PERSON }), place: { width: 920 } },
  { id: 'cnh-front', draw: () => cnhFront({ person: CNH_PERSON }), place: { width: 920, degrees: 2 } },
];
function expectedFor(id) {
  const family = id.split('-').slice(0, 2).join('-');
  if (family === 'cin-front' || family === 'cnh-front') return { side: 'documentFront' };
  if (id.startsWith('passport'))
    return { side: 'documentFront', format: 'TD3', lines: passportZone, fields: PASSPORT_FIELDS, kind: 'PASSPORT', valid: true };
  if (family === 'cnh-back') return { ...back(cnhZone, CNH_QR), format: 'TD1', fields: CNH_FIELDS, valid: true };
  const damaged = id === 'cin-back-damaged';
  return {
    ...back(damaged ? withWrongDigit(cinZone, 1, 6) : cinZone, CIN_QR),
    format: 'TD1',
    fields: { ...CIN_FIELDS, cpf: CIN_CPF },
    kind: 'CIN',
    valid: !damaged,
  };
}

/** Every picture's id, with what a reading of it should give. */
export const DOCUMENT_PICTURES = Object.freeze(SPECS.map(({ id }) => Object.freeze({ id, expected: expectedFor(id) })));

const flat = new Map();
function flatDocument(spec) {
  const key = spec.base ?? spec.id;
  if (!flat.has(key)) flat.set(key, SPECS.find((s) => s.id === key).draw());
  return flat.get(key);
}

/** One picture as packed RGB (3 bytes a pixel, row-major), 1280 x 800. */
export function renderDocumentPicture(id) {
  const spec = SPECS.find((s) => s.id === id);
  if (!spec) throw new RangeError(`no document picture "${id}"; there are ${SPECS.map((s) => s.id).join(', ')}`);
  const doc = flatDocument(spec);
  const picture = warpOnto(doc, {
    width: DOCUMENT_PICTURE_WIDTH,
    height: DOCUMENT_PICTURE_HEIGHT,
    corners: placement(doc, spec.place),
    table: TABLE,
  });
  if (spec.blur) blur(picture, spec.blur);
  if (spec.dim) dim(picture, ...spec.dim);
  return picture;
}

/** 8-bit luma (BT.601) of a picture, as the reader is given it. */
export function documentPictureLuma(id) {
  const { width, height, rgb } = renderDocumentPicture(id);
  const gray = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < gray.length; i++, p += 3) gray[i] = Math.round(0.299 * rgb[p] + 0.587 * rgb[p + 1] + 0.114 * rgb[p + 2]);
  return { width, height, gray };
}

/** Browsers: draws the picture on `canvas` (resized to it). */
export function drawDocumentPicture(canvas, id) {
  const { width, height, rgba } = rgbToRgba(renderDocumentPicture(id));
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d').putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
}

/** Browsers: the picture as a PNG or JPEG File named after it. */
export async function documentPictureFile(id, type = 'image/png', quality = 0.92) {
  const canvas = drawDocumentPicture(document.createElement('canvas'), id);
  const blob = await new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(`the canvas gave no ${type}`))), type, quality),
  );
  return new File([blob], `${id}.${type === 'image/jpeg' ? 'jpg' : 'png'}`, { type });
}
