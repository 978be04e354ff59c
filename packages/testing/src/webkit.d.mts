import type { ChildProcess } from 'node:child_process';
import type { WebDriverSession } from './webdriver-client.mjs';

export declare function webkitDriverPath(): string;
export declare function miniBrowserPath(): string;
export declare const TOOLBAR_HEIGHT: number;
export declare const MIN_WINDOW_WIDTH: number;
export declare function miniBrowserArgs(options?: { camera?: boolean; extra?: string[] }): string[];
export declare function freePort(): Promise<number>;
export declare function startXvfb(options?: { screen?: string }): Promise<{ display: string; proc: ChildProcess; stop(): Promise<void> }>;
export declare function startWebKitDriver(options: { display: string; timeoutMs?: number; browserEnv?: Record<string, string> }): Promise<{
  base: string;
  port: number;
  proc: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}>;
export interface LaunchWebKitOptions {
  /** The mock cameras (default) or no camera device at all. */
  camera?: boolean;
  /** More MiniBrowser flags (e.g. `--proxy=http://127.0.0.1:port`). */
  extraArgs?: string[];
  /** Viewport size; the window gets MiniBrowser's toolbar on top. */
  width?: number;
  height?: number;
  browserEnv?: Record<string, string>;
  binary?: string;
}
export interface WebKitSession extends WebDriverSession {
  /** What the driver and MiniBrowser printed. */
  output: string[];
  display: string;
  /** Ends the session, the driver and Xvfb. */
  close(): Promise<void>;
}
export declare function launchWebKit(options?: LaunchWebKitOptions): Promise<WebKitSession>;
