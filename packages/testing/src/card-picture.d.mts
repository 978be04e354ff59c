export type Rgb = readonly [number, number, number];
export type ColourName = 'table' | 'card' | 'header' | 'photo' | 'hair' | 'skin' | 'eye' | 'mouth' | 'text' | 'stamp';
export declare const PICTURE_WIDTH: number;
export declare const PICTURE_HEIGHT: number;
export declare const CARD: Readonly<{ x: number; y: number; width: number; height: number }>;
export declare const COLOURS: Readonly<Record<ColourName, Rgb>>;
export type Shape =
  | { kind: 'rect'; x0: number; y0: number; x1: number; y1: number; colour: ColourName }
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number; colour: ColourName };
export declare const SHAPES: readonly Shape[];
export interface Probe {
  name: string;
  x: number;
  y: number;
  colour: ColourName;
}
export declare const PROBES: readonly Probe[];
export declare function colourNameAt(x: number, y: number): ColourName;
export declare function renderCardPicture(): { width: number; height: number; rgb: Uint8Array };
export declare function renderCardPictureRgba(): { width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> };
export declare function rgbToRgba(picture: { width: number; height: number; rgb: Uint8Array }): {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
};
