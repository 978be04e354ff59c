/**
 * What the page read from a document photo before sending it (docs/page-api.md):
 * the QR code's payload and the machine-readable zone, with their check-digit results. It is a
 * help for the person and a record for the backend; no verdict of the companion depends on it.
 */

/** The MRZ layouts the page reads: ID cards (TD1, three lines of 30), TD2 (two of 36), passports (TD3, two of 44). */
export const MRZ_FORMATS = ['TD1', 'TD2', 'TD3'] as const;
export type MrzFormat = (typeof MRZ_FORMATS)[number];

/** Fields a check digit guards; `composite` is the digit over the whole zone. */
export const MRZ_CHECKED_FIELDS = ['documentNumber', 'birthDate', 'expirationDate', 'personalNumber', 'composite'] as const;
export type MrzCheckedField = (typeof MRZ_CHECKED_FIELDS)[number];

export interface MrzReading {
  format: MrzFormat;
  /** The lines as read, `<` fillers kept: 3 of 30 characters, or 2 of 36 or 44, each of `A-Z`, `0-9` and `<`. */
  lines: string[];
  /** The parsed fields, as the zone spells them (dates as YYMMDD); a field the zone leaves empty is absent. */
  fields: {
    documentCode?: string;
    issuingState?: string;
    documentNumber?: string;
    birthDate?: string;
    sex?: string;
    expirationDate?: string;
    nationality?: string;
    lastName?: string;
    firstName?: string;
    /** TD1/TD2 optional data, or the TD3 personal number. */
    optional?: string;
    /** A CPF the zone carries (the CIN's document number), digits only, when its check digits hold. */
    cpf?: string;
  };
  /** Each check digit the format has, and whether it holds. */
  checks: { field: MrzCheckedField; valid: boolean }[];
  /** True when every check digit holds. */
  valid: boolean;
}

export interface QrReading {
  /** The code's bytes, in standard base64. */
  payloadBase64: string;
}

/** The document kinds a reading can recognise. */
export const READ_DOCUMENT_KINDS = ['CNH', 'CIN', 'PASSPORT'] as const;
export type ReadDocumentKind = (typeof READ_DOCUMENT_KINDS)[number];

/** What one photo gave. Both members absent: nothing could be read, and nothing is claimed. */
export interface SideReading {
  qr?: QrReading;
  mrz?: MrzReading;
  /** The kind the reading points to, when it points to one. */
  documentKind?: ReadDocumentKind;
}

/** `documentReading` of a creation: what each document photo gave. */
export type DocumentReading = Partial<Record<'documentFront' | 'documentBack', SideReading>>;

export const DOCUMENT_READING_LIMITS = {
  /** Largest QR payload kept, in bytes (a version-40 code holds at most 2953). */
  qrPayloadMaxBytes: 3072,
} as const;
