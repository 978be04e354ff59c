export interface RgbPicture {
  width: number;
  height: number;
  rgb: Uint8Array;
}
export declare function rgbToI420(picture: RgbPicture): Uint8Array;
export declare function encodeY4m(picture: RgbPicture, frames?: number): Uint8Array;
/** Absolute path of a fresh .y4m of the card picture (removed at process exit). */
export declare function writeCardY4m(): string;
/** Absolute path of a fresh .y4m of one document picture, by its id (removed at process exit). */
export declare function writeDocumentY4m(id: string): string;
