/* eslint-disable @typescript-eslint/no-explicit-any -- a WebDriver answer is JSON whose shape the command decides; callers name it */
/** A W3C element or shadow-root reference as WebDriver returns it. */
export type ElementRef = Record<string, string>;
export declare const SHADOW_ROOT: string;
export declare class WebDriverError extends Error {
  /** The W3C error code ('no such element', 'javascript error', ...). */
  error: string | undefined;
}
export declare function elementId(element: ElementRef | string): string;
export declare class WebDriverSession {
  base: string;
  id: string;
  capabilities: Record<string, unknown>;
  static create(base: string, capabilities: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<WebDriverSession>;
  cmd(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<any>;
  delete(): Promise<void>;
  setTimeouts(t: { script?: number; pageLoad?: number; implicit?: number }): Promise<void>;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  title(): Promise<string>;
  execute<T = any>(fn: string | ((...args: any[]) => T | Promise<T>), ...args: unknown[]): Promise<T>;
  executeAsync<T = any>(fn: string | ((...args: any[]) => T | Promise<T>), ...args: unknown[]): Promise<T>;
  screenshot(): Promise<Buffer>;
  elementScreenshot(element: ElementRef | string): Promise<Buffer>;
  getWindowRect(): Promise<{ x: number; y: number; width: number; height: number }>;
  setWindowRect(rect: {
    x?: number;
    y?: number;
    width?: number;
    height?: number;
  }): Promise<{ x: number; y: number; width: number; height: number }>;
  findElement(using: string, value: string): Promise<ElementRef>;
  click(element: ElementRef | string): Promise<void>;
  sendKeys(element: ElementRef | string, text: string): Promise<void>;
  clear(element: ElementRef | string): Promise<void>;
  text(element: ElementRef | string): Promise<string>;
  computedRole(element: ElementRef | string): Promise<string>;
  computedLabel(element: ElementRef | string): Promise<string>;
  shadowRoot(element: ElementRef | string): Promise<ElementRef>;
  switchToFrame(element: ElementRef | number | null): Promise<void>;
  switchToParentFrame(): Promise<void>;
  performActions(actions: unknown[]): Promise<void>;
}
