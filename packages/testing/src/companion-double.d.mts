import type { Hono } from 'hono';

/** Path prefix the double answers under: `/test-companion/<namespace>/...`. */
export declare const COMPANION_PREFIX: string;
/** The double as a Hono app (for driving it without a dev server). */
export declare function createCompanionDoubleApp(): Hono;
/** Web Test Runner / dev-server plugin that answers `/test-companion/...` before the dev server. */
export declare function companionDouble(): {
  name: string;
  serverStart(args: { server?: import('node:http').Server }): void;
  serverStop(): void;
};
