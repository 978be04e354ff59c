import type { Browser } from 'puppeteer-core';

export declare function firefoxPath(): string;
export declare function firefoxEnv(extra?: Record<string, string>): Record<string, string | undefined>;
export declare const QUIET_PREFS: Readonly<Record<string, string | number | boolean>>;
export declare const FAKE_CAMERA_PREFS: Readonly<Record<string, string | number | boolean>>;
export declare function fakeCameraPrefs(defaultState: 'granted' | 'denied'): Record<string, string | number | boolean>;
/** 'auto': always granted; 'granted' / 'denied': that default, flipped by setCameraPermission; else no camera. */
export type FirefoxCamera = 'auto' | 'granted' | 'denied' | 'none';
export declare function cameraPrefs(camera?: FirefoxCamera): Record<string, string | number | boolean>;
export interface LaunchFirefoxOptions {
  camera?: FirefoxCamera;
  prefs?: Record<string, string | number | boolean>;
  headless?: boolean;
  timeout?: number;
  /** Lets setCameraPermission work (on by default with camera 'granted' / 'denied'). */
  systemAccess?: boolean;
}
/** Headless Firefox over WebDriver BiDi with a fresh profile (removed by `close()`). */
export declare function launchFirefox(options?: LaunchFirefoxOptions): Promise<Browser>;
export declare function setCameraPermission(browser: Browser, origin: string, state: 'granted' | 'denied' | 'prompt'): Promise<void>;
