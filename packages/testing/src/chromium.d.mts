import type { Browser, BrowserContext, BrowserContextOptions, LaunchOptions } from 'playwright-core';

export declare function chromiumPath(): string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function fakeCameraArgs(y4mPath: string): string[];

export interface ChromiumLaunchSettings {
  /** A Y4M file the fake camera loops; no camera device at all without it. */
  cameraY4m?: string;
  /** Answer every camera prompt with yes (the fake permission UI). */
  grantCameraEverywhere?: boolean;
  /** Launch timeout in ms (Playwright's default without it). */
  timeout?: number;
}
export declare function chromiumLaunchOptions(settings?: ChromiumLaunchSettings): LaunchOptions & {
  executablePath: string;
  headless: true;
  args: string[];
};

export interface LaunchChromiumOptions {
  /** `'card'`: a fake camera looping the card picture. */
  camera?: 'card';
  grantCameraEverywhere?: boolean;
  timeout?: number;
}
export declare function launchChromium(options?: LaunchChromiumOptions): Promise<Browser>;

export declare function isLoopback(url: string | URL): boolean;
export declare function isolatedContext(
  browser: Browser,
  options?: BrowserContextOptions,
): Promise<{ context: BrowserContext; external: string[] }>;
