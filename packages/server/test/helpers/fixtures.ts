/** Test inputs: tiny real JPEG/PNG headers as base64, and a creation body builder. */
import { bytesToBase64 } from '@onboarding-kit/contract';

export const JPEG = bytesToBase64(
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]),
);
export const PNG = bytesToBase64(
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1]),
);
export const GIF = bytesToBase64(new TextEncoder().encode('GIF89a-not-accepted'));

/** An image of `bytes` decoded bytes that starts like a JPEG. */
export function jpegOfSize(bytes: number): string {
  const b = new Uint8Array(bytes);
  b.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytesToBase64(b);
}

export const CPF_APPROVED = '529.982.247-25';
export const CPF_APPROVED_DIGITS = '52998224725';

export function createBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cpf: CPF_APPROVED,
    name: 'Maria Silva',
    documentType: 'CNH',
    images: { documentFront: JPEG, documentBack: PNG, selfie: JPEG },
    ...over,
  };
}
