/**
 * One small interface for end-to-end tests across engines, so that one scenario runs in Chromium,
 * Firefox and WebKit. Each engine finds targets its own best way (see the implementations).
 */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/**
 * What to act on: `{ css }` (a selector) or `{ role, name }` (accessible role and exact name);
 * `within` is the CSS selector of a custom element whose OPEN shadow root is searched (nested
 * open shadow roots below it too).
 */
export type Target = { css: string; within?: string } | { role: string; name: string; within?: string };

export interface Viewport {
  width: number;
  height: number;
}

/** What a page let escape: uncaught errors, rejections, console errors, CSP violations. */
export interface PageErrors {
  errors: string[];
  console: string[];
  csp: string[];
}

export interface Driver {
  readonly engine: EngineName;
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (the page's CSP does not apply) with one JSON argument; returns its awaited JSON result. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  click(target: Target): Promise<void>;
  fill(target: Target, text: string): Promise<void>;
  text(target: Target): Promise<string>;
  /** Gives a file input (hidden ones too) the file at `path`. */
  setFiles(target: Target, path: string): Promise<void>;
  /** Resolves once the target exists and is visible (rejects after `timeoutMs`, 30 s by default). */
  waitFor(target: Target, timeoutMs?: number): Promise<void>;
  /** A screenshot of the page (full page where the engine can; WebKit: the viewport). */
  screenshot(path: string): Promise<void>;
  /** Resizes the viewport; answers the size the page really got (WebKit: never below 447 px wide). */
  setViewport(size: Viewport): Promise<Viewport>;
  /** Everything the error collector and the engine's own events saw since the driver opened. */
  errors(): Promise<PageErrors>;
  close(): Promise<void>;
}
