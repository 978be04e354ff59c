/** The astronaut portrait (512 x 512), decoded in Node: 4 bytes a pixel. */
export declare function astronautPortrait(): { width: number; height: number; rgba: Uint8Array };
