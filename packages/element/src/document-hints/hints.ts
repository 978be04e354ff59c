/**
 * What the page tells a person about a document photo before it is sent, from what the reader
 * found on it: a front that looks like a back, sides taken
 * the wrong way round, another kind of document than the one chosen, another person's card.
 * Advice only: the person can always go on, and where nothing was read nothing is claimed.
 */
import { onlyDigits, type ReadDocumentKind, type SideReading } from '@onboarding-kit/contract';

export type DocumentHint =
  /** The front photo carries the codes that this document has on its back. */
  | { kind: 'looks-like-back' }
  /** The front carries the codes and the back carries none: the photos were taken the wrong way round. */
  | { kind: 'sides-swapped' }
  /** The reading points to another kind of document, one the flow offers: `switchTo`. */
  | { kind: 'other-document'; switchTo: ReadDocumentKind }
  /** The MRZ's CPF is not the CPF typed. */
  | { kind: 'other-person' };

export type HintKind = DocumentHint['kind'];

export interface HintInput {
  /** The document type chosen (`CNH`, `CIN`, ...). */
  documentType: string | null;
  /** The document types the flow offers: a switch is suggested only to one of them. */
  offeredTypes: readonly string[];
  /** The CPF the person typed, when the page holds it whole (any punctuation); null otherwise. */
  typedCpf: string | null;
  /** Which photo's review shows the hints. */
  side: 'documentFront' | 'documentBack';
  front?: SideReading | undefined;
  back?: SideReading | undefined;
}

/** Document types whose machine-readable zone and QR code are printed on the back (the CIN, the 2022 CNH). */
const CODES_ON_BACK: ReadonlySet<string> = new Set(['CNH', 'CIN']);

/** A reading that was made and found nothing: the photo was read, and shows no code. */
const readEmpty = (reading: SideReading | undefined): boolean => !!reading && !reading.mrz && !reading.qr;

function otherDocument(input: HintInput): DocumentHint | null {
  const photo = input.side === 'documentFront' ? input.front : input.back;
  const kind = photo?.documentKind;
  if (!kind || kind === input.documentType || !input.offeredTypes.includes(kind)) return null;
  return { kind: 'other-document', switchTo: kind };
}

function sides(input: HintInput): DocumentHint | null {
  if (!input.documentType || !CODES_ON_BACK.has(input.documentType) || !input.front?.mrz) return null;
  if (input.side === 'documentFront') return { kind: 'looks-like-back' };
  return readEmpty(input.back) ? { kind: 'sides-swapped' } : null;
}

function otherPerson(input: HintInput): DocumentHint | null {
  const photo = input.side === 'documentFront' ? input.front : input.back;
  const read = photo?.mrz?.fields.cpf;
  const typed = input.typedCpf ? onlyDigits(input.typedCpf) : '';
  return read && typed.length === 11 && onlyDigits(read) !== typed ? { kind: 'other-person' } : null;
}

/**
 * The hints for the photo of `input.side`, the most useful first: the kind of document (switching
 * changes what the sides should carry), then the sides, then the person.
 */
export function documentHints(input: HintInput): DocumentHint[] {
  const kind = otherDocument(input);
  // Under another kind of document the sides' rule of the chosen one says nothing.
  const found = [kind, kind ? null : sides(input), otherPerson(input)];
  return found.filter((hint): hint is DocumentHint => hint !== null);
}
