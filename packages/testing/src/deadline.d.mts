/** The default deadline of every wait here. */
export declare const DEADLINE_MS: number;
/** `promise`, or a rejection naming `what` once `ms` have passed without it settling. */
export declare function withDeadline<T>(promise: Promise<T>, what: string, ms?: number): Promise<T>;
/** Resolves once `condition` holds (checked every `everyMs`); rejects naming `what` at the deadline. */
export declare function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  options?: { ms?: number; everyMs?: number },
): Promise<void>;
