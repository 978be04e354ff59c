import type { MrzFormat, MrzReading, ReadDocumentKind } from '@onboarding-kit/contract';

export interface ExpectedDocumentReading {
  side: 'documentFront' | 'documentBack';
  /** The QR code's text, when the picture has a code. */
  qr?: string;
  /** The zone, when the picture has one: its format, lines, fields (CPF included) and whether every check digit holds. */
  format?: MrzFormat;
  lines?: readonly string[];
  fields?: Readonly<MrzReading['fields']>;
  valid?: boolean;
  /** The kind a reading should claim; absent where it should claim none. */
  kind?: ReadDocumentKind;
}
export interface DocumentPicture {
  id: string;
  expected: ExpectedDocumentReading;
}
export declare const DOCUMENT_PICTURE_WIDTH: number;
export declare const DOCUMENT_PICTURE_HEIGHT: number;
export declare const DOCUMENT_PICTURES: readonly DocumentPicture[];
export declare function renderDocumentPicture(id: string): { width: number; height: number; rgb: Uint8Array };
export declare function documentPictureLuma(id: string): { width: number; height: number; gray: Uint8Array };
export declare function drawDocumentPicture(canvas: HTMLCanvasElement, id: string): HTMLCanvasElement;
export declare function documentPictureFile(id: string, type?: 'image/png' | 'image/jpeg', quality?: number): Promise<File>;
