/** The reader's tests' pictures: the test card with a real QR code (@onboarding-kit/testing/qr-card). */
import { QR_CARD_TEXT, qrCardRgba } from '@onboarding-kit/testing/qr-card';

export { QR_CARD_TEXT as QR_TEXT };

/** The QR card as a canvas; `module` pixels a QR module. */
export function qrCardCanvas(text = QR_CARD_TEXT, module = 5): OffscreenCanvas {
  const { width, height, rgba } = qrCardRgba(text, module);
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
  return canvas;
}

/** `text`'s UTF-8 bytes in base64, as a reading gives a payload. */
export function base64Of(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
