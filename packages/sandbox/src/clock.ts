/**
 * The sandbox's clock and timers: when an onboarding is decided, when a token expires, when a
 * document inspection is done and when a query's webhook goes out. Real by default; a test passes
 * a clock it moves, so "still IN_PROCESS before processingMs" is checked exactly, not hoped for.
 */
export interface SandboxClock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: SandboxClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
