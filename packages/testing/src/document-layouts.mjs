/**
 * The documents the test pictures show, drawn flat at 12 pixels a millimetre: the backs of a CIN
 * and of a 2022 CNH (a QR code and a TD1 zone), their fronts (a photo and text fields, no code)
 * and a passport data page (a TD3 zone). Invented people and numbers throughout.
 */
import { encodeQR } from 'qr';
import { capHeight, drawQr, drawText, fillEllipse, fillRect, rgbBuffer } from './picture-raster.mjs';

/** Pixels a millimetre of the flat documents. */
const MM = 12;
/** The zone's character pitch, 2.54 mm as ICAO 9303 prints it. */
const PITCH = 2.54 * MM;
const INK = [25, 27, 35];
const ID1 = { width: Math.round(85.6 * MM), height: Math.round(53.98 * MM) };
const PASSPORT_PAGE = { width: 125 * MM, height: 88 * MM };

/** Field labels and values in small capitals, in rows from (`x`, `y`) mm. */
function fieldRows(buf, x, y, rows) {
  rows.forEach(([label, value], i) => {
    const top = (y + i * 6.2) * MM;
    drawText(buf, { x: x * MM, top, pitch: 1.3 * MM, font: 'dejavuMono', text: label, colour: [90, 95, 110] });
    drawText(buf, { x: x * MM, top: top + 2.2 * MM, pitch: 1.9 * MM, font: 'dejavuMono', text: value, colour: INK });
  });
}

/** A face-like photo (hair, face, eyes, mouth) in a box of `w` x `h` mm at (`x`, `y`). */
function photo(buf, x, y, w, h) {
  const X = (v) => (x + v * w) * MM;
  const Y = (v) => (y + v * h) * MM;
  fillRect(buf, X(0), Y(0), X(1), Y(1), [170, 185, 200]);
  fillEllipse(buf, X(0.5), Y(0.33), 0.36 * w * MM, 0.2 * h * MM, [60, 40, 30]);
  fillEllipse(buf, X(0.5), Y(0.55), 0.32 * w * MM, 0.33 * h * MM, [205, 160, 125]);
  fillEllipse(buf, X(0.38), Y(0.5), 0.04 * w * MM, 0.03 * h * MM, [40, 30, 30]);
  fillEllipse(buf, X(0.62), Y(0.5), 0.04 * w * MM, 0.03 * h * MM, [40, 30, 30]);
  fillRect(buf, X(0.4), Y(0.7), X(0.6), Y(0.73), [150, 60, 60]);
  fillRect(buf, X(0.1), Y(0.9), X(0.9), Y(1), [50, 60, 90]);
}

/** The zone's lines, bottom-aligned with `bottom` mm of room below, in `font`, on a lighter band. */
function zone(buf, lines, { font, left, bottom, band }) {
  const cap = capHeight(font, PITCH);
  const step = 4.4 * MM;
  const firstTop = buf.height - bottom * MM - cap - (lines.length - 1) * step;
  fillRect(buf, 0, firstTop - 2 * MM, buf.width, buf.height, band);
  lines.forEach((text, i) => drawText(buf, { x: left * MM, top: firstTop + i * step, pitch: PITCH, font, text, colour: INK }));
}

function header(buf, colour, title, subtitle) {
  fillRect(buf, 0, 0, buf.width, 7 * MM, colour);
  drawText(buf, { x: 4 * MM, top: 1.6 * MM, pitch: 1.8 * MM, font: 'dejavuMono', text: title, colour: [240, 240, 235] });
  if (subtitle) drawText(buf, { x: 4 * MM, top: 4.4 * MM, pitch: 1.1 * MM, font: 'dejavuMono', text: subtitle, colour: [220, 225, 235] });
}

