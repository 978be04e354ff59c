import type { TestRunnerPlugin } from '@web/test-runner';
/** The path of the page the gallery test frames (it loads the element). */
export declare const GALLERY_FRAME_PATH: string;
/** Width and height of a PNG, from its IHDR chunk (null when the bytes are not a PNG). */
export declare function pngSize(png: Uint8Array & { readUInt32BE(offset: number): number; length: number }): { width: number; height: number } | null;
/** Rewrites `<dir>/index.html` from the pictures under `<dir>/<engine>/` and the step order in `<dir>/steps.json`. */
export declare function writeGalleryIndex(dir: string): Promise<void>;
/** The frame page and the `gallery-*` server commands; `root` is the repository's root directory. */
export declare function galleryPlugin(options: { root: string }): TestRunnerPlugin;
