/**
 * The test card (card-picture.mjs) with a real QR code on its right half, where a CIN or a CNH
 * carries one, as RGBA or RGB. Pure pixels, no DOM: browser tests and the reading bench draw it
 * on a canvas, Node writes it as Chromium's fake camera (y4m.mjs).
 */
import { encodeQR } from 'qr';
import { CARD, renderCardPictureRgba } from './card-picture.mjs';

/** A CIN-like verification text. */
export const QR_CARD_TEXT = 'https://verificador.example/cin?d=7f3a9c1e2b4d6f80&s=BRA-SP-123456789';

export function qrCardRgba(text = QR_CARD_TEXT, module = 5): { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> } {
  const picture = renderCardPictureRgba();
  const matrix = encodeQR(text, 'raw', { ecc: 'medium', border: 2 });
  const side = matrix.length * module;
  const left = CARD.x + CARD.width - side - 40;
  const top = CARD.y + Math.round((CARD.height - side) / 2);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const dark = matrix[Math.floor(y / module)]![Math.floor(x / module)];
      const at = ((top + y) * picture.width + left + x) * 4;
      picture.rgba.fill(dark ? 17 : 255, at, at + 3);
    }
  }
  return picture;
}

/** The same picture as RGB (what a Y4M file is written from). */
export function qrCardRgb(): { width: number; height: number; rgb: Uint8Array } {
  const { width, height, rgba } = qrCardRgba();
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) rgb.set(rgba.subarray(i, i + 3), j);
  return { width, height, rgb };
}
