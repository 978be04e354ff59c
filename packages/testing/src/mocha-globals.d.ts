/**
 * The mocha BDD globals that Web Test Runner provides in the browser (no @types/mocha is
 * installed and the root tsconfig limits `types` to node). Test files pull this in with
 * `/// <reference types="@onboarding-kit/testing/mocha-globals" />`.
 */
type MochaDone = (error?: unknown) => void;
type MochaFn = (this: MochaContext, done: MochaDone) => void | Promise<unknown>;
interface MochaContext {
  timeout(ms: number): void;
  /** Runs a failed test again, up to `n` more times (mocha's own retries). */
  retries(n: number): void;
  skip(): never;
}
interface MochaSuiteFn {
  (title: string, fn: (this: MochaContext) => void): void;
}
interface MochaTestFn {
  (title: string, fn?: MochaFn): void;
}
declare const describe: MochaSuiteFn;
declare const it: MochaTestFn;
declare function before(fn: MochaFn): void;
declare function after(fn: MochaFn): void;
declare function beforeEach(fn: MochaFn): void;
declare function afterEach(fn: MochaFn): void;
