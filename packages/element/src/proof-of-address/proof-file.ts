/**
 * What a file offered as a proof of address is, by its first bytes (never its name or its
 * declared type): a PDF, sent as it is; an image, which the photo pipeline checks and compresses;
 * or anything else, refused with a clear message.
 */
import { SNIFF_BYTES, sniffBytes } from '@onboarding-kit/contract';

export type ProofFileKind = 'pdf' | 'image' | 'other';

export async function proofFileKind(file: Blob): Promise<ProofFileKind> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  const type = sniffBytes(head);
  if (type === 'application/pdf') return 'pdf';
  // GIF, HEIC and the like: the pipeline says they are images it cannot take.
  return type !== null || file.type.startsWith('image/') ? 'image' : 'other';
}
