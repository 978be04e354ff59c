/**
 * Pictures for the reader's tests until the shared document pictures exist: the test card with a
 * real QR code (encoded by uqr) drawn on it, where a document's QR code sits, and its payload.
 */
import { CARD } from '@onboarding-kit/testing/card-picture';
import { cardCanvas } from '@onboarding-kit/testing/pixels';
import { encode } from 'uqr';

/** A CIN-like verification text: what the card's QR code holds. */
export const QR_TEXT = 'https://verificador.example/cin?d=7f3a9c1e2b4d6f80&s=BRA-SP-123456789';

/** The test card with `text` as a QR code on its right half; `module` pixels a module. */
export function qrCardCanvas(text = QR_TEXT, module = 5): OffscreenCanvas {
  const canvas = cardCanvas();
  const context = canvas.getContext('2d')!;
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  const side = size * module;
  const left = CARD.x + CARD.width - side - 40;
  const top = CARD.y + Math.round((CARD.height - side) / 2);
  context.fillStyle = '#fff';
  context.fillRect(left, top, side, side);
  context.fillStyle = '#111';
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (data[y]![x]) context.fillRect(left + x * module, top + y * module, module, module);
  return canvas;
}

/** `text`'s UTF-8 bytes in base64, as a reading gives a payload. */
export function base64Of(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
