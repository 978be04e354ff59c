export declare function chromiumPath(): string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function fakeCameraArgs(y4mPath: string): string[];