/** The back of a CIN: QR code top right, filiation fields, a TD1 zone. */
export function cinBack({ qrText, mrzLines, font, person }) {
  const buf = rgbBuffer(ID1.width, ID1.height, [226, 232, 226]);
  header(buf, [40, 110, 80], 'CARTEIRA DE IDENTIDADE', 'REPUBLICA FEDERATIVA DO BRASIL');
  drawQr(buf, encodeQR(qrText, 'raw', { ecc: 'medium' }), 58 * MM, 9 * MM, 25 * MM, { dark: INK, light: [250, 250, 248] });
  fieldRows(buf, 4, 10, [
    ['FILIACAO', person.mother],
    ['NATURALIDADE', person.birthPlace],
    ['ORGAO EXPEDIDOR', 'SSP SP'],
  ]);
  zone(buf, mrzLines, { font, left: 4.6, bottom: 3.2, band: [240, 242, 238] });
  return buf;
}

/** The back of a 2022 CNH: a large, dense QR code on the left, observations, a TD1 zone. */
export function cnhBack({ qrText, mrzLines, font }) {
  const buf = rgbBuffer(ID1.width, ID1.height, [214, 228, 206]);
  drawQr(buf, encodeQR(qrText, 'raw', { ecc: 'low' }), 3 * MM, 3 * MM, 31 * MM, { dark: INK, light: [250, 250, 248] });
  fieldRows(buf, 38, 4, [
    ['OBSERVACOES', 'EAR'],
    ['LOCAL', 'SAO PAULO SP'],
    ['DATA EMISSAO', '12 03 2024'],
  ]);
  zone(buf, mrzLines, { font, left: 4.6, bottom: 3.2, band: [232, 240, 228] });
  return buf;
}

/** A card front: the header, a photo at `photoBox` mm (x, y, w, h), field rows from `fieldsX` mm. */
function front({ background, headerColour, title }, photoBox, fieldsX, rows) {
  const buf = rgbBuffer(ID1.width, ID1.height, background);
  header(buf, headerColour, title, 'REPUBLICA FEDERATIVA DO BRASIL');
  photo(buf, ...photoBox);
  fieldRows(buf, fieldsX, 10, rows);
  return buf;
}

/** The front of a CIN: photo and identity fields, no code. */
export function cinFront({ person }) {
  return front({ background: [226, 232, 226], headerColour: [40, 110, 80], title: 'CARTEIRA DE IDENTIDADE' }, [4, 10, 24, 32], 32, [
    ['NOME', person.name],
    ['CPF', person.cpfFormatted],
    ['DATA DE NASCIMENTO', person.birthDate],
    ['VALIDADE', person.expiry],
    ['SEXO', person.sex],
  ]);
}

/** The front of a CNH: photo and licence fields and a red stamp, no code. */
export function cnhFront({ person }) {
  const style = { background: [214, 228, 206], headerColour: [30, 90, 60], title: 'CARTEIRA NACIONAL DE HABILITACAO' };
  const buf = front(style, [4, 10, 22, 30], 30, [
    ['NOME', person.name],
    ['CPF', person.cpfFormatted],
    ['DATA NASCIMENTO', person.birthDate],
    ['CAT HAB', 'AB'],
    ['VALIDADE', person.expiry],
  ]);
  fillRect(buf, 70 * MM, 44 * MM, 81 * MM, 51 * MM, [185, 40, 45]);
  return buf;
}

/** A passport data page: photo, fields and a TD3 zone. */
export function passportPage({ mrzLines, font, person }) {
  const buf = rgbBuffer(PASSPORT_PAGE.width, PASSPORT_PAGE.height, [232, 228, 214]);
  header(buf, [30, 60, 120], 'PASSAPORTE PASSPORT', 'REPUBLICA FEDERATIVA DO BRASIL');
  photo(buf, 6, 12, 30, 40);
  fieldRows(buf, 42, 11, [
    ['SOBRENOME SURNAME', person.lastName],
    ['NOME GIVEN NAMES', person.firstName],
    ['NACIONALIDADE', 'BRASILEIRO'],
    ['DATA DE NASCIMENTO', person.birthDate],
    ['VALIDADE', person.expiry],
  ]);
  zone(buf, mrzLines, { font, left: 6.6, bottom: 5, band: [242, 240, 230] });
  return buf;
}
